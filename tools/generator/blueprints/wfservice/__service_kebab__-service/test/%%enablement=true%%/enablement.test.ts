// Enablement switches (config/enablement.json): each one, turned off, takes its state or event out
// of the flow — the event is refused with 422 and no longer offered — while the others stay on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadEnablement, loadFlows } from '../src';
import { base, call, defaultFlow, start, testCases, type WorkflowAnswer } from './support';
import { walk } from './walker';

/** The (state, event) pairs a switch takes away: its own event, or every event into its state. */
async function guardedBy(property: string): Promise<Array<{ stateId: string; eventId: string }>> {
  const flows = await loadFlows();
  const pairs: Array<{ stateId: string; eventId: string }> = [];
  for (const flow of flows) {
    const disabledStates = new Set(flow.states.filter((s) => s.enabledBy === property).map((s) => s.id));
    for (const state of flow.states) {
      for (const e of state.events ?? []) if (e.enabledBy === property || (e.to !== undefined && disabledStates.has(e.to))) pairs.push({ stateId: state.id, eventId: e.id });
    }
  }
  return pairs;
}

describe('{{service}}: enablement switches', () => {
  const switches = loadEnablement();

  it('ships every switch on', () => {
    for (const [name, value] of Object.entries(switches)) assert.equal(value, true, name);
  });

  for (const property of Object.keys(switches)) {
    it(`${property}: false refuses what it guards and leaves the rest working`, async (t) => {
      const running = await start({ enablement: { ...switches, [property]: false } });
      try {
        const flow = await defaultFlow(running);
        const cases = await testCases(running, flow.id);
        for (const { stateId, eventId } of await guardedBy(property)) {
          assert.ok(!(flow.states.find((s) => s.id === stateId)?.events ?? []).some((e) => e.id === eventId), `${eventId} is gone from ${stateId}`);
          const testCase = cases.find((c) => c.steps.some((s) => s.from === stateId));
          if (testCase === undefined) {
            t.diagnostic(`${stateId} cannot be reached with ${property} off`);
            continue;
          }
          const { id, skipped } = await walk(running, flow, testCase, testCase.steps.findIndex((s) => s.from === stateId));
          if (skipped !== undefined) continue;
          const read = await call<WorkflowAnswer>(running, 'GET', `${base}/${id}`);
          assert.ok(!read.body.payload.allowedActionsAndMetadata.some((a) => a.allowedAction === eventId), `${eventId} is not offered`);
          const refused = await call(running, 'PATCH', `${base}/${id}/${eventId}`, {});
          assert.equal(refused.status, 422, `${eventId} in ${stateId} is refused`);
        }
        for (const testCase of cases) assert.equal((await walk(running, flow, testCase)).skipped ?? 'walked', 'walked', testCase.name);
      } finally {
        await running.close();
      }
    });
  }
{{^custom}}

  it('reopenEnabled: false — a resolved {{service}} can only be closed', async () => {
    const running = await start({ enablement: { ...switches, reopenEnabled: false } });
    try {
      const created = await call<WorkflowAnswer>(running, 'POST', base, { title: 'no reopening' });
      const id = created.body.payload.mutatedEntity.id;
      await call(running, 'PATCH', `${base}/${id}/assign`, {});
{{#activityIsMandatory}}
      await call(running, 'PATCH', `${base}/${id}/investigate`, {});
{{/activityIsMandatory}}
      const resolved = await call<WorkflowAnswer>(running, 'PATCH', `${base}/${id}/resolve`, {});
      assert.deepEqual(resolved.body.payload.allowedActionsAndMetadata.map((a) => a.allowedAction), ['close']);
      assert.equal((await call(running, 'PATCH', `${base}/${id}/reopen`, {})).status, 422);
    } finally {
      await running.close();
    }
  });
{{/custom}}
});
