/**
 * The flows of one machine, looked up by id. Every lookup failure is a caller's mistake (an
 * entity saved under a flow or state this machine no longer has), so each throws a coded error.
 */
import { StmError, StmErrorCodes } from '../errors/stm-error';
import type { FlowDefinition, StateDefinition } from '../model/flow-definition';
import { describeLocation } from '../validation/flow-validator';

export class FlowCatalog {
  private readonly byId: ReadonlyMap<string, FlowDefinition>;
  private readonly defaultFlow: FlowDefinition | undefined;

  /** `flows` with the config applied; the default is the one marked so, or the only one. */
  constructor(readonly flows: readonly FlowDefinition[]) {
    this.byId = new Map(flows.map((f) => [f.id, f] as const));
    this.defaultFlow = flows.find((f) => f.isDefault === true) ?? (flows.length === 1 ? flows[0] : undefined);
  }

  /** The flow `flowId`, or the default flow when none is given. */
  flow(flowId?: string): FlowDefinition {
    const found = flowId === undefined ? this.defaultFlow : this.byId.get(flowId);
    if (found === undefined) {
      const known = [...this.byId.keys()].map((k) => `'${k}'`).join(', ');
      throw new StmError({
        code: StmErrorCodes.unknownFlow,
        message:
          flowId === undefined
            ? `No default flow: give a flow id (known: ${known})`
            : `Unknown flow '${flowId}' (known: ${known})`,
        ...(flowId === undefined ? {} : { flowId }),
      });
    }
    return found;
  }

  stateOf(flow: FlowDefinition, stateId: string): StateDefinition {
    const found = flow.states.find((s) => s.id === stateId);
    if (found === undefined) {
      throw new StmError({
        code: StmErrorCodes.unknownState,
        message: `${describeLocation(flow.id, stateId)}: no such state in the flow (unknown, or disabled by config)`,
        flowId: flow.id,
        stateId,
      });
    }
    return found;
  }
}
