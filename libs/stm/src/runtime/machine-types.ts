import type { FlowIssue } from '../errors/stm-error';
import type { FlowDefinition, Metadata, StmConfig, StmState } from '../model/flow-definition';
import type { StateAccessor } from './state-accessor';

/** When an action runs: leaving a state, on the transition itself, or entering a state. */
export type ActionPhase = 'exit' | 'transition' | 'entry';

/** What an action receives. */
export interface ActionArgs<E, C> {
  entity: E;
  context: C;
  /** The payload given to `send` (or to `start`). */
  payload: unknown;
  flowId: string;
  /** The event given to `send`; undefined during `start`. */
  eventId: string | undefined;
  phase: ActionPhase;
  /** The state being exited or entered; for `transition`, the source state. */
  stateId: string;
  /** Metadata of that state (`meta-*` attributes), for example `{ workerType: 'EXECUTOR' }`. */
  stateMetadata: Metadata;
  /** Source and target of the transition being taken (undefined for the initial entry). */
  from: string | undefined;
  to: string;
}

/** An action, registered by name. It may mutate the entity; throwing aborts the call. */
export type StmAction<E, C> = (args: ActionArgs<E, C>) => void | Promise<void>;

/** What a condition receives (evaluated in an auto state). */
export interface ConditionArgs<E, C> {
  entity: E;
  context: C;
  payload: unknown;
  flowId: string;
  /** The event given to `send`; undefined during `start`. */
  eventId: string | undefined;
  /** The auto state being decided. */
  stateId: string;
}

/** A condition, registered by name and referenced by auto-state branches. */
export type StmCondition<E, C> = (args: ConditionArgs<E, C>) => boolean | Promise<boolean>;

export interface StateMachineOptions<E, C> {
  flows: readonly FlowDefinition[];
  actions?: Readonly<Record<string, StmAction<E, C>>>;
  conditions?: Readonly<Record<string, StmCondition<E, C>>>;
  /** Enablement config (see `enabledBy`); the machine works on the effective flows. */
  config?: StmConfig;
  /** Where the entity's state lives; default: its `state` field ({@link stateFieldAccessor}). */
  stateAccessor?: StateAccessor<E>;
  /** Maximum auto-state departures in one call before `STM_MAX_STEPS_EXCEEDED` (default 32). */
  maxAutoSteps?: number;
  /** Treat flow warnings as errors. */
  strict?: boolean;
  onWarning?: (issue: FlowIssue) => void;
}

/** One action that ran, in order. */
export interface ExecutedAction {
  phase: ActionPhase;
  name: string;
  stateId: string;
}

/** One move made during a call. */
export interface StmStep {
  from: string | undefined;
  to: string;
  /** The event that caused the move (manual states). */
  eventId?: string;
  /** The branch condition taken in an auto state (`else` for the unconditional branch). */
  condition?: string;
  /** True for an event without target: the state did not change. */
  internal?: boolean;
}

/** The outcome of `start` or `send`. The entity's state has already been set to `state`. */
export interface StmResult {
  state: StmState;
  previousState: StmState | undefined;
  /** True when `state` is a final state. */
  isFinal: boolean;
  actions: ExecutedAction[];
  steps: StmStep[];
}

/** An event the current state accepts, for UIs and APIs (`allowedActionsAndMetadata`). */
export interface AllowedEvent {
  eventId: string;
  /** Target state; undefined for internal events. */
  toStateId: string | undefined;
  metadata: Metadata;
}

export interface StartOptions {
  /** Flow to start; default: the flow marked default, or the only flow. */
  flowId?: string;
  payload?: unknown;
  /** Start even when the entity already has a state (otherwise `STM_ALREADY_STARTED`). */
  restart?: boolean;
}

/**
 * A state machine over entities of type `E`, with a caller context `C` passed to every action
 * and condition (for example a database transaction).
 */
export interface StateMachine<E, C = void> {
  /** The effective flows (config applied). */
  readonly flows: readonly FlowDefinition[];
  /** The effective flow with this id (default flow when omitted); throws `STM_UNKNOWN_FLOW`. */
  flow(flowId?: string): FlowDefinition;
  /** Enters the initial state, then follows auto states until a manual or final state. */
  start(entity: E, context: C, options?: StartOptions): Promise<StmResult>;
  /**
   * Applies an event: exit actions, transition action, entry actions, then auto states.
   * Throws `STM_EVENT_NOT_ALLOWED` (state untouched) when the current state does not accept it.
   */
  send(entity: E, eventId: string, payload: unknown, context: C): Promise<StmResult>;
  /**
   * `send` for engines that apply many events in a row: the result itself when every action and
   * condition on the way returned a plain value, a promise only when one of them returned one. A
   * refusal or a failing synchronous action throws at once (the state restored, as with `send`).
   * A loop of `await send(…)` yields to the event loop once per event; this does not.
   */
  sendNow(entity: E, eventId: string, payload: unknown, context: C): StmResult | Promise<StmResult>;
  /** Events accepted in a state (empty for final states). */
  allowedEvents(state: StmState): AllowedEvent[];
  isAllowed(state: StmState, eventId: string): boolean;
  isFinal(state: StmState): boolean;
}
