/**
 * The flow model: a flow is plain data (states, events, conditional transitions and the *names*
 * of actions and conditions). The runtime resolves the names against registries, so the same flow
 * can be declared in XML ({@link parseFlowsXml}), with the builder ({@link defineFlow}) or as a
 * plain object literal.
 *
 * @example
 * const flow: FlowDefinition = {
 *   id: 'door',
 *   initialState: 'CLOSED',
 *   states: [
 *     { id: 'CLOSED', kind: 'manual', events: [{ id: 'open', to: 'OPEN' }] },
 *     { id: 'OPEN', kind: 'manual', events: [{ id: 'close', to: 'CLOSED' }, { id: 'remove', to: 'GONE' }] },
 *     { id: 'GONE', kind: 'final' },
 *   ],
 * };
 */

/** Where an entity is: the flow it follows and its current state in that flow. */
export interface StmState {
  flowId: string;
  stateId: string;
  /** Activities of the current state done so far (see {@link ActivityDefinition}); cleared when the state is left. */
  doneActivities?: readonly string[];
}

/**
 * Work to do while an entity is in a manual state (a review, a document check). Doing it is an
 * internal transition: `send(entity, activityId)` records it on the entity's state without
 * leaving. Every event that leaves the state is refused until each mandatory activity is done.
 */
export interface ActivityDefinition {
  /** Unique in its state, and not an event id of the state. */
  id: string;
  mandatory: boolean;
  metadata?: Metadata;
}

/**
 * `manual` states wait for events; `auto` states are decisions (pseudo-states) left at once
 * through the first transition whose condition holds; `final` states end the flow.
 */
export type StateKind = 'manual' | 'auto' | 'final';

/** Free-form string metadata (for example the payload type of an event), shown to UIs. */
export type Metadata = Readonly<Record<string, string>>;

/** An event accepted by a manual state. */
export interface EventDefinition {
  /** Event id, unique within its state (`doneSuccessfully`). */
  id: string;
  /**
   * Target state. When omitted the event is an *internal* transition: the state does not change
   * and neither exit nor entry actions run (only {@link EventDefinition.action}). A target equal
   * to the current state is an *external* self-transition: exit and entry actions run.
   */
  to?: string;
  /** Name of the transition action, run between the exit and the entry actions. */
  action?: string;
  /** Config property that enables this event; see {@link isEnabledBy}. */
  enabledBy?: string;
  metadata?: Metadata;
}

/**
 * A branch of an automatic (decision) state. Branches are tried in order; the first whose
 * condition holds is taken. A branch without a condition is the `else` branch and must be last.
 */
export interface ConditionalTransition {
  to: string;
  /** Condition name, optionally negated with a leading `!` (`!leaf`). Omitted: always true. */
  condition?: string;
  /** Name of the transition action. */
  action?: string;
  enabledBy?: string;
}

export interface StateDefinition {
  id: string;
  kind: StateKind;
  /** Actions run, in order, when the state is entered (after its state has been set). */
  onEntry?: readonly string[];
  /** Actions run, in order, when the state is left. */
  onExit?: readonly string[];
  /** Events of a manual state. */
  events?: readonly EventDefinition[];
  /** Branches of an auto state. */
  transitions?: readonly ConditionalTransition[];
  /** Activities of a manual state. */
  activities?: readonly ActivityDefinition[];
  /** Config property that enables this state; disabling a state also removes every transition into it. */
  enabledBy?: string;
  metadata?: Metadata;
}

export interface FlowDefinition {
  /** Flow id, stored in {@link StmState.flowId}. */
  id: string;
  /** The state `start` enters; it may be an auto state. */
  initialState: string;
  states: readonly StateDefinition[];
  /** The flow `start` uses when no flow id is given. */
  isDefault?: boolean;
  metadata?: Metadata;
}

/** Config map used for enablement: `{ sendSms: false }` disables everything `enabledBy="sendSms"`. */
export type StmConfig = Readonly<Record<string, unknown>>;

/**
 * True unless the config sets the property to `false` (boolean, or the string `"false"` in any
 * case). A property that is missing leaves the element enabled, so flows work without config.
 *
 * @example
 * isEnabledBy('sms', { sms: 'false' }); // false
 * isEnabledBy('sms', {});               // true
 * isEnabledBy(undefined, { sms: false }); // true: nothing to check
 */
export function isEnabledBy(property: string | undefined, config: StmConfig): boolean {
  if (property === undefined) return true;
  const value = config[property];
  if (value === false) return false;
  if (typeof value === 'string' && value.trim().toLowerCase() === 'false') return false;
  return true;
}

/** Parses a condition reference: `!leaf` → `{ name: 'leaf', negated: true }`. */
export function parseConditionRef(ref: string): { name: string; negated: boolean } {
  const trimmed = ref.trim();
  return trimmed.startsWith('!') ? { name: trimmed.slice(1).trim(), negated: true } : { name: trimmed, negated: false };
}

/** Finds a state of a flow by id. */
export function findState(flow: FlowDefinition, stateId: string): StateDefinition | undefined {
  return flow.states.find((s) => s.id === stateId);
}

/** Every action name a flow references (entry, exit and transition actions), sorted, unique. */
export function referencedActions(flow: FlowDefinition): string[] {
  const names = new Set<string>();
  for (const s of flow.states) {
    for (const a of s.onEntry ?? []) names.add(a);
    for (const a of s.onExit ?? []) names.add(a);
    for (const e of s.events ?? []) if (e.action !== undefined) names.add(e.action);
    for (const t of s.transitions ?? []) if (t.action !== undefined) names.add(t.action);
  }
  return [...names].sort();
}

/** Every condition name a flow references (without `!`), sorted, unique. */
export function referencedConditions(flow: FlowDefinition): string[] {
  const names = new Set<string>();
  for (const s of flow.states) {
    for (const t of s.transitions ?? []) if (t.condition !== undefined) names.add(parseConditionRef(t.condition).name);
  }
  return [...names].sort();
}
