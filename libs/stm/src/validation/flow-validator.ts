import { StmError, StmErrorCodes, type FlowIssue } from '../errors/stm-error';
import { parseConditionRef, type FlowDefinition, type StateDefinition } from '../model/flow-definition';

/**
 * Static checks of flows. Errors make a flow unusable (loading throws `STM_INVALID_FLOW`);
 * warnings point at likely mistakes but keep the flow loadable (unless `strict` is set):
 *
 * | code | level | meaning |
 * |---|---|---|
 * | `INVALID_ID` | error | empty id, or characters outside `[A-Za-z0-9_.-]` |
 * | `DUPLICATE_FLOW`, `DUPLICATE_STATE`, `DUPLICATE_EVENT`, `DUPLICATE_ACTIVITY` | error | ids must be unique (flows in a set, states in a flow, events and activities in a state) |
 * | `ACTIVITY_OUTSIDE_MANUAL_STATE` | error | activities belong to manual states |
 * | `MULTIPLE_DEFAULT_FLOWS` | error | more than one flow marked default |
 * | `MISSING_INITIAL_STATE`, `UNKNOWN_INITIAL_STATE` | error | no initial state, or one that does not exist |
 * | `UNKNOWN_TARGET_STATE` | error | an event or branch goes to a state that does not exist |
 * | `FINAL_STATE_WITH_TRANSITIONS` | error | a final state declares events or branches |
 * | `MANUAL_STATE_WITH_BRANCHES`, `AUTO_STATE_WITH_EVENTS` | error | events belong to manual states, branches to auto states |
 * | `AUTO_STATE_WITHOUT_BRANCHES` | error | a decision with nowhere to go |
 * | `UNREACHABLE_BRANCH` | error | a branch after the unconditional (else) branch |
 * | `DEAD_END_STATE` | error | a manual state without events (it could never be left) |
 * | `UNREACHABLE_STATE` | warning | no path from the initial state |
 * | `CANNOT_REACH_FINAL_STATE` | warning | no path from this state to a final state |
 * | `AUTO_STATE_CYCLE` | warning | auto states that can lead back to themselves without waiting for an event |
 *
 * @example
 * const { errors, warnings } = validateFlow(flow);
 */
export interface FlowValidation {
  errors: FlowIssue[];
  warnings: FlowIssue[];
}

export interface AssertFlowsOptions {
  /** Treat warnings as errors. */
  strict?: boolean;
  /** Receives each warning (when not strict). */
  onWarning?: (issue: FlowIssue) => void;
  /** Prefix for messages, for example the file name. */
  source?: string;
}

const ID_PATTERN = /^[A-Za-z0-9_.-]+$/;

/** Formats the location part of a message: `Flow 'f', state 's', event 'e'`. */
export function describeLocation(flowId: string, stateId?: string, eventId?: string): string {
  let text = `Flow '${flowId}'`;
  if (stateId !== undefined) text += `, state '${stateId}'`;
  if (eventId !== undefined) text += `, event '${eventId}'`;
  return text;
}

function issue(code: string, detail: string, flowId: string, stateId?: string, eventId?: string): FlowIssue {
  const message = `${describeLocation(flowId, stateId, eventId)}: ${detail}`;
  return {
    code,
    message: message.charAt(0).toUpperCase() + message.slice(1),
    flowId,
    ...(stateId === undefined ? {} : { stateId }),
    ...(eventId === undefined ? {} : { eventId }),
  };
}

/** Targets a state can move to (events with a target and auto branches). */
export function successors(state: StateDefinition): string[] {
  const out: string[] = [];
  for (const e of state.events ?? []) if (e.to !== undefined) out.push(e.to);
  for (const t of state.transitions ?? []) out.push(t.to);
  return out;
}

