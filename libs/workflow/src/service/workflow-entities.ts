/**
 * What a workflow service does with its entities: create one in the initial state, read one, and
 * send one an event (stored only if nobody changed the entity meanwhile). Each answers the entity
 * with the actions its state allows.
 */
import type { StateMachine } from '@fw/stm';
import { isStmError, StmErrorCodes } from '@fw/stm';
import type { WorkflowEntity, WorkflowStore } from '../store/workflow-store';
import { concurrentUpdate, entityNotFound, eventNotAllowed } from './workflow-errors';
import type { WorkflowContext, WorkflowResponse } from './workflow-model';

export interface WorkflowEntitiesDeps {
  /** The service's name (the entities' `service`). */
  name: string;
  machine: StateMachine<WorkflowEntity, WorkflowContext>;
  store: WorkflowStore;
  newId(): string;
  clock(): Date;
}

export interface WorkflowEntities {
  /** Creates an entity with `data` and starts it in the default flow (the data is the start payload). */
  create(data: Record<string, unknown>, tenant: string | undefined): Promise<WorkflowResponse>;
  /** Reads an entity (404 for an unknown id). */
  get(id: string): Promise<WorkflowResponse>;
  /** Sends an event (404, 422 when the state does not allow it, 409 when another update came first). */
  sendEvent(
    id: string,
    eventId: string,
    payload: Record<string, unknown>,
    tenant: string | undefined,
  ): Promise<WorkflowResponse>;
}

export function makeWorkflowEntities(deps: WorkflowEntitiesDeps): WorkflowEntities {
  const { name, machine, store, clock } = deps;
  const response = (entity: WorkflowEntity): WorkflowResponse => ({
    mutatedEntity: entity,
    allowedActionsAndMetadata: machine
      .allowedEvents(entity.state)
      .map((e) => ({ allowedAction: e.eventId, stateId: entity.state.stateId, metadata: e.metadata })),
  });
  const load = async (id: string): Promise<WorkflowEntity> => {
    const entity = await store.find(name, id.toLowerCase());
    if (entity === undefined) throw entityNotFound(name, id);
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
      if (isStmError(err, StmErrorCodes.eventNotAllowed))
        throw eventNotAllowed(err.message, eventId, entity.state.stateId);
      throw err;
    }
    entity.version = expected + 1;
    entity.lastModifiedTime = clock().toISOString();
    if (!(await store.update(entity, expected))) throw concurrentUpdate(name, id, expected);
    return response(entity);
  }

  async function create(input: Record<string, unknown>, tenant: string | undefined): Promise<WorkflowResponse> {
    const now = clock().toISOString();
    const entity: WorkflowEntity = {
      id: deps.newId(),
      service: name,
      tenant: tenant ?? null,
      state: { flowId: '', stateId: '' },
      data: { ...input },
      version: 1,
      createdTime: now,
      lastModifiedTime: now,
    };
    // restart: the placeholder state above is not a started entity.
    await machine.start(entity, { tenant, service: name }, { payload: input, restart: true });
    await store.insert(entity);
    return response(entity);
  }

  return { create, get: async (id) => response(await load(id)), sendEvent: applyEvent };
}
