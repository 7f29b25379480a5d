/**
 * The bookkeeping of one `start` or `send` call and the wrappers every call goes through. A call
 * may finish synchronously or not (see `maybe-async`), so restoring the state on failure and
 * turning the result into a promise are written once here for both cases.
 */
import type { FlowDefinition, StateDefinition, StmState } from '../model/flow-definition';
import type { ExecutedAction, StmResult, StmStep } from './machine-types';
import { isThenable, type Maybe } from './maybe-async';
import type { StateAccessor } from './state-accessor';

/** Per-call bookkeeping. */
export interface Run<E, C> {
  entity: E;
  context: C;
  payload: unknown;
  flow: FlowDefinition;
  eventId: string | undefined;
  actions: ExecutedAction[];
  steps: StmStep[];
}

export function finish<E, C>(run: Run<E, C>, previous: StmState | undefined, last: StateDefinition): StmResult {
  return {
    state: { flowId: run.flow.id, stateId: last.id },
    previousState: previous,
    isFinal: last.kind === 'final',
    actions: run.actions,
    steps: run.steps,
  };
}

/** Runs `body`; on failure restores the entity's state field to `previous` and rethrows. */
export function guarded<E>(
  accessor: StateAccessor<E>,
  entity: E,
  previous: StmState | undefined,
  body: () => Maybe<StmResult>,
): Maybe<StmResult> {
  const restore = (e: unknown): never => {
    accessor.set(entity, previous);
    throw e;
  };
  try {
    const result = body();
    return isThenable(result) ? Promise.resolve(result).then(undefined, restore) : result;
  } catch (e) {
    return restore(e);
  }
}

/** The public face of a call: always a promise (a synchronous refusal becomes a rejection). */
export function settled(run: () => Maybe<StmResult>): Promise<StmResult> {
  try {
    const result = run();
    return isThenable(result) ? result : Promise.resolve(result);
  } catch (e) {
    return Promise.reject(e);
  }
}
