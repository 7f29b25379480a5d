import type {
  ActivityDefinition,
  ConditionalTransition,
  EventDefinition,
  FlowDefinition,
  StateDefinition,
  StateKind,
} from '../model/flow-definition';
import { assertValidFlows, type AssertFlowsOptions } from '../validation/flow-validator';

/** Options of an event or branch added through a {@link StateBuilder}. */
export interface TransitionOptions {
  action?: string;
  enabledBy?: string;
  metadata?: Record<string, string>;
}

/** Configures one state inside {@link FlowBuilder.manual}, `.auto` or `.final`. */
export interface StateBuilder {
  /** Adds an event of a manual state; omit `to` for an internal transition (state unchanged). */
  on(eventId: string, to?: string, options?: TransitionOptions): StateBuilder;
  /** Adds a conditional branch of an auto state (`condition` may be negated: `!leaf`). */
  when(condition: string, to: string, options?: Omit<TransitionOptions, 'metadata'>): StateBuilder;
  /** Adds the unconditional (else) branch of an auto state; must be the last branch. */
  otherwise(to: string, options?: Omit<TransitionOptions, 'metadata'>): StateBuilder;
  onEntry(...actions: string[]): StateBuilder;
  onExit(...actions: string[]): StateBuilder;
  /** Adds an activity of a manual state (optional unless `mandatory: true`). */
  activity(activityId: string, options?: { mandatory?: boolean; metadata?: Record<string, string> }): StateBuilder;
  enabledBy(property: string): StateBuilder;
  meta(key: string, value: string): StateBuilder;
}

/** Fluent construction of a {@link FlowDefinition}; `build()` validates it. */
export interface FlowBuilder {
  /** Sets the initial state (defaults to the first state declared). */
  initial(stateId: string): FlowBuilder;
  /** Marks the flow as the default one of its machine. */
  asDefault(): FlowBuilder;
  manual(stateId: string, configure?: (state: StateBuilder) => void): FlowBuilder;
  auto(stateId: string, configure?: (state: StateBuilder) => void): FlowBuilder;
  final(stateId: string, configure?: (state: StateBuilder) => void): FlowBuilder;
  /** The flow as plain data, validated (throws `STM_INVALID_FLOW`). */
  build(options?: AssertFlowsOptions): FlowDefinition;
}

interface MutableState {
  id: string;
  kind: StateKind;
  onEntry: string[];
  onExit: string[];
  events: EventDefinition[];
  transitions: ConditionalTransition[];
  activities: ActivityDefinition[];
  enabledBy?: string;
  metadata: Record<string, string>;
}

function makeStateBuilder(state: MutableState): StateBuilder {
  const self: StateBuilder = {
    on(eventId, to, options = {}) {
      state.events.push({
        id: eventId,
        ...(to === undefined ? {} : { to }),
        ...(options.action === undefined ? {} : { action: options.action }),
        ...(options.enabledBy === undefined ? {} : { enabledBy: options.enabledBy }),
        ...(options.metadata === undefined ? {} : { metadata: { ...options.metadata } }),
      });
      return self;
    },
    when(condition, to, options = {}) {
      state.transitions.push({ to, condition, ...options });
      return self;
    },
    otherwise(to, options = {}) {
      state.transitions.push({ to, ...options });
      return self;
    },
    activity(activityId, options = {}) {
      state.activities.push({
        id: activityId,
        mandatory: options.mandatory ?? false,
        ...(options.metadata === undefined ? {} : { metadata: { ...options.metadata } }),
      });
      return self;
    },
    onEntry(...actions) {
      state.onEntry.push(...actions);
      return self;
    },
    onExit(...actions) {
      state.onExit.push(...actions);
      return self;
    },
    enabledBy(property) {
      state.enabledBy = property;
      return self;
    },
    meta(key, value) {
      state.metadata[key] = value;
      return self;
    },
  };
  return self;
}

function freezeState(s: MutableState): StateDefinition {
  return {
    id: s.id,
    kind: s.kind,
    ...(s.onEntry.length > 0 ? { onEntry: [...s.onEntry] } : {}),
    ...(s.onExit.length > 0 ? { onExit: [...s.onExit] } : {}),
    ...(s.events.length > 0 ? { events: [...s.events] } : {}),
    ...(s.transitions.length > 0 ? { transitions: [...s.transitions] } : {}),
    ...(s.activities.length > 0 ? { activities: [...s.activities] } : {}),
    ...(s.enabledBy === undefined ? {} : { enabledBy: s.enabledBy }),
    ...(Object.keys(s.metadata).length > 0 ? { metadata: { ...s.metadata } } : {}),
  };
}

/**
 * Starts a flow in code.
 *
 * @example
 * const order = defineFlow('order-flow')
 *   .auto('checkStock', (s) => s.when('inStock', 'PLACED').otherwise('BACKORDERED'))
 *   .manual('PLACED', (s) => s.onEntry('notifyCustomer').on('pay', 'PAID', { action: 'charge' }))
 *   .manual('BACKORDERED', (s) => s.on('restocked', 'checkStock'))
 *   .final('PAID')
 *   .build();
 */
export function defineFlow(flowId: string): FlowBuilder {
  const states: MutableState[] = [];
  let initialState: string | undefined;
  let isDefault = false;
  const add = (kind: StateKind, id: string, configure?: (state: StateBuilder) => void): FlowBuilder => {
    const state: MutableState = {
      id,
      kind,
      onEntry: [],
      onExit: [],
      events: [],
      transitions: [],
      activities: [],
      metadata: {},
    };
    states.push(state);
    configure?.(makeStateBuilder(state));
    return builder;
  };
  const builder: FlowBuilder = {
    initial(stateId) {
      initialState = stateId;
      return builder;
    },
    asDefault() {
      isDefault = true;
      return builder;
    },
    manual: (id, configure) => add('manual', id, configure),
    auto: (id, configure) => add('auto', id, configure),
    final: (id, configure) => add('final', id, configure),
    build(options) {
      const flow: FlowDefinition = {
        id: flowId,
        initialState: initialState ?? states[0]?.id ?? '',
        states: states.map(freezeState),
        ...(isDefault ? { isDefault: true } : {}),
      };
      assertValidFlows([flow], options);
      return flow;
    },
  };
  return builder;
}
