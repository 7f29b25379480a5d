/**
 * Moves through automatic (decision) states: each picks its first transition whose condition
 * holds, until a manual or final state is reached. A loop between decisions would never end, so
 * the number of automatic steps in one call is bounded.
 */
import { StmError, StmErrorCodes } from '../errors/stm-error';
import { parseConditionRef, type StateDefinition } from '../model/flow-definition';
import { describeLocation } from '../validation/flow-validator';
import type { ActionRunner } from './action-runner';
import type { FlowCatalog } from './flow-catalog';
import type { Run } from './machine-run';
import type { StmCondition } from './machine-types';
import { andThen, isThenable, type Maybe } from './maybe-async';

type Transition = NonNullable<StateDefinition['transitions']>[number];

export interface AutoTransitionDeps<E, C> {
  /** Holds every name the flows reference (checked when the machine is made). */
  conditions: Readonly<Record<string, StmCondition<E, C>>>;
  maxAutoSteps: number;
  catalog: Pick<FlowCatalog, 'stateOf'>;
  runner: Pick<ActionRunner<E, C>, 'move'>;
}

export class AutoTransitionResolver<E, C> {
  // Condition references parsed once each (the flows are fixed once the machine is made).
  private readonly parsedRefs = new Map<string, { name: string; negated: boolean }>();

  constructor(private readonly deps: AutoTransitionDeps<E, C>) {}

  /** Follows auto states from `current` until a manual or final state; returns where it stopped. */
  followAuto(run: Run<E, C>, current: StateDefinition, departures = 0): Maybe<StateDefinition> {
    let state = current;
    let departed = departures;
    while (state.kind === 'auto') {
      departed += 1;
      if (departed > this.deps.maxAutoSteps) throw this.tooManySteps(run, state);
      const from = state;
      const next = andThen(this.chooseTransition(run, from), (chosen) => this.depart(run, from, chosen));
      if (isThenable(next)) return Promise.resolve(next).then((reached) => this.followAuto(run, reached, departed));
      state = next;
    }
    return state;
  }

  /** Takes the chosen transition out of `from`, recording the step; throws when none was chosen. */
  private depart(run: Run<E, C>, from: StateDefinition, chosen: Transition | undefined): Maybe<StateDefinition> {
    if (chosen === undefined) {
      throw new StmError({
        code: StmErrorCodes.noTransition,
        message: `${describeLocation(run.flow.id, from.id)}: no transition condition holds and there is no unconditional transition`,
        flowId: run.flow.id,
        stateId: from.id,
      });
    }
    const next = this.deps.catalog.stateOf(run.flow, chosen.to);
    run.steps.push({ from: from.id, to: next.id, condition: chosen.condition ?? 'else' });
    return andThen(this.deps.runner.move(run, from, next, chosen.action), () => next);
  }

  /** The first transition of an auto state whose condition holds (or that has none), from index `from` on. */
  private chooseTransition(run: Run<E, C>, state: StateDefinition, from = 0): Maybe<Transition | undefined> {
    const transitions = state.transitions ?? [];
    for (let i = from; i < transitions.length; i++) {
      const t = transitions[i];
      if (t.condition === undefined) return t;
      const holds = this.evaluate(run, state, t.condition);
      if (isThenable(holds))
        return Promise.resolve(holds).then((h) => (h ? t : this.chooseTransition(run, state, i + 1)));
      if (holds) return t;
    }
    return undefined;
  }

  private evaluate(run: Run<E, C>, state: StateDefinition, ref: string): Maybe<boolean> {
    const { name, negated } = this.conditionRef(ref);
    const condition = this.deps.conditions[name] as StmCondition<E, C>;
    const value = condition({
      entity: run.entity,
      context: run.context,
      payload: run.payload,
      flowId: run.flow.id,
      eventId: run.eventId,
      stateId: state.id,
    });
    return negated ? andThen(value, (v) => !v) : value;
  }

  private conditionRef(ref: string): { name: string; negated: boolean } {
    let parsed = this.parsedRefs.get(ref);
    if (parsed === undefined) this.parsedRefs.set(ref, (parsed = parseConditionRef(ref)));
    return parsed;
  }

  private tooManySteps(run: Run<E, C>, state: StateDefinition): StmError {
    const path = run.steps
      .slice(-6)
      .map((s) => s.to)
      .join(' -> ');
    return new StmError({
      code: StmErrorCodes.maxStepsExceeded,
      message: `${describeLocation(run.flow.id, state.id)}: more than ${this.deps.maxAutoSteps} automatic steps in one call, the decisions loop (last: ${path})`,
      flowId: run.flow.id,
      stateId: state.id,
    });
  }
}
