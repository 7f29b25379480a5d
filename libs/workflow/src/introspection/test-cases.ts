/**
 * Test cases of a flow: every path from the initial state to a final state in which
 * each loop is walked at most once — no state is entered more than twice on a path (once, and
 * once more after going round a loop) — with a Mermaid diagram of the path. Internal events (no target) and activities do not move and are left out.
 *
 * @example
 * enumerateTestCases(flow)[0];
 * // { name: 'assign → resolve → close', steps: [{ from: 'OPENED', event: 'assign', to: 'ASSIGNED' }, …], diagram: 'stateDiagram-v2\n…' }
 */
import type { FlowDefinition } from '@fw/stm';

export interface TestCaseStep {
  from: string;
  /** The event, or for a decision (auto) state the condition taken (`else` for the default branch). */
  event: string;
  to: string;
}

export interface TestCase {
  name: string;
  steps: TestCaseStep[];
  diagram: string;
}

/** Most test cases listed for one flow; a flow with more paths lists the first ones found. */
export const MAX_TEST_CASES = 1000;

function edgesOf(flow: FlowDefinition): Map<string, TestCaseStep[]> {
  const edges = new Map<string, TestCaseStep[]>();
  for (const state of flow.states) {
    const out: TestCaseStep[] = [];
    for (const e of state.events ?? []) if (e.to !== undefined) out.push({ from: state.id, event: e.id, to: e.to });
    for (const t of state.transitions ?? []) out.push({ from: state.id, event: t.condition ?? 'else', to: t.to });
    edges.set(state.id, out);
  }
  return edges;
}

function diagramOf(flow: FlowDefinition, steps: readonly TestCaseStep[]): string {
  const lines = ['stateDiagram-v2', `  [*] --> ${flow.initialState}`];
  steps.forEach((s, i) => lines.push(`  ${s.from} --> ${s.to} : ${i + 1}. ${s.event}`));
  const last = steps.length === 0 ? flow.initialState : steps[steps.length - 1].to;
  lines.push(`  ${last} --> [*]`);
  return `${lines.join('\n')}\n`;
}

export function enumerateTestCases(flow: FlowDefinition, limit = MAX_TEST_CASES): TestCase[] {
  const edges = edgesOf(flow);
  const finals = new Set(flow.states.filter((s) => s.kind === 'final').map((s) => s.id));
  const cases: TestCase[] = [];
  const visits = new Map<string, number>([[flow.initialState, 1]]);
  const path: TestCaseStep[] = [];
  const walk = (stateId: string): void => {
    if (cases.length >= limit) return;
    if (finals.has(stateId)) {
      const steps = path.map((s) => ({ ...s }));
      cases.push({
        name: steps.length === 0 ? flow.initialState : steps.map((s) => s.event).join(' → '),
        steps,
        diagram: diagramOf(flow, steps),
      });
      return;
    }
    for (const edge of edges.get(stateId) ?? []) {
      const seen = visits.get(edge.to) ?? 0;
      if (seen >= 2) continue;
      visits.set(edge.to, seen + 1);
      path.push(edge);
      walk(edge.to);
      path.pop();
      visits.set(edge.to, seen);
    }
  };
  walk(flow.initialState);
  return cases;
}
