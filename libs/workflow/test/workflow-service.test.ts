import { createLogger } from '@fw/core';
import { makeErrorMiddleware, makeNotFoundHandler } from '@fw/core/http';
import { makeServiceRegistry, makeServiceRouter } from '@fw/service';
import { describeEachDatabase } from '@fw/test-support';
import express, { type Express } from 'express';
import request from 'supertest';
import {
  defineWorkflowService,
  enumerateTestCases,
  makeDatabaseWorkflowStore,
  makeInMemoryWorkflowStore,
  SUPPORT_TICKET_FLOW,
  SUPPORT_TICKET_SCHEMA,
  type WorkflowStore,
} from '../src';

function hostWith(store: WorkflowStore): Express {
  const service = defineWorkflowService({
    name: 'support-ticket',
    version: '1.0.0',
    flows: [SUPPORT_TICKET_FLOW],
    entity: SUPPORT_TICKET_SCHEMA,
    store,
  });
  const registry = makeServiceRegistry({ host: { name: 'wf-host', version: '1' }, services: [service] });
  const app = express();
  app.use(makeServiceRouter(registry));
  app.use(makeNotFoundHandler(), makeErrorMiddleware(createLogger({ name: 'wf-test' })));
  return app;
}

function suite(makeStore: () => WorkflowStore): void {
  let app: Express;
  beforeAll(() => {
    app = hostWith(makeStore());
  });

  const create = async () =>
    (await request(app).post('/support-ticket').set('x-fw-tenant-id', 'acme').send({ title: 'printer on fire' })).body
      .payload;

  it('creates a ticket in OPENED and walks OPENED → ASSIGNED → RESOLVED → CLOSED, one version per event', async () => {
    const created = await create();
    expect(created.mutatedEntity).toMatchObject({
      service: 'support-ticket',
      tenant: 'acme',
      state: { flowId: 'support-ticket', stateId: 'OPENED' },
      data: { title: 'printer on fire' },
      version: 1,
    });
    expect(created.allowedActionsAndMetadata.map((a: { allowedAction: string }) => a.allowedAction)).toEqual([
      'assign',
      'close',
    ]);
    const id = created.mutatedEntity.id as string;
    for (const [event, state, version] of [
      ['assign', 'ASSIGNED', 2],
      ['resolve', 'RESOLVED', 3],
      ['close', 'CLOSED', 4],
    ] as const) {
      const res = await request(app)
        .patch(`/support-ticket/${id}/${event}`)
        .send({ note: `did ${event}` });
      expect(res.status).toBe(200);
      expect(res.body.payload.mutatedEntity).toMatchObject({ state: { stateId: state }, version });
    }
    const read = await request(app).get(`/support-ticket/${id}`);
    expect(read.body.payload).toMatchObject({
      mutatedEntity: { state: { stateId: 'CLOSED' }, version: 4 },
      allowedActionsAndMetadata: [],
    });
  });

  it('refuses resolve on OPENED with 422, an unknown id with 404, a bad body with 400', async () => {
    const id = (await create()).mutatedEntity.id as string;
    const refused = await request(app).patch(`/support-ticket/${id}/resolve`).send({});
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ success: false, code: 422, subErrorCode: 'WF422' });
    expect(refused.body.description).toContain('the event is not allowed in this state (allowed: assign, close)');
    expect((await request(app).get(`/support-ticket/${id}`)).body.payload.mutatedEntity).toMatchObject({
      state: { stateId: 'OPENED' },
      version: 1,
    });
    const unknown = await request(app).get('/support-ticket/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.subErrorCode).toBe('WF404');
    expect((await request(app).get('/support-ticket/not-a-uuid')).status).toBe(400);
    const bad = await request(app).post('/support-ticket').send({ title: '', colour: 'red' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['body.colour', 'body.title']);
  });

  it('50 concurrent events on one entity: exactly the transitions the machine allows, a consistent version, the rest 409 or 422', async () => {
    const id = (await create()).mutatedEntity.id as string;
    const events = Array.from({ length: 50 }, (_, i) => ['assign', 'deassign', 'resolve', 'reopen', 'close'][i % 5]);
    const results = await Promise.all(events.map((e) => request(app).patch(`/support-ticket/${id}/${e}`).send({})));
    const accepted = results.filter((r) => r.status === 200);
    expect(results.every((r) => [200, 409, 422].includes(r.status))).toBe(true);
    const final = (await request(app).get(`/support-ticket/${id}`)).body.payload.mutatedEntity;
    expect(final.version).toBe(1 + accepted.length);
    // Replaying the accepted events in version order through the flow must be legal and end where the entity is.
    const ordered = accepted
      .map((r) => r.body.payload.mutatedEntity as { version: number; state: { stateId: string } })
      .sort((a, b) => a.version - b.version);
    expect(ordered.map((e) => e.version)).toEqual(ordered.map((_, i) => i + 2));
    expect(ordered.length > 0 ? ordered[ordered.length - 1].state.stateId : 'OPENED').toBe(final.state.stateId);
  });

  it('answers the introspection endpoints: flows, flow JSON, Mermaid, allowed actions, test cases', async () => {
    expect((await request(app).get('/support-ticket/info')).body.payload).toEqual({
      flows: [{ id: 'support-ticket', default: true }],
    });
    expect((await request(app).get('/support-ticket/info/flows/support-ticket')).body.payload).toMatchObject({
      id: 'support-ticket',
      initialState: 'OPENED',
    });
    const diagram = (await request(app).get('/support-ticket/info/flows/support-ticket/diagram')).body
      .payload as string;
    expect(diagram).toContain('stateDiagram-v2');
    expect(diagram).toContain('ASSIGNED --> RESOLVED : resolve');
    expect(
      (
        await request(app).get('/support-ticket/info/flows/support-ticket/states/RESOLVED/allowed-actions')
      ).body.payload.map((a: { allowedAction: string }) => a.allowedAction),
    ).toEqual(['close', 'reopen']);
    expect((await request(app).get('/support-ticket/info/flows/nope/diagram')).status).toBe(404);
    const cases = (await request(app).get('/support-ticket/info/flows/support-ticket/test-cases')).body
      .payload as Array<{ name: string }>;
    expect(cases.map((c) => c.name)).toEqual(enumerateTestCases(SUPPORT_TICKET_FLOW).map((c) => c.name));
  });
}

