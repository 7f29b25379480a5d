/**
 * A workflow service: entities with a state on @fw/stm, served as an `@fw/service`
 * service of kind `workflow`:
 *
 * | operation | binding | answer |
 * |---|---|---|
 * | `create` | `POST /{svc}` | `{ mutatedEntity, allowedActionsAndMetadata }`; the body (checked against `entity`) is the entity's data |
 * | `get` | `GET /{svc}/{id}` | the same; 404 `WF404` for an unknown id |
 * | `event` | `PATCH /{svc}/{id}/{eventId}` | the same after the event; 422 `WF422` when the state does not allow it, 409 `WF409` when another update came first |
 * | `info` | `GET /{svc}/info` | `{ flows: [{ id, default }] }` |
 * | `flow` | `GET /{svc}/info/flows/{flowId}` | the flow as JSON |
 * | `diagram` | `GET /{svc}/info/flows/{flowId}/diagram` | the Mermaid `stateDiagram-v2` text |
 * | `allowedActions` | `GET /{svc}/info/flows/{flowId}/states/{stateId}/allowed-actions` | the events (and activities) of the state |
 * | `testCases` | `GET /{svc}/info/flows/{flowId}/test-cases` | every path from the initial state to a final state |
 *
 * @example
 * const tickets = defineWorkflowService({ name: 'support-ticket', version: '1.0.0', flows: [SUPPORT_TICKET_FLOW], store: makeInMemoryWorkflowStore() });
 * const registry = makeServiceRegistry({ host, services: [tickets] });
 */
import { defineService, type Interceptor, type JsonSchema, type ServiceDefinition } from '@fw/service';
import {
  makeStateMachine,
  type FlowDefinition,
  type StmAction,
  type StmCondition,
  type StmConfig,
  type StateAccessor,
} from '@fw/stm';
import { randomUUID } from 'node:crypto';
import type { WorkflowEntity, WorkflowStore } from '../store/workflow-store';
import { makeWorkflowEntities } from './workflow-entities';
import { workflowEntityOperations } from './workflow-entity-operations';
import { workflowIntrospectionOperations } from './workflow-introspection-operations';
import type { WorkflowContext } from './workflow-model';

export { WorkflowErrorCodes } from './workflow-errors';
export type { AllowedActionAndMetadata, WorkflowContext, WorkflowResponse } from './workflow-model';

export interface WorkflowServiceOptions {
  name: string;
  version: string;
  description?: string;
  /** The flows (from `parseFlowsXml` or `defineFlow(...).build()`); one is the default. */
  flows: readonly FlowDefinition[];
  /** JSON Schema of the create body (the entity's data); default: any JSON object. */
  entity?: JsonSchema;
  actions?: Readonly<Record<string, StmAction<WorkflowEntity, WorkflowContext>>>;
  conditions?: Readonly<Record<string, StmCondition<WorkflowEntity, WorkflowContext>>>;
  /** Enablement config of the flows (`enabledBy`). */
  config?: StmConfig;
  store: WorkflowStore;
  interceptors?: readonly Interceptor[];
  /** Ids of new entities (default random UUID) and the clock (default now); for tests. */
  newId?: () => string;
  clock?: () => Date;
}

const entityState: StateAccessor<WorkflowEntity> = {
  get: (e) => e.state,
  set: (e, state) => {
    if (state !== undefined) e.state = state;
  },
};

/**
 * Defines the service; register it in a host's registry like any other. Its operations are the
 * introspection and entity operations (one file each beside this one) over one state machine.
 */
export function defineWorkflowService(options: WorkflowServiceOptions): ServiceDefinition {
  const machine = makeStateMachine<WorkflowEntity, WorkflowContext>({
    flows: options.flows,
    actions: options.actions,
    conditions: options.conditions,
    config: options.config,
    stateAccessor: entityState,
  });
  const { name, store } = options;
  const entities = makeWorkflowEntities({
    name,
    machine,
    store,
    newId: options.newId ?? randomUUID,
    clock: options.clock ?? (() => new Date()),
  });
  return defineService({
    name,
    version: options.version,
    description: options.description ?? `Workflow service ${name}`,
    kind: 'workflow',
    interceptors: options.interceptors,
    operations: [
      ...workflowIntrospectionOperations({ name, machine }),
      ...workflowEntityOperations({ name, entities, entity: options.entity ?? { type: 'object' } }),
    ],
  });
}
