/**
 * The rules a states XML must keep before a workflow service is generated from it: those of
 * `@fw/stm`'s validator (ids, duplicates, initial state, targets, dead ends, branch order,
 * activities), with its warnings made errors — a generated service whose states cannot be reached,
 * or cannot reach an end, is a mistake in the document, not a configuration choice — plus one of
 * the generator's own: with several flows, one is the default (the one `POST /<svc>` starts).
 */
import type { StatesFlow, StatesState } from './states-model';

const ID = /^[A-Za-z0-9_.-]+$/;

type Report = (line: number, detail: string) => void;

function targetsOf(state: StatesState): string[] {
  return [...state.events.flatMap((e) => (e.to === undefined ? [] : [e.to])), ...state.branches.map((b) => b.to)];
}

function checkId(report: Report, line: number, what: string, id: string): void {
  if (id !== '' && !ID.test(id)) report(line, `${what} id '${id}' has characters outside [A-Za-z0-9_.-]`);
}

function checkEvents(report: Report, state: StatesState, ids: ReadonlySet<string>): void {
  const seen = new Set<string>();
  for (const e of state.events) {
    checkId(report, e.line, 'event', e.id);
    if (seen.has(e.id)) report(e.line, `state '${state.id}': event '${e.id}' is declared more than once`);
    seen.add(e.id);
    if (e.to !== undefined && !ids.has(e.to)) report(e.line, `state '${state.id}', event '${e.id}': target state '${e.to}' does not exist`);
  }
  const activities = new Set<string>();
  for (const a of state.activities) {
    checkId(report, a.line, 'activity', a.id);
    if (activities.has(a.id)) report(a.line, `state '${state.id}': activity '${a.id}' is declared more than once`);
    if (seen.has(a.id)) report(a.line, `state '${state.id}': activity '${a.id}' has the id of an event of the state`);
    activities.add(a.id);
  }
  if (state.kind === 'manual' && state.events.length === 0) report(state.line, `manual state '${state.id}' has no events, so it could never be left (make it an <end-state> or add an <on>)`);
}

function checkBranches(report: Report, state: StatesState, ids: ReadonlySet<string>): void {
  if (state.kind === 'auto' && state.branches.length === 0) report(state.line, `auto state '${state.id}' has no <transition>`);
  let elseLine: number | undefined;
  for (const b of state.branches) {
    if (!ids.has(b.to)) report(b.line, `state '${state.id}': transition target state '${b.to}' does not exist`);
    if (elseLine !== undefined) report(b.line, `state '${state.id}': this transition follows the unconditional one (line ${elseLine}) and can never be taken`);
    if (b.condition === undefined) elseLine = elseLine ?? b.line;
    else if (b.condition.replace(/^!/, '').trim() === '') report(b.line, `state '${state.id}': empty condition name`);
  }
}

/** States reachable from `from` along `next`. */
function closure(from: readonly string[], next: (id: string) => readonly string[]): Set<string> {
  const seen = new Set(from);
  const queue = [...from];
  while (queue.length > 0) for (const n of next(queue.shift()!)) if (!seen.has(n)) (seen.add(n), queue.push(n));
  return seen;
}

function checkGraph(report: Report, flow: StatesFlow, byId: ReadonlyMap<string, StatesState>, initial: StatesState): void {
  const forward = (id: string): string[] => (byId.has(id) ? targetsOf(byId.get(id)!) : []);
  const reachable = closure([initial.id], forward);
  for (const s of flow.states) if (!reachable.has(s.id)) report(s.line, `flow '${flow.id}': state '${s.id}' cannot be reached from the initial state '${initial.id}'`);
  const finals = flow.states.filter((s) => s.kind === 'final').map((s) => s.id);
  if (finals.length === 0) report(flow.line, `flow '${flow.id}' has no <end-state>`);
  const backward = (id: string): string[] => flow.states.filter((s) => targetsOf(s).includes(id)).map((s) => s.id);
  const leadsToEnd = closure(finals, backward);
  for (const s of flow.states) if (reachable.has(s.id) && !leadsToEnd.has(s.id)) report(s.line, `flow '${flow.id}': no path leads from state '${s.id}' to an end state`);
  for (const s of flow.states.filter((x) => x.kind === 'auto')) {
    const autoNext = (id: string): string[] => (byId.get(id)?.kind === 'auto' ? byId.get(id)!.branches.map((b) => b.to) : []);
    if (closure(autoNext(s.id), autoNext).has(s.id)) report(s.line, `flow '${flow.id}': auto states lead back to '${s.id}' without waiting for an event (a decision loop)`);
  }
}

function checkFlow(report: Report, flow: StatesFlow): void {
  checkId(report, flow.line, 'flow', flow.id);
  const byId = new Map<string, StatesState>();
  for (const s of flow.states) {
    checkId(report, s.line, 'state', s.id);
    if (byId.has(s.id)) report(s.line, `flow '${flow.id}': state '${s.id}' is declared more than once (first on line ${byId.get(s.id)!.line})`);
    else byId.set(s.id, s);
  }
  const ids = new Set(byId.keys());
  for (const s of flow.states) {
    checkEvents(report, s, ids);
    checkBranches(report, s, ids);
  }
  const initials = flow.states.filter((s) => s.initial);
  if (initials.length === 0) report(flow.line, `flow '${flow.id}' has no initial state (mark one state initialState="true")`);
  for (const extra of initials.slice(1)) report(extra.line, `flow '${flow.id}': a second initial state '${extra.id}' (the first is '${initials[0].id}' on line ${initials[0].line})`);
  if (initials.length >= 1) checkGraph(report, flow, byId, initials[0]);
}

/** Every problem of the flows, as `line N: …`. */
export function checkStatesFlows(flows: readonly StatesFlow[]): string[] {
  const problems: string[] = [];
  const report: Report = (line, detail) => problems.push(`line ${line}: ${detail}`);
  const seen = new Map<string, number>();
  for (const flow of flows) {
    if (seen.has(flow.id)) report(flow.line, `flow '${flow.id}' is declared more than once (first on line ${seen.get(flow.id)})`);
    seen.set(flow.id, flow.line);
    checkFlow(report, flow);
  }
  const defaults = flows.filter((f) => f.isDefault);
  for (const extra of defaults.slice(1)) report(extra.line, `a second default flow '${extra.id}' (the first is '${defaults[0].id}')`);
  if (flows.length > 1 && defaults.length === 0) report(flows[0].line, `with ${flows.length} flows, mark the one new entities start in default="true"`);
  return problems.sort((a, b) => lineOf(a) - lineOf(b));
}

function lineOf(problem: string): number {
  return Number(/^line (\d+)/.exec(problem)?.[1] ?? 0);
}
