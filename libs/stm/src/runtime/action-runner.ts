/**
 * Runs the registered actions of a move between two states in their fixed order (exit, transition,
 * entry) and sets the state field between them, so entry actions already see the new state.
 */
import type { StateDefinition } from '../model/flow-definition';
import type { ActionPhase, StmAction } from './machine-types';
import type { Run } from './machine-run';
import { andThen, eachInOrder, type Maybe } from './maybe-async';
import type { StateAccessor } from './state-accessor';

export class ActionRunner<E, C> {
  /** `actions` holds every name the flows reference (checked when the machine is made). */
  constructor(
    private readonly actions: Readonly<Record<string, StmAction<E, C>>>,
    private readonly accessor: StateAccessor<E>,
  ) {}

  runAction(
    run: Run<E, C>,
    name: string,
    phase: ActionPhase,
    state: StateDefinition,
    from: string | undefined,
    to: string,
  ): Maybe<void> {
    const action = this.actions[name] as StmAction<E, C>;
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
  }

  /** Leaves `from` (if any) and enters `to`: exit actions, transition action, state set, entry actions. */
  move(
    run: Run<E, C>,
    from: StateDefinition | undefined,
    to: StateDefinition,
    transitionAction: string | undefined,
  ): Maybe<void> {
    const enter = (): Maybe<void> => {
      this.accessor.set(run.entity, { flowId: run.flow.id, stateId: to.id });
      return this.runActions(run, to.onEntry, 'entry', to, from?.id, to.id);
    };
    const transition = (): Maybe<void> =>
      transitionAction === undefined
        ? enter()
        : andThen(this.runAction(run, transitionAction, 'transition', from ?? to, from?.id, to.id), enter);
    return from === undefined
      ? transition()
      : andThen(this.runActions(run, from.onExit, 'exit', from, from.id, to.id), transition);
  }

  private runActions(
    run: Run<E, C>,
    names: readonly string[] | undefined,
    phase: ActionPhase,
    state: StateDefinition,
    from: string | undefined,
    to: string,
  ): Maybe<void> {
    return names === undefined || names.length === 0
      ? undefined
      : eachInOrder(names.length, (i) => this.runAction(run, names[i], phase, state, from, to));
  }
}
