/**
 * The two calls that change an entity, `start` and `send`, in their synchronous-when-possible form
 * (`sendNow`). They check what the caller asked for before anything runs, so a refused call leaves
 * the entity untouched, and run the rest guarded, so a failing action restores its state field.
 */
import { StmError, StmErrorCodes } from '../errors/stm-error';
import type { FlowDefinition, StateDefinition, StmState } from '../model/flow-definition';
import { describeLocation } from '../validation/flow-validator';
import { missingActivities } from './activity-gate';
import type { ActionRunner } from './action-runner';
import type { AutoTransitionResolver } from './auto-transition-resolver';
import type { FlowCatalog } from './flow-catalog';
import { finish, guarded, type Run } from './machine-run';
import type { StartOptions, StmResult } from './machine-types';
import { andThen, type Maybe } from './maybe-async';
import type { StateAccessor } from './state-accessor';

export interface MachineDriverDeps<E, C> {
  accessor: StateAccessor<E>;
  catalog: Pick<FlowCatalog, 'flow' | 'stateOf'>;
  runner: Pick<ActionRunner<E, C>, 'runAction' | 'move'>;
  resolver: Pick<AutoTransitionResolver<E, C>, 'followAuto'>;
}

export class MachineDriver<E, C> {
  constructor(private readonly deps: MachineDriverDeps<E, C>) {}

  startNow(entity: E, context: C, opts: StartOptions = {}): Maybe<StmResult> {
    const { accessor, catalog } = this.deps;
    const previous = accessor.get(entity);
    const flow = catalog.flow(opts.flowId);
    if (previous !== undefined && opts.restart !== true) {
      throw new StmError({
        code: StmErrorCodes.alreadyStarted,
        message: `${describeLocation(previous.flowId, previous.stateId)}: the entity has already started (pass restart: true to start again)`,
        flowId: previous.flowId,
        stateId: previous.stateId,
      });
    }
    const run: Run<E, C> = { entity, context, payload: opts.payload, flow, eventId: undefined, actions: [], steps: [] };
    return guarded(accessor, entity, previous, () => {
      const initial = catalog.stateOf(flow, flow.initialState);
      run.steps.push({ from: undefined, to: initial.id });
      return this.enterAndFollow(run, previous, undefined, initial, undefined);
    });
  }

  sendNow(entity: E, eventId: string, payload: unknown, context: C): Maybe<StmResult> {
    const { flow, state, previous } = this.currentOf(entity, eventId);
    if ((state.activities ?? []).some((a) => a.id === eventId))
      return this.doActivity(entity, flow, state, previous, eventId);
    const event = (state.events ?? []).find((e) => e.id === eventId);
    if (event === undefined) {
      const allowed = (state.events ?? []).map((e) => e.id);
      throw notAllowed(
        flow,
        state,
        eventId,
        `in this state (allowed: ${allowed.length === 0 ? 'none' : allowed.join(', ')})`,
      );
    }
    const missing = event.to === undefined ? [] : missingActivities(state, previous);
    if (missing.length > 0)
      throw notAllowed(
        flow,
        state,
        eventId,
        `until the mandatory activities are done (missing: ${missing.join(', ')})`,
      );
    const run: Run<E, C> = { entity, context, payload, flow, eventId, actions: [], steps: [] };
    return guarded(this.deps.accessor, entity, previous, () => {
      if (event.to === undefined) {
        run.steps.push({ from: state.id, to: state.id, eventId, internal: true });
        const action =
          event.action === undefined
            ? undefined
            : this.deps.runner.runAction(run, event.action, 'transition', state, state.id, state.id);
        return andThen(action, () => finish(run, previous, state));
      }
      const target = this.deps.catalog.stateOf(flow, event.to);
      run.steps.push({ from: state.id, to: target.id, eventId });
      return this.enterAndFollow(run, previous, state, target, event.action);
    });
  }

  /** Moves from `from` into `to`, then through any automatic states after it. */
  private enterAndFollow(
    run: Run<E, C>,
    previous: StmState | undefined,
    from: StateDefinition | undefined,
    to: StateDefinition,
    action: string | undefined,
  ): Maybe<StmResult> {
    return andThen(
      andThen(this.deps.runner.move(run, from, to, action), () => this.deps.resolver.followAuto(run, to)),
      (last) => finish(run, previous, last),
    );
  }

  private currentOf(entity: E, eventId: string): { flow: FlowDefinition; state: StateDefinition; previous: StmState } {
    const previous = this.deps.accessor.get(entity);
    if (previous === undefined) {
      throw new StmError({
        code: StmErrorCodes.noState,
        message: `Event '${eventId}' sent to an entity without state: call start first`,
        eventId,
      });
    }
    const flow = this.deps.catalog.flow(previous.flowId);
    return { flow, state: this.deps.catalog.stateOf(flow, previous.stateId), previous };
  }

  /** Records an activity of the current state (idempotent): an internal transition. */
  private doActivity(
    entity: E,
    flow: FlowDefinition,
    state: StateDefinition,
    previous: StmState,
    activityId: string,
  ): StmResult {
    const done = previous.doneActivities ?? [];
    const next: StmState = {
      flowId: flow.id,
      stateId: state.id,
      doneActivities: done.includes(activityId) ? [...done] : [...done, activityId],
    };
    this.deps.accessor.set(entity, next);
    return {
      state: next,
      previousState: previous,
      isFinal: false,
      actions: [],
      steps: [{ from: state.id, to: state.id, eventId: activityId, internal: true }],
    };
  }
}

function notAllowed(flow: FlowDefinition, state: StateDefinition, eventId: string, why: string): StmError {
  return new StmError({
    code: StmErrorCodes.eventNotAllowed,
    message: `${describeLocation(flow.id, state.id, eventId)}: the event is not allowed ${why}`,
    flowId: flow.id,
    stateId: state.id,
    eventId,
  });
}
