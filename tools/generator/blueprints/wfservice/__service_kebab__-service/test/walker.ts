// Drives a test case through the HTTP API: create, then each event of the path, checking the state
// after every call. A step out of a decision (auto) state is not sent: it happens on its own, and
// the walker picks the branch by sending the flags the branch's conditions read{{#custom}} (see
// `flag` in src/actions.ts){{/custom}}.
import assert from 'node:assert/strict';
import { base, call, CREATE_BODY, type FlowJson, type Running, type TestCase, type WorkflowAnswer } from './support';

type Step = TestCase['steps'][number];

/** A manual event (or the create) and the decision steps that follow it on their own. */
interface Move {
  step?: Step;
  decisions: Step[];
}

function movesOf(flow: FlowJson, steps: readonly Step[]): Move[] {
  const isAuto = (id: string): boolean => flow.states.find((s) => s.id === id)?.kind === 'auto';
  const moves: Move[] = [{ decisions: [] }];
  for (const step of steps) {
    if (isAuto(step.from)) moves[moves.length - 1].decisions.push(step);
    else moves.push({ step, decisions: [] });
  }
  return moves;
}

/**
 * The flags that make each decision take its step: the branches before the taken one must fail,
 * the taken one must hold. Undefined when two decisions need one flag both ways (no payload can
 * drive that path).
 */
export function flagsFor(flow: FlowJson, decisions: readonly Step[]): Record<string, boolean> | undefined {
  const flags: Record<string, boolean> = {};
  const need = (condition: string, holds: boolean): boolean => {
    const negated = condition.startsWith('!');
    const name = negated ? condition.slice(1) : condition;
    const value = negated ? !holds : holds;
    if (name in flags && flags[name] !== value) return false;
    flags[name] = value;
    return true;
  };
  for (const d of decisions) {
    const branches = flow.states.find((s) => s.id === d.from)?.transitions ?? [];
    const taken = branches.findIndex((b) => (b.condition ?? 'else') === d.event && b.to === d.to);
    assert.ok(taken >= 0, `decision ${d.from} has a branch ${d.event} → ${d.to}`);
    for (const b of branches.slice(0, taken)) if (b.condition !== undefined && !need(b.condition, false)) return undefined;
    const condition = branches[taken].condition;
    if (condition !== undefined && !need(condition, true)) return undefined;
  }
  return flags;
}

function expectedAfter(move: Move, current: string): string {
  const last = move.decisions.length > 0 ? move.decisions[move.decisions.length - 1] : move.step;
  return last?.to ?? current;
}

/** Does the mandatory activities of the entity's state: its leaving events wait for them. */
export async function doMandatoryActivities(running: Running, flow: FlowJson, id: string, stateId: string): Promise<void> {
  for (const activity of flow.states.find((s) => s.id === stateId)?.activities ?? []) {
    if (!activity.mandatory) continue;
    const done = await call<WorkflowAnswer>(running, 'PATCH', `${base}/${id}/${activity.id}`, {});
    assert.equal(done.status, 200, `activity ${activity.id} in ${stateId}: ${done.body.description ?? ''}`);
  }
}

export interface WalkResult {
  id: string;
  /** Why the path was not driven to its end (conflicting flags), when it was not. */
  skipped?: string;
}

/**
 * Walks `testCase` through the API. With `stopBefore`, stops when the entity is in the `from` state
 * of that step (before its activities): the activity and enablement tests go on from there.
 */
export async function walk(running: Running, flow: FlowJson, testCase: TestCase, stopBefore?: number): Promise<WalkResult> {
  const moves = movesOf(flow, testCase.steps);
  let id = '';
  let state = flow.initialState;
  let index = 0;
  for (const move of moves) {
    if (move.step !== undefined && stopBefore !== undefined && index >= stopBefore) return { id };
    const flags = flagsFor(flow, move.decisions);
    if (flags === undefined) return { id, skipped: `the decisions after ${move.step?.event ?? 'create'} need one flag both true and false` };
    let answer;
    if (move.step === undefined) {
      answer = await call<WorkflowAnswer>(running, 'POST', base, { ...CREATE_BODY, ...flags });
    } else {
      await doMandatoryActivities(running, flow, id, state);
      const before = await call<WorkflowAnswer>(running, 'GET', `${base}/${id}`);
      assert.ok(before.body.payload.allowedActionsAndMetadata.some((a) => a.allowedAction === move.step!.event), `${move.step.event} is allowed in ${state}`);
      answer = await call<WorkflowAnswer>(running, 'PATCH', `${base}/${id}/${move.step.event}`, flags);
    }
    assert.equal(answer.status, 200, `${move.step?.event ?? 'create'}: ${answer.body.description ?? ''}`);
    id = answer.body.payload.mutatedEntity.id;
    state = expectedAfter(move, state);
    assert.equal(answer.body.payload.mutatedEntity.state.stateId, state, `after ${move.step?.event ?? 'create'}`);
    index += (move.step === undefined ? 0 : 1) + move.decisions.length;
  }
  return { id };
}