function checkStructure(flow: FlowDefinition, state: StateDefinition, ids: ReadonlySet<string>, errors: FlowIssue[]): void {
  const f = flow.id;
  const events = state.events ?? [];
  const branches = state.transitions ?? [];
  if (!ID_PATTERN.test(state.id)) errors.push(issue('INVALID_ID', `state id '${state.id}' is empty or has characters outside [A-Za-z0-9_.-]`, f, state.id));
  if (state.kind === 'final' && (events.length > 0 || branches.length > 0)) {
    errors.push(issue('FINAL_STATE_WITH_TRANSITIONS', 'a final state cannot have events or transitions', f, state.id));
  }
  if (state.kind === 'manual') {
    if (branches.length > 0) errors.push(issue('MANUAL_STATE_WITH_BRANCHES', 'conditional transitions belong to auto states; use events in a manual state', f, state.id));
    if (events.length === 0) errors.push(issue('DEAD_END_STATE', 'manual state has no events, so it could never be left (make it a final state or add an event)', f, state.id));
  }
  if (state.kind === 'auto') {
    if (events.length > 0) errors.push(issue('AUTO_STATE_WITH_EVENTS', 'an auto state cannot accept events; use conditional transitions', f, state.id));
    if (branches.length === 0) errors.push(issue('AUTO_STATE_WITHOUT_BRANCHES', 'auto state has no transitions', f, state.id));
  }
  const activities = state.activities ?? [];
  if (activities.length > 0 && state.kind !== 'manual') errors.push(issue('ACTIVITY_OUTSIDE_MANUAL_STATE', 'only manual states can have activities', f, state.id));
  const seenActivities = new Set<string>();
  for (const a of activities) {
    if (!ID_PATTERN.test(a.id)) errors.push(issue('INVALID_ID', `activity id '${a.id}' is empty or has characters outside [A-Za-z0-9_.-]`, f, state.id));
    if (seenActivities.has(a.id)) errors.push(issue('DUPLICATE_ACTIVITY', `activity '${a.id}' is declared more than once`, f, state.id));
    if (events.some((e) => e.id === a.id)) errors.push(issue('DUPLICATE_EVENT', `activity '${a.id}' has the id of an event of the state`, f, state.id, a.id));
    seenActivities.add(a.id);
  }
  const seenEvents = new Set<string>();
  for (const e of events) {
    if (!ID_PATTERN.test(e.id)) errors.push(issue('INVALID_ID', `event id '${e.id}' is empty or has characters outside [A-Za-z0-9_.-]`, f, state.id));
    if (seenEvents.has(e.id)) errors.push(issue('DUPLICATE_EVENT', 'event is declared more than once', f, state.id, e.id));
    seenEvents.add(e.id);
    if (e.to !== undefined && !ids.has(e.to)) errors.push(issue('UNKNOWN_TARGET_STATE', `target state '${e.to}' does not exist`, f, state.id, e.id));
  }
  let elseSeen = false;
  branches.forEach((t, i) => {
    const label = `transition #${i + 1}${t.condition === undefined ? ' (else)' : ` (condition '${t.condition}')`}`;
    if (!ids.has(t.to)) errors.push(issue('UNKNOWN_TARGET_STATE', `${label}: target state '${t.to}' does not exist`, f, state.id));
    if (elseSeen) errors.push(issue('UNREACHABLE_BRANCH', `${label} follows the unconditional transition and can never be taken`, f, state.id));
    if (t.condition === undefined) elseSeen = true;
    else if (parseConditionRef(t.condition).name === '') errors.push(issue('INVALID_ID', `${label}: empty condition name`, f, state.id));
  });
}

function reachableFrom(start: readonly string[], next: (id: string) => readonly string[]): Set<string> {
  const seen = new Set<string>(start);
  const queue = [...start];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    for (const n of next(id)) {
      if (!seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
    }
  }
  return seen;
}

