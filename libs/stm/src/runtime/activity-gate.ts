/**
 * Which events a state accepts now. Mandatory activities hold back the events that leave their
 * state until they are done; internal events (no target state) and activities are always accepted.
 */
import type { StateDefinition, StmState } from '../model/flow-definition';
import type { FlowCatalog } from './flow-catalog';
import type { AllowedEvent } from './machine-types';

/** True while a mandatory activity of the state is not done in `s` (leaving events wait for it). */
export function blockedByActivities(state: StateDefinition, s: StmState): boolean {
  return (state.activities ?? []).some((a) => a.mandatory && !(s.doneActivities ?? []).includes(a.id));
}

/** Mandatory activities of the state not done yet in `s`. */
export function missingActivities(state: StateDefinition, s: StmState): string[] {
  return (state.activities ?? [])
    .filter((a) => a.mandatory && !(s.doneActivities ?? []).includes(a.id))
    .map((a) => a.id);
}

export class ActivityGate {
  constructor(private readonly catalog: Pick<FlowCatalog, 'flow' | 'stateOf'>) {}

  /** Events of the state (leaving ones only once the mandatory activities are done) and its activities not done yet. */
  allowedEvents(s: StmState): AllowedEvent[] {
    const state = this.stateOf(s);
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
  }

  /**
   * `allowedEvents(s).some(e => e.eventId === eventId)` without building the list: engines ask this
   * once or twice for every event they apply, so it must not allocate.
   */
  isAllowed(s: StmState, eventId: string): boolean {
    const state = this.stateOf(s);
    const done = s.doneActivities ?? [];
    for (const a of state.activities ?? []) if (a.id === eventId && !done.includes(a.id)) return true;
    const event = (state.events ?? []).find((e) => e.id === eventId);
    if (event === undefined) return false;
    return event.to === undefined || !blockedByActivities(state, s);
  }

  isFinal(s: StmState): boolean {
    return this.stateOf(s).kind === 'final';
  }

  private stateOf(s: StmState): StateDefinition {
    return this.catalog.stateOf(this.catalog.flow(s.flowId), s.stateId);
  }
}
