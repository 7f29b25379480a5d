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
 * | `NO_FINAL_STATE` | warning | the flow has no final state (so no entity can ever finish) |
 * | `CANNOT_REACH_FINAL_STATE` | warning | no path from this state to a final state |
 * | `AUTO_STATE_CYCLE` | warning | auto states that can lead back to themselves without waiting for an event |
 *
 * Each issue names its flow, state and event; flows read from XML also carry the `line` of the
 * element concerned (see `lineOf`).
 *
 * @example
 * const { errors, warnings } = validateFlow(flow);
 */
export interface FlowValidation {
  errors: FlowIssue[];
  warnings: FlowIssue[];
}

export interface ValidateFlowOptions {
  /**
   * The line where a part of a flow (the flow, a state, an event, a transition, an activity, as
   * found in the definitions) is declared, for definitions read from a document.
   */
  lineOf?: (part: object) => number | undefined;
}

export interface AssertFlowsOptions extends ValidateFlowOptions {
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

/** Where an issue is: its flow, state and event, and the line of the most precise part known. */
interface At {
  flowId: string;
  stateId?: string;
  eventId?: string;
  line?: number;
}

function issue(code: string, detail: string, at: At): FlowIssue {
  const message = `${describeLocation(at.flowId, at.stateId, at.eventId)}: ${detail}`;
  return {
    code,
    message: message.charAt(0).toUpperCase() + message.slice(1),
    flowId: at.flowId,
    ...(at.stateId === undefined ? {} : { stateId: at.stateId }),
    ...(at.eventId === undefined ? {} : { eventId: at.eventId }),
    ...(at.line === undefined ? {} : { line: at.line }),
  };
}

/** Finds the `At` of a part: the line of the first of `parts` whose line is known. */
type Locate = (ids: Omit<At, 'line'>, ...parts: object[]) => At;

function makeLocate(lineOf: ValidateFlowOptions['lineOf']): Locate {
  return (ids, ...parts) => {
    for (const part of parts) {
      const line = lineOf?.(part);
      if (line !== undefined) return { ...ids, line };
    }
    return ids;
  };
}

/** Targets a state can move to (events with a target and auto branches). */
export function successors(state: StateDefinition): string[] {
  const out: string[] = [];
  for (const e of state.events ?? []) if (e.to !== undefined) out.push(e.to);
  for (const t of state.transitions ?? []) out.push(t.to);
  return out;
}

/** The checks of one state; `report` collects errors. */
interface StateCheck {
  flow: FlowDefinition;
  state: StateDefinition;
  ids: ReadonlySet<string>;
  errors: FlowIssue[];
  locate: Locate;
}

function checkKind({ flow, state, errors, locate }: StateCheck): void {
  const at = locate({ flowId: flow.id, stateId: state.id }, state, flow);
  const events = state.events ?? [];
  const branches = state.transitions ?? [];
  if (!ID_PATTERN.test(state.id))
    errors.push(issue('INVALID_ID', `state id '${state.id}' is empty or has characters outside [A-Za-z0-9_.-]`, at));
  if (state.kind === 'final' && (events.length > 0 || branches.length > 0)) {
    errors.push(issue('FINAL_STATE_WITH_TRANSITIONS', 'a final state cannot have events or transitions', at));
  }
  if (state.kind === 'manual') {
    if (branches.length > 0)
      errors.push(
        issue(
          'MANUAL_STATE_WITH_BRANCHES',
          'conditional transitions belong to auto states; use events in a manual state',
          at,
        ),
      );
    if (events.length === 0)
      errors.push(
        issue(
          'DEAD_END_STATE',
          'manual state has no events, so it could never be left (make it a final state or add an event)',
          at,
        ),
      );
  }
  if (state.kind === 'auto') {
    if (events.length > 0)
      errors.push(
        issue('AUTO_STATE_WITH_EVENTS', 'an auto state cannot accept events; use conditional transitions', at),
      );
    if (branches.length === 0) errors.push(issue('AUTO_STATE_WITHOUT_BRANCHES', 'auto state has no transitions', at));
  }
  if ((state.activities ?? []).length > 0 && state.kind !== 'manual')
    errors.push(issue('ACTIVITY_OUTSIDE_MANUAL_STATE', 'only manual states can have activities', at));
}

function checkActivities({ flow, state, errors, locate }: StateCheck): void {
  const events = state.events ?? [];
  const seen = new Set<string>();
  for (const a of state.activities ?? []) {
    const at = locate({ flowId: flow.id, stateId: state.id }, a, state, flow);
    if (!ID_PATTERN.test(a.id))
      errors.push(issue('INVALID_ID', `activity id '${a.id}' is empty or has characters outside [A-Za-z0-9_.-]`, at));
    if (seen.has(a.id)) errors.push(issue('DUPLICATE_ACTIVITY', `activity '${a.id}' is declared more than once`, at));
    if (events.some((e) => e.id === a.id))
      errors.push(
        issue('DUPLICATE_EVENT', `activity '${a.id}' has the id of an event of the state`, { ...at, eventId: a.id }),
      );
    seen.add(a.id);
  }
}

function checkEvents({ flow, state, ids, errors, locate }: StateCheck): void {
  const seen = new Set<string>();
  for (const e of state.events ?? []) {
    const at = locate({ flowId: flow.id, stateId: state.id, eventId: e.id }, e, state, flow);
    if (!ID_PATTERN.test(e.id))
      errors.push(
        issue('INVALID_ID', `event id '${e.id}' is empty or has characters outside [A-Za-z0-9_.-]`, {
          ...at,
          eventId: undefined,
        }),
      );
    if (seen.has(e.id)) errors.push(issue('DUPLICATE_EVENT', 'event is declared more than once', at));
    seen.add(e.id);
    if (e.to !== undefined && !ids.has(e.to))
      errors.push(issue('UNKNOWN_TARGET_STATE', `target state '${e.to}' does not exist`, at));
  }
}

function checkBranches({ flow, state, ids, errors, locate }: StateCheck): void {
  let unconditional: { index: number; line?: number } | undefined;
  (state.transitions ?? []).forEach((t, i) => {
    const at = locate({ flowId: flow.id, stateId: state.id }, t, state, flow);
    const label = `transition #${i + 1}${t.condition === undefined ? ' (else)' : ` (condition '${t.condition}')`}`;
    if (!ids.has(t.to))
      errors.push(issue('UNKNOWN_TARGET_STATE', `${label}: target state '${t.to}' does not exist`, at));
    if (unconditional !== undefined) {
      const where = unconditional.line === undefined ? '' : ` (line ${unconditional.line})`;
      errors.push(
        issue('UNREACHABLE_BRANCH', `${label} follows the unconditional transition${where} and can never be taken`, at),
      );
    }
    if (t.condition === undefined) unconditional ??= { index: i, ...(at.line === undefined ? {} : { line: at.line }) };
    else if (parseConditionRef(t.condition).name === '')
      errors.push(issue('INVALID_ID', `${label}: empty condition name`, at));
  });
}

function checkStructure(check: StateCheck): void {
  checkKind(check);
  checkActivities(check);
  checkEvents(check);
  checkBranches(check);
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

function checkGraph(
  flow: FlowDefinition,
  byId: ReadonlyMap<string, StateDefinition>,
  warnings: FlowIssue[],
  locate: Locate,
): void {
  const f = flow.id;
  const atState = (s: StateDefinition): At => locate({ flowId: f, stateId: s.id }, s, flow);
  const next = (id: string): string[] => {
    const s = byId.get(id);
    return s === undefined ? [] : successors(s).filter((t) => byId.has(t));
  };
  if (byId.has(flow.initialState)) {
    const reachable = reachableFrom([flow.initialState], next);
    for (const s of flow.states) {
      if (!reachable.has(s.id))
        warnings.push(
          issue(
            'UNREACHABLE_STATE',
            `state cannot be reached from the initial state '${flow.initialState}'`,
            atState(s),
          ),
        );
    }
  }
  const predecessors = new Map<string, string[]>();
  for (const s of flow.states) for (const t of next(s.id)) predecessors.set(t, [...(predecessors.get(t) ?? []), s.id]);
  const finals = flow.states.filter((s) => s.kind === 'final').map((s) => s.id);
  if (finals.length === 0)
    warnings.push(issue('NO_FINAL_STATE', 'the flow has no final state', locate({ flowId: f }, flow)));
  const canFinish = reachableFrom(finals, (id) => predecessors.get(id) ?? []);
  for (const s of flow.states) {
    if (s.kind !== 'final' && !canFinish.has(s.id)) {
      warnings.push(issue('CANNOT_REACH_FINAL_STATE', 'no path leads from this state to a final state', atState(s)));
    }
  }
  const autoNext = (id: string): string[] => next(id).filter((t) => byId.get(t)?.kind === 'auto');
  for (const s of flow.states) {
    if (s.kind === 'auto' && reachableFrom(autoNext(s.id), autoNext).has(s.id)) {
      warnings.push(
        issue(
          'AUTO_STATE_CYCLE',
          'auto states can lead back to this state without waiting for an event (possible decision loop)',
          atState(s),
        ),
      );
    }
  }
}

/** Checks one flow. */
export function validateFlow(flow: FlowDefinition, options: ValidateFlowOptions = {}): FlowValidation {
  const errors: FlowIssue[] = [];
  const warnings: FlowIssue[] = [];
  const locate = makeLocate(options.lineOf);
  const atFlow = locate({ flowId: flow.id }, flow);
  if (!ID_PATTERN.test(flow.id))
    errors.push(issue('INVALID_ID', `flow id '${flow.id}' is empty or has characters outside [A-Za-z0-9_.-]`, atFlow));
  const byId = new Map<string, StateDefinition>();
  for (const s of flow.states) {
    if (byId.has(s.id))
      errors.push(
        issue(
          'DUPLICATE_STATE',
          'state is declared more than once',
          locate({ flowId: flow.id, stateId: s.id }, s, flow),
        ),
      );
    else byId.set(s.id, s);
  }
  if (flow.initialState === undefined || flow.initialState === '') {
    errors.push(issue('MISSING_INITIAL_STATE', 'no initial state is declared', atFlow));
  } else if (!byId.has(flow.initialState)) {
    errors.push(issue('UNKNOWN_INITIAL_STATE', `initial state '${flow.initialState}' does not exist`, atFlow));
  }
  const ids = new Set(byId.keys());
  for (const state of flow.states) checkStructure({ flow, state, ids, errors, locate });
  checkGraph(flow, byId, warnings, locate);
  return { errors, warnings };
}

/** Checks several flows meant to be used together (ids unique, at most one default). */
export function validateFlows(flows: readonly FlowDefinition[], options: ValidateFlowOptions = {}): FlowValidation {
  const result: FlowValidation = { errors: [], warnings: [] };
  const locate = makeLocate(options.lineOf);
  const seen = new Set<string>();
  for (const flow of flows) {
    if (seen.has(flow.id))
      result.errors.push(issue('DUPLICATE_FLOW', 'flow is declared more than once', locate({ flowId: flow.id }, flow)));
    seen.add(flow.id);
    const one = validateFlow(flow, options);
    result.errors.push(...one.errors);
    result.warnings.push(...one.warnings);
  }
  const defaults = flows.filter((fl) => fl.isDefault === true);
  if (defaults.length > 1) {
    const line = options.lineOf?.(defaults[1]);
    result.errors.push({
      code: 'MULTIPLE_DEFAULT_FLOWS',
      message: `More than one default flow: ${defaults.map((fl) => `'${fl.id}'`).join(', ')}`,
      ...(line === undefined ? {} : { line }),
    });
  }
  return result;
}

/** The `STM_INVALID_FLOW` error listing `issues`, one per line (with its line in the document when known), prefixed with `source` when given. */
export function invalidFlowError(issues: readonly FlowIssue[], source?: string): StmError {
  const prefix = source === undefined ? '' : `${source}: `;
  const lines = issues
    .map((i) => `  - ${i.line === undefined ? '' : `line ${i.line}: `}${i.message} [${i.code}]`)
    .join('\n');
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
  const { errors, warnings } = validateFlows(flows, options);
  const fatal = options.strict === true ? [...errors, ...warnings] : errors;
  if (fatal.length > 0) throw invalidFlowError(fatal, options.source);
  if (options.onWarning !== undefined) for (const w of warnings) options.onWarning(w);
}
