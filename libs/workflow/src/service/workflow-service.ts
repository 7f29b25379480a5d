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
import { FwError } from '@fw/core';
import { defineService, type Interceptor, type JsonSchema, type ServiceDefinition } from '@fw/service';
import {
  isStmError,
  makeStateMachine,
  renderMermaid,
  StmErrorCodes,
  type FlowDefinition,
  type StmAction,
  type StmCondition,
  type StmConfig,
  type StateAccessor,
} from '@fw/stm';
import { randomUUID } from 'node:crypto';
import { enumerateTestCases } from '../introspection/test-cases';
import type { WorkflowEntity, WorkflowStore } from '../store/workflow-store';

/** Stable sub-error codes of workflow services. */
export const WorkflowErrorCodes = {
  notFound: 'WF404',
  eventNotAllowed: 'WF422',
  concurrentUpdate: 'WF409',
  unknownFlow: 'WF404F',
} as const;

/** What actions and conditions receive as their context. */
export interface WorkflowContext {
  readonly tenant: string | undefined;
  readonly service: string;
}

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

export interface AllowedActionAndMetadata {
  allowedAction: string;
  stateId: string;
  metadata: Record<string, string>;
}

export interface WorkflowResponse {
  mutatedEntity: WorkflowEntity;
  allowedActionsAndMetadata: AllowedActionAndMetadata[];
}

const ID_SCHEMA = {
  type: 'string',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
};
const NAME_SCHEMA = { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,128}$' };

const entityState: StateAccessor<WorkflowEntity> = {
  get: (e) => e.state,
  set: (e, state) => {
    if (state !== undefined) e.state = state;
  },
};

function notFound(service: string, id: string): FwError {
  return new FwError({
    code: 404,
    subErrorCode: WorkflowErrorCodes.notFound,
    description: `No ${service} with id ${id}`,
    params: [service, id],
  });
}

/** Defines the service; register it in a host's registry like any other. */
export function defineWorkflowService(options: WorkflowServiceOptions): ServiceDefinition {
  const machine = makeStateMachine<WorkflowEntity, WorkflowContext>({
    flows: options.flows,
    actions: options.actions,
    conditions: options.conditions,
    config: options.config,
    stateAccessor: entityState,
  });
  const { name, store } = options;
  const newId = options.newId ?? randomUUID;
  const clock = options.clock ?? (() => new Date());

  const response = (entity: WorkflowEntity): WorkflowResponse => ({
    mutatedEntity: entity,
    allowedActionsAndMetadata: machine
      .allowedEvents(entity.state)
      .map((e) => ({ allowedAction: e.eventId, stateId: entity.state.stateId, metadata: e.metadata })),
  });
  const flowOf = (flowId: string): FlowDefinition => {
    const found = machine.flows.find((f) => f.id === flowId);
    if (found === undefined)
      throw new FwError({
        code: 404,
        subErrorCode: WorkflowErrorCodes.unknownFlow,
        description: `Service '${name}' has no flow '${flowId}'`,
        params: [name, flowId],
      });
    return found;
  };
  const load = async (id: string): Promise<WorkflowEntity> => {
    const entity = await store.find(name, id.toLowerCase());
    if (entity === undefined) throw notFound(name, id);
    return entity;
  };

  async function applyEvent(
    id: string,
    eventId: string,
    payload: Record<string, unknown>,
    tenant: string | undefined,
  ): Promise<WorkflowResponse> {
    const entity = await load(id);
    const expected = entity.version;
    try {
      await machine.send(entity, eventId, payload, { tenant, service: name });
    } catch (err) {
      if (isStmError(err, StmErrorCodes.eventNotAllowed)) {
        throw new FwError({
          code: 422,
          subErrorCode: WorkflowErrorCodes.eventNotAllowed,
          description: err.message,
          params: [eventId, entity.state.stateId],
        });
      }
      throw err;
    }
    entity.version = expected + 1;
    entity.lastModifiedTime = clock().toISOString();
    if (!(await store.update(entity, expected))) {
      throw new FwError({
        code: 409,
        subErrorCode: WorkflowErrorCodes.concurrentUpdate,
        description: `${name} ${id} was changed by another call (version ${expected} is no longer current): read it again and retry`,
        params: [name, id],
      });
    }
    return response(entity);
  }

  const base = `/${name}`;
  return defineService({
    name,
    version: options.version,
    description: options.description ?? `Workflow service ${name}`,
    kind: 'workflow',
    interceptors: options.interceptors,
    operations: [
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
          if (!flow.states.some((s) => s.id === input.stateId))
            throw new FwError({
              code: 404,
              subErrorCode: WorkflowErrorCodes.unknownFlow,
              description: `Flow '${flow.id}' has no state '${input.stateId}'`,
              params: [flow.id, input.stateId],
            });
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
      {
        name: 'create',
        method: 'POST',
        path: base,
        description: `Creates a ${name} in the initial state`,
        input: options.entity ?? { type: 'object' },
        handler: async (input: Record<string, unknown>, ctx) => {
          const now = clock().toISOString();
          const entity: WorkflowEntity = {
            id: newId(),
            service: name,
            tenant: ctx.tenant ?? null,
            state: { flowId: '', stateId: '' },
            data: { ...input },
            version: 1,
            createdTime: now,
            lastModifiedTime: now,
          };
          // restart: the placeholder state above is not a started entity.
          await machine.start(entity, { tenant: ctx.tenant, service: name }, { payload: input, restart: true });
          await store.insert(entity);
          return response(entity);
        },
      },
      {
        name: 'get',
        method: 'GET',
        path: `${base}/{id}`,
        description: `Reads a ${name}`,
        input: { type: 'object', required: ['id'], properties: { id: ID_SCHEMA } },
        handler: async (input: { id: string }) => response(await load(input.id)),
      },
      {
        name: 'event',
        method: 'PATCH',
        path: `${base}/{id}/{eventId}`,
        description: 'Sends an event (the body is its payload)',
        input: { type: 'object', required: ['id', 'eventId'], properties: { id: ID_SCHEMA, eventId: NAME_SCHEMA } },
        handler: async (input: Record<string, unknown> & { id: string; eventId: string }, ctx) => {
          const { id, eventId, ...payload } = input;
          return applyEvent(id, eventId, payload, ctx.tenant);
        },
      },
    ],
  });
}
