import type { StmState } from '../model/flow-definition';

/**
 * How the machine reads and writes the state of an entity. The machine never loads or saves
 * entities: it only calls `get`/`set` on the object the caller passes in, so the caller decides
 * where the state lives (a column pair, a JSON field) and when it is persisted.
 *
 * @example
 * // state kept in two columns
 * const columns: StateAccessor<OrderRow> = {
 *   get: (row) => (row.flow_id ? { flowId: row.flow_id, stateId: row.state_id } : undefined),
 *   set: (row, s) => { row.flow_id = s?.flowId ?? null; row.state_id = s?.stateId ?? null; },
 * };
 */
export interface StateAccessor<E> {
  get(entity: E): StmState | undefined;
  /** `undefined` only when a failed `start` restores an entity that had no state. */
  set(entity: E, state: StmState | undefined): void;
}

/** An entity that keeps its state in a `state: { flowId, stateId }` field (the Process JSON shape). */
export interface StatefulEntity {
  state?: StmState | null;
}

/**
 * The default accessor: the entity's `state` field, written as a fresh `{ flowId, stateId }`
 * object on every change.
 *
 * @example
 * const process = { id: 'p1', state: undefined as StmState | undefined };
 * stateFieldAccessor().set(process, { flowId: 'process-flow', stateId: 'EXECUTING' });
 */
/** A copy of a state (activities included only when there are any). */
export function copyState(state: StmState): StmState {
  return state.doneActivities !== undefined && state.doneActivities.length > 0
    ? { flowId: state.flowId, stateId: state.stateId, doneActivities: [...state.doneActivities] }
    : { flowId: state.flowId, stateId: state.stateId };
}

export function stateFieldAccessor<E extends StatefulEntity>(): StateAccessor<E> {
  return {
    get: (entity) => (entity.state ? copyState(entity.state) : undefined),
    set: (entity, state) => {
      entity.state = state === undefined ? undefined : copyState(state);
    },
  };
}