describe('workflow service on the in-memory store', () => suite(makeInMemoryWorkflowStore));
describeEachDatabase('workflow service on the database store', (getDb) =>
  suite(() => makeDatabaseWorkflowStore(getDb().database)),
);

describe('test cases of a flow', () => {
  it('lists every path from the initial state to a final state, each loop at most once (no state entered more than twice)', () => {
    const cases = enumerateTestCases(SUPPORT_TICKET_FLOW);
    const names = cases.map((c) => c.name).sort();
    expect(names).toEqual(
      [
        'close',
        'assign → resolve → close',
        'assign → deassign → close',
        'assign → resolve → reopen → resolve → close',
        'assign → deassign → assign → resolve → close',
        'assign → resolve → reopen → deassign → close',
      ].sort(),
    );
    const first = cases.find((c) => c.name === 'assign → resolve → close');
    expect(first?.steps).toEqual([
      { from: 'OPENED', event: 'assign', to: 'ASSIGNED' },
      { from: 'ASSIGNED', event: 'resolve', to: 'RESOLVED' },
      { from: 'RESOLVED', event: 'close', to: 'CLOSED' },
    ]);
    expect(first?.diagram).toBe(
      'stateDiagram-v2\n  [*] --> OPENED\n  OPENED --> ASSIGNED : 1. assign\n  ASSIGNED --> RESOLVED : 2. resolve\n  RESOLVED --> CLOSED : 3. close\n  CLOSED --> [*]\n',
    );
  });
});