function checkGraph(flow: FlowDefinition, byId: ReadonlyMap<string, StateDefinition>, warnings: FlowIssue[]): void {
  const f = flow.id;
  const next = (id: string): string[] => {
    const s = byId.get(id);
    return s === undefined ? [] : successors(s).filter((t) => byId.has(t));
  };
  if (byId.has(flow.initialState)) {
    const reachable = reachableFrom([flow.initialState], next);
    for (const s of flow.states) {
      if (!reachable.has(s.id)) warnings.push(issue('UNREACHABLE_STATE', 'state cannot be reached from the initial state', f, s.id));
    }
  }
  const predecessors = new Map<string, string[]>();
  for (const s of flow.states) for (const t of next(s.id)) predecessors.set(t, [...(predecessors.get(t) ?? []), s.id]);
  const finals = flow.states.filter((s) => s.kind === 'final').map((s) => s.id);
  const canFinish = reachableFrom(finals, (id) => predecessors.get(id) ?? []);
  for (const s of flow.states) {
    if (s.kind !== 'final' && !canFinish.has(s.id)) {
      warnings.push(issue('CANNOT_REACH_FINAL_STATE', 'no path leads from this state to a final state', f, s.id));
    }
  }
  const autoNext = (id: string): string[] => next(id).filter((t) => byId.get(t)?.kind === 'auto');
  for (const s of flow.states) {
    if (s.kind === 'auto' && reachableFrom(autoNext(s.id), autoNext).has(s.id)) {
      warnings.push(issue('AUTO_STATE_CYCLE', 'auto states can lead back to this state without waiting for an event (possible decision loop)', f, s.id));
    }
  }
}

/** Checks one flow. */
export function validateFlow(flow: FlowDefinition): FlowValidation {
  const errors: FlowIssue[] = [];
  const warnings: FlowIssue[] = [];
  const f = flow.id;
  if (!ID_PATTERN.test(f)) errors.push(issue('INVALID_ID', `flow id '${f}' is empty or has characters outside [A-Za-z0-9_.-]`, f));
  const byId = new Map<string, StateDefinition>();
  for (const s of flow.states) {
    if (byId.has(s.id)) errors.push(issue('DUPLICATE_STATE', 'state is declared more than once', f, s.id));
    else byId.set(s.id, s);
  }
  if (flow.initialState === undefined || flow.initialState === '') {
    errors.push(issue('MISSING_INITIAL_STATE', 'no initial state is declared', f));
  } else if (!byId.has(flow.initialState)) {
    errors.push(issue('UNKNOWN_INITIAL_STATE', `initial state '${flow.initialState}' does not exist`, f));
  }
  const ids = new Set(byId.keys());
  for (const s of flow.states) checkStructure(flow, s, ids, errors);
  checkGraph(flow, byId, warnings);
  return { errors, warnings };
}

/** Checks several flows meant to be used together (ids unique, at most one default). */
export function validateFlows(flows: readonly FlowDefinition[]): FlowValidation {
  const result: FlowValidation = { errors: [], warnings: [] };
  const seen = new Set<string>();
  for (const flow of flows) {
    if (seen.has(flow.id)) result.errors.push(issue('DUPLICATE_FLOW', 'flow is declared more than once', flow.id));
    seen.add(flow.id);
    const one = validateFlow(flow);
    result.errors.push(...one.errors);
    result.warnings.push(...one.warnings);
  }
  const defaults = flows.filter((fl) => fl.isDefault === true).map((fl) => `'${fl.id}'`);
  if (defaults.length > 1) {
    result.errors.push({ code: 'MULTIPLE_DEFAULT_FLOWS', message: `More than one default flow: ${defaults.join(', ')}` });
  }
  return result;
}

/** The `STM_INVALID_FLOW` error listing `issues`, one per line, prefixed with `source` when given. */
export function invalidFlowError(issues: readonly FlowIssue[], source?: string): StmError {
  const prefix = source === undefined ? '' : `${source}: `;
  const lines = issues.map((i) => `  - ${i.message} [${i.code}]`).join('\n');
  return new StmError({
    code: StmErrorCodes.invalidFlow,
    message: `${prefix}invalid flow definition (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${lines}`,
    ...(issues[0]?.flowId === undefined ? {} : { flowId: issues[0].flowId }),
    issues,
  });
}

/**
 * Validates flows and throws a `STM_INVALID_FLOW` {@link StmError} listing every error (one per
 * line). Warnings go to `onWarning`, or are errors too when `strict` is set.
 */
export function assertValidFlows(flows: readonly FlowDefinition[], options: AssertFlowsOptions = {}): void {
  const { errors, warnings } = validateFlows(flows);
  const fatal = options.strict === true ? [...errors, ...warnings] : errors;
  if (fatal.length > 0) throw invalidFlowError(fatal, options.source);
  if (options.onWarning !== undefined) for (const w of warnings) options.onWarning(w);
}
