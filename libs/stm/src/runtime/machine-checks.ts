/**
 * Checks a state machine makes once, when it is made, so that a flow naming an action or condition
 * nobody registered fails at start-up rather than on the first event that reaches it.
 */
import { StmError, StmErrorCodes } from '../errors/stm-error';
import { parseConditionRef, type FlowDefinition, type StmConfig } from '../model/flow-definition';
import { describeLocation } from '../validation/flow-validator';
import type { StmAction, StmCondition } from './machine-types';

/** Throws `unknownAction` / `unknownCondition` naming every reference the registries lack. */
export function checkRegistries<E, C>(
  flows: readonly FlowDefinition[],
  actions: Readonly<Record<string, StmAction<E, C>>>,
  conditions: Readonly<Record<string, StmCondition<E, C>>>,
): void {
  const missingActions: string[] = [];
  const missingConditions: string[] = [];
  const needAction = (name: string, where: string): void => {
    if (!Object.hasOwn(actions, name)) missingActions.push(`'${name}' (${where})`);
  };
  for (const flow of flows) {
    for (const s of flow.states) {
      const at = describeLocation(flow.id, s.id);
      for (const a of s.onEntry ?? []) needAction(a, `${at}, entry`);
      for (const a of s.onExit ?? []) needAction(a, `${at}, exit`);
      for (const e of s.events ?? [])
        if (e.action !== undefined) needAction(e.action, describeLocation(flow.id, s.id, e.id));
      for (const t of s.transitions ?? []) {
        if (t.action !== undefined) needAction(t.action, `${at}, transition to '${t.to}'`);
        if (t.condition !== undefined && !Object.hasOwn(conditions, parseConditionRef(t.condition).name)) {
          missingConditions.push(`'${parseConditionRef(t.condition).name}' (${at}, transition to '${t.to}')`);
        }
      }
    }
  }
  if (missingActions.length > 0) {
    throw new StmError({
      code: StmErrorCodes.unknownAction,
      message: `Unknown action ${missingActions.join(', ')}: register it in 'actions'`,
    });
  }
  if (missingConditions.length > 0) {
    throw new StmError({
      code: StmErrorCodes.unknownCondition,
      message: `Unknown condition ${missingConditions.join(', ')}: register it in 'conditions'`,
    });
  }
}

/** Throws `invalidFlow` when the config disables a flow's initial state (`effective` is `flows` with it applied). */
export function checkInitialEnabled(
  flows: readonly FlowDefinition[],
  config: StmConfig,
  effective: readonly FlowDefinition[],
): void {
  flows.forEach((flow, i) => {
    const initial = flow.states.find((s) => s.id === flow.initialState);
    const kept = effective[i]?.states.some((s) => s.id === flow.initialState) ?? false;
    if (initial !== undefined && !kept) {
      throw new StmError({
        code: StmErrorCodes.invalidFlow,
        message: `${describeLocation(flow.id, initial.id)}: the initial state is disabled by config property '${initial.enabledBy ?? ''}' (value ${JSON.stringify(config[initial.enabledBy ?? ''])})`,
        flowId: flow.id,
        stateId: initial.id,
      });
    }
  });
}
