/**
 * The introspection operations of a workflow service: its flows, a flow as JSON or as a Mermaid
 * diagram, the allowed actions of a state, and a flow's test cases.
 */
import type { OperationDefinition } from '@fw/service';
import { renderMermaid, type FlowDefinition, type StateMachine } from '@fw/stm';
import { enumerateTestCases } from '../introspection/test-cases';
import type { WorkflowEntity } from '../store/workflow-store';
import { unknownFlow, unknownState } from './workflow-errors';
import type { WorkflowContext } from './workflow-model';
import { NAME_SCHEMA } from './workflow-schemas';

export interface WorkflowIntrospectionDeps {
  /** The service's name (its path). */
  name: string;
  machine: Pick<StateMachine<WorkflowEntity, WorkflowContext>, 'flows' | 'allowedEvents'>;
}

/** The operations `info`, `flow`, `diagram`, `allowedActions` and `testCases`. */
export function workflowIntrospectionOperations({
  name,
  machine,
}: WorkflowIntrospectionDeps): ReadonlyArray<OperationDefinition<never, unknown>> {
  const base = `/${name}`;
  const flowOf = (flowId: string): FlowDefinition => {
    const found = machine.flows.find((f) => f.id === flowId);
    if (found === undefined) throw unknownFlow(name, flowId);
    return found;
  };
  return [
    {
      name: 'info',
      introspection: true,
      method: 'GET',
      path: `${base}/info`,
      description: 'The flows of the service',
      handler: async () => ({
        flows: machine.flows.map((f) => ({ id: f.id, default: f.isDefault === true || machine.flows.length === 1 })),
      }),
    },
    {
      name: 'flow',
      introspection: true,
      method: 'GET',
      path: `${base}/info/flows/{flowId}`,
      description: 'A flow as JSON',
      input: { type: 'object', properties: { flowId: NAME_SCHEMA } },
      handler: async (input: { flowId: string }) => flowOf(input.flowId),
    },
    {
      name: 'diagram',
      introspection: true,
      method: 'GET',
      path: `${base}/info/flows/{flowId}/diagram`,
      description: 'A flow as a Mermaid stateDiagram-v2',
      input: { type: 'object', properties: { flowId: NAME_SCHEMA } },
      handler: async (input: { flowId: string }) => renderMermaid(flowOf(input.flowId)),
    },
    {
      name: 'allowedActions',
      introspection: true,
      method: 'GET',
      path: `${base}/info/flows/{flowId}/states/{stateId}/allowed-actions`,
      description: 'The events and activities of a state',
      input: { type: 'object', properties: { flowId: NAME_SCHEMA, stateId: NAME_SCHEMA } },
      handler: async (input: { flowId: string; stateId: string }) => {
        const flow = flowOf(input.flowId);
        if (!flow.states.some((s) => s.id === input.stateId)) throw unknownState(flow.id, input.stateId);
        return machine
          .allowedEvents({ flowId: flow.id, stateId: input.stateId })
          .map((e) => ({ allowedAction: e.eventId, stateId: input.stateId, metadata: e.metadata }));
      },
    },
    {
      name: 'testCases',
      introspection: true,
      method: 'GET',
      path: `${base}/info/flows/{flowId}/test-cases`,
      description: 'Every path from the initial state to a final state, each loop at most once',
      input: { type: 'object', properties: { flowId: NAME_SCHEMA } },
      handler: async (input: { flowId: string }) => enumerateTestCases(flowOf(input.flowId)),
    },
  ];
}
