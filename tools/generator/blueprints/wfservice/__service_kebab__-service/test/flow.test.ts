// The {{service}} API end to end: every test case the service reports, walked through HTTP; the
// introspection endpoints; the refusals (422 for an event the state does not allow, 404, 400).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { base, call, CREATE_BODY, defaultFlow, start, testCases, type FlowJson, type Running, type WorkflowAnswer } from './support';
import { walk } from './walker';

describe('{{service}}: every path of the flow, through the HTTP API', () => {
  let running: Running;
  let flow: FlowJson;
  before(async () => {
    running = await start({}{{#jpa}}, true{{/jpa}});
    flow = await defaultFlow(running);
  });
  after(() => running.close());

  it('walks each test case from the initial state to its final state', async (t) => {
    const cases = await testCases(running, flow.id);
    assert.ok(cases.length > 0, 'the flow has at least one path');
    for (const testCase of cases) {
      await t.test(testCase.name, async (sub) => {
        const { id, skipped } = await walk(running, flow, testCase);
        if (skipped !== undefined) return sub.skip(skipped);
        const read = await call<WorkflowAnswer>(running, 'GET', `${base}/${id}`);
        const last = testCase.steps.length === 0 ? flow.initialState : testCase.steps[testCase.steps.length - 1].to;
        assert.equal(read.body.payload.mutatedEntity.state.stateId, last);
        assert.equal(flow.states.find((s) => s.id === last)?.kind, 'final');
        assert.deepEqual(read.body.payload.allowedActionsAndMetadata, [], 'a final state allows nothing');
      });
    }
  });
{{^custom}}

  it('reports the paths of OPENED, ASSIGNED, RESOLVED, CLOSED', async () => {
    const names = (await testCases(running, flow.id)).map((c) => c.name);
    assert.ok(names.includes('close'));
    assert.ok(names.includes('assign → resolve → close'));
    assert.deepEqual(flow.states.map((s) => s.id), ['OPENED', 'ASSIGNED', 'RESOLVED', 'CLOSED']);
  });

  it('records what the events carry: the assignee, the comments', async () => {
    const created = await call<WorkflowAnswer>(running, 'POST', base, CREATE_BODY);
    const id = created.body.payload.mutatedEntity.id;
    const assigned = await call<WorkflowAnswer>(running, 'PATCH', `${base}/${id}/assign`, { assignee: 'ada' });
    assert.equal(assigned.body.payload.mutatedEntity.data.assignee, 'ada');
{{#activityIsMandatory}}
    await call(running, 'PATCH', `${base}/${id}/investigate`, {});
{{/activityIsMandatory}}
    const back = await call<WorkflowAnswer>(running, 'PATCH', `${base}/${id}/deassign`, {});
    assert.equal(back.body.payload.mutatedEntity.data.assignee, undefined);
    const closed = await call<WorkflowAnswer>(running, 'PATCH', `${base}/${id}/close`, { comment: 'duplicate' });
    assert.deepEqual(closed.body.payload.mutatedEntity.data.comments, [{ event: 'close', comment: 'duplicate' }]);
    assert.equal(closed.body.payload.mutatedEntity.version, {{#activityIsMandatory}}5{{/activityIsMandatory}}{{^activityIsMandatory}}4{{/activityIsMandatory}});
  });

  it('refuses a body that breaks the entity schema with 400 naming the field', async () => {
    const answer = await call(running, 'POST', base, { title: '' });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.subErrorCode, 'SVC400');
  });
{{/custom}}

  it('answers 422 for an event the current state does not allow, and changes nothing', async () => {
    const created = await call<WorkflowAnswer>(running, 'POST', base, CREATE_BODY);
    const entity = created.body.payload.mutatedEntity;
    const allowed = new Set(created.body.payload.allowedActionsAndMetadata.map((a) => a.allowedAction));
    const other = flow.states.flatMap((s) => (s.events ?? []).map((e) => e.id)).find((e) => !allowed.has(e)) ?? 'no-such-event';
    const refused = await call(running, 'PATCH', `${base}/${entity.id}/${other}`, {});
    assert.equal(refused.status, 422);
    assert.equal(refused.body.subErrorCode, 'WF422');
    const read = await call<WorkflowAnswer>(running, 'GET', `${base}/${entity.id}`);
    assert.deepEqual(read.body.payload.mutatedEntity.state, entity.state);
    assert.equal(read.body.payload.mutatedEntity.version, 1);
  });

  it('answers 404 for an id it does not know', async () => {
    const answer = await call(running, 'GET', `${base}/00000000-0000-4000-8000-000000000000`);
    assert.equal(answer.status, 404);
    assert.equal(answer.body.subErrorCode, 'WF404');
  });

  it('describes the flow: JSON, Mermaid diagram, allowed actions per state', async () => {
    const diagram = await call<string>(running, 'GET', `${base}/info/flows/${flow.id}/diagram`);
    assert.match(diagram.body.payload, /^stateDiagram-v2/);
    assert.ok(diagram.body.payload.includes(`[*] --> ${flow.initialState}`));
    const initial = flow.states.find((s) => s.id === flow.initialState)!;
    if (initial.kind === 'manual') {
      const actions = await call<Array<{ allowedAction: string }>>(running, 'GET', `${base}/info/flows/${flow.id}/states/${initial.id}/allowed-actions`);
      const ids = actions.body.payload.map((a) => a.allowedAction);
      for (const e of initial.events ?? []) if (!(initial.activities ?? []).some((a) => a.mandatory)) assert.ok(ids.includes(e.id), `${e.id} is allowed in ${initial.id}`);
    }
    const missing = await call(running, 'GET', `${base}/info/flows/no-such-flow`);
    assert.equal(missing.status, 404);
    const hostInfo = await call<{ services: Array<{ name: string; kind: string }> }>(running, 'GET', '/info');
    assert.deepEqual(hostInfo.body.payload.services.map((s) => [s.name, s.kind]), [['{{service}}', 'workflow']]);
  });
});
