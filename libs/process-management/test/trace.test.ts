import { processDb } from '@fw/process-service';
import { describeEachDatabase } from '@fw/test-support';
import type { Express } from 'express';
import { sql } from 'kysely';
import { request } from './contract';
import type { TraceEdge, TraceGraph, TraceNode } from '../src';
import { API, auth, makeAdminHarness, runTree, seedDefinitions, T1, type AdminHarness } from './support';

function edgesOf(graph: TraceGraph, kind: TraceEdge['kind']): Array<[string, string]> {
  return graph.edges.filter((e) => e.kind === kind).map((e) => [e.source, e.target]);
}

describeEachDatabase('administration API: trace', (getDb) => {
  let h: AdminHarness;
  let app: Express;

  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    h = makeAdminHarness(getDb());
    app = h.app;
  });

  it('draws trigger → root → children → completion → successor from stored ids', async () => {
    const triggered = await request(app)
      .post(`${API}/triggers`)
      .set(auth())
      .send({ triggerId: 'trace-1', payload: { processDefName: 'wordcount', args: { text: 'x y z' } } });
    expect(triggered.status).toBe(200);
    const triggerId = triggered.body.triggerId as string;
    expect(triggerId).toBe(`manual:${T1}:trace-1`);
    const rootId = (await request(app).get(`${API}/processes`).set(auth()).query({ triggerId })).body.content[0]
      .id as string;
    const root = (await h.manager.getProcess(rootId, { tenant: T1 })).mutatedEntity;
    const { children, successor } = await runTree(h.manager, getDb().database, root, ['x y', 'z']);

    const byTrigger = await request(app).get(`${API}/trace`).set(auth()).query({ triggerId });
    expect(byTrigger.status).toBe(200);
    const graph = byTrigger.body as TraceGraph;
    const kinds = (kind: TraceNode['kind']) => graph.nodes.filter((n) => n.kind === kind);
    expect(kinds('TRIGGER')).toEqual([
      expect.objectContaining({
        id: `trigger:${triggerId}`,
        label: triggerId,
        status: 'COMPLETED',
        time: expect.any(String),
      }),
    ]);
    expect(
      kinds('PROCESS')
        .map((n) => n.id)
        .sort(),
    ).toEqual([rootId, ...children, successor.id].sort());
    expect(kinds('PROCESS').find((n) => n.id === rootId)).toMatchObject({
      label: 'wordcount',
      status: 'PROCESSED',
      data: { processType: 'wordcount', triggerId },
    });
    // The root, both children and the successor completed: four completion events.
    const completions = kinds('COMPLETION');
    expect(completions).toHaveLength(4);
    const rootCompletion = completions.find((n) => n.data.processId === rootId);
    expect(rootCompletion).toMatchObject({ status: 'PROCESSED', data: { successful: true } });

    expect(edgesOf(graph, 'PROCESS_CREATE')).toEqual([[`trigger:${triggerId}`, rootId]]);
    expect(edgesOf(graph, 'SUBPROCESS').sort()).toEqual(children.map((c) => [rootId, c]).sort());
    expect(edgesOf(graph, 'EMITS')).toHaveLength(4);
    expect(edgesOf(graph, 'EMITS')).toContainEqual([rootId, rootCompletion?.id]);
    expect(edgesOf(graph, 'SUCCESSOR')).toEqual([[rootCompletion?.id, successor.id]]);
    expect(edgesOf(graph, 'LEGACY_SUCCESSOR')).toEqual([]);
    const nodeIds = new Set(graph.nodes.map((n) => n.id));
    for (const e of graph.edges) {
      expect(nodeIds.has(e.source)).toBe(true);
      expect(nodeIds.has(e.target)).toBe(true);
    }

    // From any process of the execution the same connected graph is found.
    const byChild = await request(app).get(`${API}/trace`).set(auth()).query({ processId: children[1] });
    expect(byChild.status).toBe(200);
    expect(new Set((byChild.body as TraceGraph).nodes.map((n) => n.id))).toEqual(nodeIds);
    expect((byChild.body as TraceGraph).edges).toHaveLength(graph.edges.length);
  });

  it('shows a successor without a stored completion event as LEGACY_SUCCESSOR', async () => {
    const first = (await h.manager.createProcess({ processDefName: 'wordcount', args: {} }, { tenant: T1 }))
      .mutatedEntity;
    const { successor } = await runTree(h.manager, getDb().database, first, ['q']);
    await processDb(getDb().database)
      .deleteFrom('fw_process_completion_event')
      .where('process_id', '=', first.id)
      .execute();
    const graph = (await request(app).get(`${API}/trace`).set(auth()).query({ processId: successor.id }))
      .body as TraceGraph;
    expect(edgesOf(graph, 'LEGACY_SUCCESSOR')).toEqual([[first.id, successor.id]]);
    expect(edgesOf(graph, 'SUCCESSOR')).toEqual([]);
    expect(graph.nodes.filter((n) => n.kind === 'TRIGGER')).toEqual([]);
  });

  it('takes exactly one of processId and triggerId (400), 404 for unknown ids', async () => {
    const both = await request(app)
      .get(`${API}/trace`)
      .set(auth())
      .query({ processId: '00000000-0000-4000-8000-000000000000', triggerId: 't' });
    expect(both.status).toBe(400);
    expect(both.body.message).toMatch(/exactly one/);
    expect((await request(app).get(`${API}/trace`).set(auth())).status).toBe(400);
    expect((await request(app).get(`${API}/trace`).set(auth()).query({ triggerId: 'never-used' })).status).toBe(404);
    expect(
      (await request(app).get(`${API}/trace`).set(auth()).query({ processId: '00000000-0000-4000-8000-000000000000' }))
        .status,
    ).toBe(404);
  });

  it('refuses executions above 1,000 processes with 413 { message }', async () => {
    const db = processDb(getDb().database);
    const parent = (
      await h.manager.createProcess({ processDefName: 'wordcount', args: {}, triggerId: 'big' }, { tenant: T1 })
    ).mutatedEntity;
    await sql`insert into fw_process (id, process_type, leaf, parent_id, trigger_id, tenant, flow_id, state_id, created_time, last_modified_time, state_entry_time)
      select gen_random_uuid(), 'chunk', true, ${parent.id}::uuid, 'big', ${T1}, 'process-flow', 'EXECUTING', now(), now(), now() from generate_series(1, 1000)`.execute(
      db,
    );
    for (const query of [{ triggerId: 'big' }, { processId: parent.id }]) {
      const res = await request(app).get(`${API}/trace`).set(auth()).query(query);
      expect(res.status).toBe(413);
      expect(res.body.message).toMatch(/more than 1000 processes or events: page through \/processes/);
    }
    // Exactly at the limit the trace is still answered.
    await sql`delete from fw_process where id in (select id from fw_process where parent_id = ${parent.id}::uuid limit 1)`.execute(
      db,
    );
    const atLimit = await request(app).get(`${API}/trace`).set(auth()).query({ triggerId: 'big' });
    expect(atLimit.status).toBe(200);
    expect((atLimit.body as TraceGraph).nodes.filter((n) => n.kind === 'PROCESS')).toHaveLength(1000);
  });
});
