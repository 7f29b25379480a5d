// Activities (the generator's activity answer: {{activity}}): work done while the entity waits in a
// state. The state's leaving events wait until every mandatory activity is done; optional ones are
// listed but never block.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { base, call, defaultFlow, start, testCases, type FlowJson, type Running, type WorkflowAnswer } from './support';
import { flagsFor, walk } from './walker';

describe('{{service}}: activities', () => {
  let running: Running;
  let flow: FlowJson;
  before(async () => {
    running = await start();
    flow = await defaultFlow(running);
  });
  after(() => running.close());

  it('blocks the leaving events until the mandatory activities are done; optional ones never block', async (t) => {
    const withActivities = flow.states.filter((s) => (s.activities ?? []).length > 0);
    if (withActivities.length === 0) return t.skip('the flow declares no activities');
    const cases = await testCases(running, flow.id);
    for (const state of withActivities) {
      await t.test(state.id, async (sub) => {
        const testCase = cases.find((c) => c.steps.some((s) => s.from === state.id));
        if (testCase === undefined) return sub.skip(`no path leaves ${state.id}`);
        const index = testCase.steps.findIndex((s) => s.from === state.id);
        const { id, skipped } = await walk(running, flow, testCase, index);
        if (skipped !== undefined) return sub.skip(skipped);
        const leaving = testCase.steps[index].event;
        // The decisions right after the leaving event, driven the way the walker drives them.
        const decisions = [];
        for (const step of testCase.steps.slice(index + 1)) {
          if (flow.states.find((x) => x.id === step.from)?.kind !== 'auto') break;
          decisions.push(step);
        }
        const flags = flagsFor(flow, decisions) ?? {};
        const waiting = await call<WorkflowAnswer>(running, 'GET', `${base}/${id}`);
        const listed = waiting.body.payload.allowedActionsAndMetadata;
        for (const activity of state.activities ?? []) {
          const entry = listed.find((a) => a.allowedAction === activity.id);
          assert.equal(entry?.metadata.activity, activity.mandatory ? 'mandatory' : 'optional', `${activity.id} is listed as ${activity.mandatory ? 'mandatory' : 'optional'}`);
        }
        const mandatory = (state.activities ?? []).filter((a) => a.mandatory);
{{^custom}}
        assert.equal(mandatory.length, {{#activityIsMandatory}}1{{/activityIsMandatory}}{{^activityIsMandatory}}0{{/activityIsMandatory}}, 'generated with activity={{activity}}');
{{/custom}}
        if (mandatory.length > 0) {
          assert.ok(!listed.some((a) => a.allowedAction === leaving), `${leaving} is not offered before the mandatory activities`);
          const early = await call(running, 'PATCH', `${base}/${id}/${leaving}`, {});
          assert.equal(early.status, 422, `${leaving} waits for ${mandatory.map((a) => a.id).join(', ')}`);
          for (const activity of mandatory) {
            const done = await call<WorkflowAnswer>(running, 'PATCH', `${base}/${id}/${activity.id}`, {});
            assert.equal(done.status, 200);
            assert.equal(done.body.payload.mutatedEntity.state.stateId, state.id, 'an activity does not move the entity');
            assert.ok(done.body.payload.mutatedEntity.state.doneActivities?.includes(activity.id));
          }
        }
        const left = await call<WorkflowAnswer>(running, 'PATCH', `${base}/${id}/${leaving}`, flags);
        assert.equal(left.status, 200, `${leaving} is allowed once the mandatory activities are done`);
        assert.equal(left.body.payload.mutatedEntity.state.doneActivities, undefined, 'leaving the state clears its activities');
      });
    }
  });
});
