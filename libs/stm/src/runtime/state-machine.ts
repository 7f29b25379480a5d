import { StmError, StmErrorCodes, type FlowIssue } from '../errors/stm-error';
import {
  parseConditionRef,
  type FlowDefinition,
  type StateDefinition,
  type StmConfig,
  type StmState,
} from '../model/flow-definition';
import { applyConfig } from '../model/flow-enablement';
import { assertValidFlows, describeLocation } from '../validation/flow-validator';
import type {
  ActionPhase,
  AllowedEvent,
  ExecutedAction,
  StartOptions,
  StateMachine,
  StateMachineOptions,
  StmAction,
  StmCondition,
  StmResult,
  StmStep,
} from './machine-types';
import { andThen, eachInOrder, isThenable, type Maybe } from './maybe-async';
import { stateFieldAccessor, type StateAccessor, type StatefulEntity } from './state-accessor';

const DEFAULT_MAX_AUTO_STEPS = 32;

/** Per-call bookkeeping. */
interface Run<E, C> {
  entity: E;
  context: C;
  payload: unknown;
  flow: FlowDefinition;
  eventId: string | undefined;
  actions: ExecutedAction[];
  steps: StmStep[];
}

function checkRegistries<E, C>(
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

function checkInitialEnabled(
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

/**
 * Makes a state machine over the given flows. Flows are validated with the config applied;
 * every action and condition name they reference must be registered.
 *
 * The machine keeps no state of its own between calls and never persists anything: the caller
 * loads the entity (locking it if concurrent events are possible), calls `start`/`send`, and saves
 * it, typically inside one database transaction passed as `context`. If an action or condition
 * throws, the error propagates unchanged and the entity's state field is restored to its value
 * before the call (other changes actions made are the caller's to discard, e.g. by rolling back).
 *
 * @example
 * const machine = makeStateMachine<Order, Trx>({
 *   flows: [orderFlow],
 *   actions: { charge: async ({ entity, context, payload }) => { await context.charge(entity, payload); } },
 *   conditions: { inStock: ({ entity }) => entity.quantity <= 10 },
 * });
 * await machine.start(order, trx);             // order.state = { flowId: 'order-flow', stateId: 'PLACED' }
 * await machine.send(order, 'pay', { card }, trx);
 */
export function makeStateMachine<E extends StatefulEntity, C = void>(
  options: StateMachineOptions<E, C>,
): StateMachine<E, C>;
export function makeStateMachine<E, C = void>(
  options: StateMachineOptions<E, C> & { stateAccessor: StateAccessor<E> },
): StateMachine<E, C>;
export function makeStateMachine<E, C = void>(options: StateMachineOptions<E, C>): StateMachine<E, C> {
  const config = options.config ?? {};
  const actions = options.actions ?? {};
  const conditions = options.conditions ?? {};
  const accessor = options.stateAccessor ?? (stateFieldAccessor() as unknown as StateAccessor<E>);
  const maxAutoSteps = options.maxAutoSteps ?? DEFAULT_MAX_AUTO_STEPS;

  assertValidFlows(options.flows, { strict: options.strict });
  const flows = options.flows.map((f) => applyConfig(f, config));
  checkInitialEnabled(options.flows, config, flows);
  const onWarning = (w: FlowIssue): void => options.onWarning?.(w);
  assertValidFlows(flows, { strict: options.strict, onWarning, source: 'after applying config' });
  checkRegistries(flows, actions, conditions);

  const byId = new Map(flows.map((f) => [f.id, f] as const));
  const defaultFlow = flows.find((f) => f.isDefault === true) ?? (flows.length === 1 ? flows[0] : undefined);

  const flow = (flowId?: string): FlowDefinition => {
    const found = flowId === undefined ? defaultFlow : byId.get(flowId);
    if (found === undefined) {
      const known = [...byId.keys()].map((k) => `'${k}'`).join(', ');
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
  };

  const stateOf = (fl: FlowDefinition, stateId: string): StateDefinition => {
    const found = fl.states.find((s) => s.id === stateId);
    if (found === undefined) {
      throw new StmError({
        code: StmErrorCodes.unknownState,
        message: `${describeLocation(fl.id, stateId)}: no such state in the flow (unknown, or disabled by config)`,
        flowId: fl.id,
        stateId,
      });
    }
    return found;
  };

  const runAction = (
    run: Run<E, C>,
    name: string,
    phase: ActionPhase,
    state: StateDefinition,
    from: string | undefined,
    to: string,
  ): Maybe<void> => {
    const action = actions[name] as StmAction<E, C>;
    run.actions.push({ phase, name, stateId: state.id });
    return action({
      entity: run.entity,
      context: run.context,
      payload: run.payload,
      flowId: run.flow.id,
      eventId: run.eventId,
      phase,
      stateId: state.id,
      stateMetadata: state.metadata ?? {},
      from,
      to,
    });
  };

  const runActions = (
    run: Run<E, C>,
    names: readonly string[] | undefined,
    phase: ActionPhase,
    state: StateDefinition,
    from: string | undefined,
    to: string,
  ): Maybe<void> =>
    names === undefined || names.length === 0
      ? undefined
      : eachInOrder(names.length, (i) => runAction(run, names[i], phase, state, from, to));

  /** Leaves `from` (if any) and enters `to`: exit actions, transition action, state set, entry actions. */
  const move = (
    run: Run<E, C>,
    from: StateDefinition | undefined,
    to: StateDefinition,
    transitionAction: string | undefined,
  ): Maybe<void> => {
    const enter = (): Maybe<void> => {
      accessor.set(run.entity, { flowId: run.flow.id, stateId: to.id });
      return runActions(run, to.onEntry, 'entry', to, from?.id, to.id);
    };
    const transition = (): Maybe<void> =>
      transitionAction === undefined
        ? enter()
        : andThen(runAction(run, transitionAction, 'transition', from ?? to, from?.id, to.id), enter);
    return from === undefined
      ? transition()
      : andThen(runActions(run, from.onExit, 'exit', from, from.id, to.id), transition);
  };

  // Condition references parsed once each (the flows are fixed once the machine is made).
  const parsedRefs = new Map<string, { name: string; negated: boolean }>();
  const conditionRef = (ref: string): { name: string; negated: boolean } => {
    let parsed = parsedRefs.get(ref);
    if (parsed === undefined) parsedRefs.set(ref, (parsed = parseConditionRef(ref)));
    return parsed;
  };

  const evaluate = (run: Run<E, C>, state: StateDefinition, ref: string): Maybe<boolean> => {
    const { name, negated } = conditionRef(ref);
    const condition = conditions[name] as StmCondition<E, C>;
    const value = condition({
      entity: run.entity,
      context: run.context,
      payload: run.payload,
      flowId: run.flow.id,
      eventId: run.eventId,
      stateId: state.id,
    });
    return negated ? andThen(value, (v) => !v) : value;
  };

  type Transition = NonNullable<StateDefinition['transitions']>[number];

  /** The first transition of an auto state whose condition holds (or that has none), from index `from` on. */
  const chooseTransition = (run: Run<E, C>, state: StateDefinition, from = 0): Maybe<Transition | undefined> => {
    const transitions = state.transitions ?? [];
    for (let i = from; i < transitions.length; i++) {
      const t = transitions[i];
      if (t.condition === undefined) return t;
      const holds = evaluate(run, state, t.condition);
      if (isThenable(holds)) return Promise.resolve(holds).then((h) => (h ? t : chooseTransition(run, state, i + 1)));
      if (holds) return t;
    }
    return undefined;
  };

  /** Follows auto states from `current` until a manual or final state; returns where it stopped. */
  const followAuto = (run: Run<E, C>, current: StateDefinition, departures = 0): Maybe<StateDefinition> => {
    let state = current;
    let departed = departures;
    while (state.kind === 'auto') {
      departed += 1;
      if (departed > maxAutoSteps) {
        const path = run.steps
          .slice(-6)
          .map((s) => s.to)
          .join(' -> ');
        throw new StmError({
          code: StmErrorCodes.maxStepsExceeded,
          message: `${describeLocation(run.flow.id, state.id)}: more than ${maxAutoSteps} automatic steps in one call, the decisions loop (last: ${path})`,
          flowId: run.flow.id,
          stateId: state.id,
        });
      }
      const from = state;
      const depart = (chosen: Transition | undefined): Maybe<StateDefinition> => {
        if (chosen === undefined) {
          throw new StmError({
            code: StmErrorCodes.noTransition,
            message: `${describeLocation(run.flow.id, from.id)}: no transition condition holds and there is no unconditional transition`,
            flowId: run.flow.id,
            stateId: from.id,
          });
        }
        const next = stateOf(run.flow, chosen.to);
        run.steps.push({ from: from.id, to: next.id, condition: chosen.condition ?? 'else' });
        return andThen(move(run, from, next, chosen.action), () => next);
      };
      const next = andThen(chooseTransition(run, from), depart);
      if (isThenable(next)) return Promise.resolve(next).then((reached) => followAuto(run, reached, departed));
      state = next;
    }
    return state;
  };

  const finish = (run: Run<E, C>, previous: StmState | undefined, last: StateDefinition): StmResult => ({
    state: { flowId: run.flow.id, stateId: last.id },
    previousState: previous,
    isFinal: last.kind === 'final',
    actions: run.actions,
    steps: run.steps,
  });

  /** Runs `body`; on failure restores the entity's state field and rethrows. */
  const guarded = (entity: E, previous: StmState | undefined, body: () => Maybe<StmResult>): Maybe<StmResult> => {
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
  };

  /** The public face of a call: always a promise (a synchronous refusal becomes a rejection). */
  const settled = (run: () => Maybe<StmResult>): Promise<StmResult> => {
    try {
      const result = run();
      return isThenable(result) ? result : Promise.resolve(result);
    } catch (e) {
      return Promise.reject(e);
    }
  };

  const startNow = (entity: E, context: C, opts: StartOptions = {}): Maybe<StmResult> => {
    const previous = accessor.get(entity);
    const fl = flow(opts.flowId);
    if (previous !== undefined && opts.restart !== true) {
      throw new StmError({
        code: StmErrorCodes.alreadyStarted,
        message: `${describeLocation(previous.flowId, previous.stateId)}: the entity has already started (pass restart: true to start again)`,
        flowId: previous.flowId,
        stateId: previous.stateId,
      });
    }
    const run: Run<E, C> = {
      entity,
      context,
      payload: opts.payload,
      flow: fl,
      eventId: undefined,
      actions: [],
      steps: [],
    };
    return guarded(entity, previous, () => {
      const initial = stateOf(fl, fl.initialState);
      run.steps.push({ from: undefined, to: initial.id });
      return andThen(
        andThen(move(run, undefined, initial, undefined), () => followAuto(run, initial)),
        (last) => finish(run, previous, last),
      );
    });
  };

  const currentOf = (
    entity: E,
    eventId: string,
  ): { fl: FlowDefinition; state: StateDefinition; previous: StmState } => {
    const previous = accessor.get(entity);
    if (previous === undefined) {
      throw new StmError({
        code: StmErrorCodes.noState,
        message: `Event '${eventId}' sent to an entity without state: call start first`,
        eventId,
      });
    }
    const fl = flow(previous.flowId);
    return { fl, state: stateOf(fl, previous.stateId), previous };
  };

  /** Records an activity of the current state (idempotent): an internal transition. */
  const doActivity = (
    entity: E,
    fl: FlowDefinition,
    state: StateDefinition,
    previous: StmState,
    activityId: string,
  ): StmResult => {
    const done = previous.doneActivities ?? [];
    const next: StmState = {
      flowId: fl.id,
      stateId: state.id,
      doneActivities: done.includes(activityId) ? [...done] : [...done, activityId],
    };
    accessor.set(entity, next);
    return {
      state: next,
      previousState: previous,
      isFinal: false,
      actions: [],
      steps: [{ from: state.id, to: state.id, eventId: activityId, internal: true }],
    };
  };

  /** True while a mandatory activity of the state is not done in `s` (leaving events wait for it). */
  const blockedByActivities = (state: StateDefinition, s: StmState): boolean =>
    (state.activities ?? []).some((a) => a.mandatory && !(s.doneActivities ?? []).includes(a.id));

  /** Mandatory activities of the state not done yet in `s`. */
  const missingActivities = (state: StateDefinition, s: StmState): string[] =>
    (state.activities ?? []).filter((a) => a.mandatory && !(s.doneActivities ?? []).includes(a.id)).map((a) => a.id);

  const sendNow = (entity: E, eventId: string, payload: unknown, context: C): Maybe<StmResult> => {
    const { fl, state, previous } = currentOf(entity, eventId);
    const activity = (state.activities ?? []).find((a) => a.id === eventId);
    if (activity !== undefined) return doActivity(entity, fl, state, previous, eventId);
    const event = (state.events ?? []).find((e) => e.id === eventId);
    if (event === undefined) {
      const allowed = (state.events ?? []).map((e) => e.id);
      throw new StmError({
        code: StmErrorCodes.eventNotAllowed,
        message: `${describeLocation(fl.id, state.id, eventId)}: the event is not allowed in this state (allowed: ${allowed.length === 0 ? 'none' : allowed.join(', ')})`,
        flowId: fl.id,
        stateId: state.id,
        eventId,
      });
    }
    const missing = event.to === undefined ? [] : missingActivities(state, previous);
    if (missing.length > 0) {
      throw new StmError({
        code: StmErrorCodes.eventNotAllowed,
        message: `${describeLocation(fl.id, state.id, eventId)}: the event is not allowed until the mandatory activities are done (missing: ${missing.join(', ')})`,
        flowId: fl.id,
        stateId: state.id,
        eventId,
      });
    }
    const run: Run<E, C> = { entity, context, payload, flow: fl, eventId, actions: [], steps: [] };
    return guarded(entity, previous, () => {
      if (event.to === undefined) {
        run.steps.push({ from: state.id, to: state.id, eventId, internal: true });
        const action =
          event.action === undefined
            ? undefined
            : runAction(run, event.action, 'transition', state, state.id, state.id);
        return andThen(action, () => finish(run, previous, state));
      }
      const target = stateOf(fl, event.to);
      run.steps.push({ from: state.id, to: target.id, eventId });
      return andThen(
        andThen(move(run, state, target, event.action), () => followAuto(run, target)),
        (last) => finish(run, previous, last),
      );
    });
  };

  /** Events of the state (leaving ones only once the mandatory activities are done) and its activities not done yet. */
  const allowedEvents = (s: StmState): AllowedEvent[] => {
    const state = stateOf(flow(s.flowId), s.stateId);
    const blocked = blockedByActivities(state, s);
    const events = (state.events ?? [])
      .filter((e) => !blocked || e.to === undefined)
      .map((e) => ({ eventId: e.id, toStateId: e.to, metadata: { ...(e.metadata ?? {}) } }));
    const activities = (state.activities ?? [])
      .filter((a) => !(s.doneActivities ?? []).includes(a.id))
      .map((a) => ({
        eventId: a.id,
        toStateId: undefined,
        metadata: { ...(a.metadata ?? {}), activity: a.mandatory ? 'mandatory' : 'optional' },
      }));
    return [...events, ...activities];
  };

  /**
   * `allowedEvents(s).some(e => e.eventId === eventId)` without building the list: engines ask this
   * once or twice for every event they apply, so it must not allocate.
   */
  const isAllowed = (s: StmState, eventId: string): boolean => {
    const state = stateOf(flow(s.flowId), s.stateId);
    const done = s.doneActivities ?? [];
    for (const a of state.activities ?? []) if (a.id === eventId && !done.includes(a.id)) return true;
    const event = (state.events ?? []).find((e) => e.id === eventId);
    if (event === undefined) return false;
    return event.to === undefined || !blockedByActivities(state, s);
  };

  return {
    flows,
    flow,
    start: (entity, context, opts) => settled(() => startNow(entity, context, opts)),
    send: (entity, eventId, payload, context) => settled(() => sendNow(entity, eventId, payload, context)),
    sendNow,
    allowedEvents,
    isAllowed,
    isFinal: (s) => stateOf(flow(s.flowId), s.stateId).kind === 'final',
  };
}
