/**
 * Filters the process dashboard needs: roots only and free text on GET /processes, source and
 * process type on GET /executions.
 */
import type { Process } from '@fw/process-api';
import { describeEachDatabase } from '@fw/test-support';
import type { Express } from 'express';
import { request } from './contract';
import { API, auth, makeAdminHarness, runTree, seedDefinitions, T1 } from './support';

describeEachDatabase('administration API: dashboard filters', (getDb) => {
  let app: Express;
  let root: Process;
  let successor: Process;
  let single: Process;

  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    const h = makeAdminHarness(getDb());
    app = h.app;
    root = (
      await h.manager.createProcess(
        { processDefName: 'wordcount', args: { text: 'a b c' }, triggerId: 'nightly-run_1' },
        { tenant: T1 },
      )
    ).mutatedEntity;
    ({ successor } = await runTree(h.manager, getDb().database, root, ['a b', 'c']));
    single = (
      await h.manager.createProcess(
        { processDefName: 'single', args: {}, description: 'Audit of 100% done' },
        { tenant: T1 },
      )
    ).mutatedEntity;
    await request(app)
      .post(`${API}/triggers`)
      .set(auth())
      .send({ triggerId: 'm-1', payload: { processDefName: 'single', args: {} } });
    await request(app)
      .post(`${API}/triggers`)
      .set(auth())
      .send({ triggerId: 'm-2', payload: { processDefName: 'wordcount', args: { text: 'x' } } });
  });

  const ids = async (query: Record<string, string>): Promise<string[]> => {
    const res = await request(app).get(`${API}/processes`).set(auth()).query(query);
    expect(res.status).toBe(200);
    return res.body.content.map((p: { id: string }) => p.id);
  };

  it('lists only roots with roots=true (successors are roots too)', async () => {
    const roots = await ids({ roots: 'true', size: '100' });
    expect(roots).toEqual(expect.arrayContaining([root.id, successor.id, single.id]));
    const all = (await request(app).get(`${API}/processes`).set(auth()).query({ roots: 'true', size: '100' })).body
      .content as Array<{ parentId: string | null }>;
    expect(all.every((p) => p.parentId === null)).toBe(true);
    expect((await ids({ roots: 'false', size: '100' })).length).toBeGreaterThan(roots.length);
    expect((await request(app).get(`${API}/processes`).set(auth()).query({ roots: 'yes' })).status).toBe(400);
  });

  it('matches free text on the id, type, description and trigger id, escaping % and _', async () => {
    expect(await ids({ q: root.id.toUpperCase() })).toEqual([root.id]);
    // Children and the successor carry the root's trigger id.
    expect(await ids({ q: 'NIGHTLY-run', processType: 'wordcount' })).toEqual([root.id]);
    expect(await ids({ q: 'run_1', roots: 'true', processType: 'wordcount' })).toEqual([root.id]);
    expect((await ids({ q: 'nightly' })).length).toBeGreaterThan(1);
    expect(await ids({ q: '100%' })).toEqual([single.id]);
    expect(await ids({ q: 'n_ghtly' })).toEqual([]);
    expect((await ids({ q: 'repo' })).sort()).toEqual([successor.id]);
  });

  it('filters executions by source and process type', async () => {
    const list = async (query: Record<string, string>) =>
      (await request(app).get(`${API}/executions`).set(auth()).query(query)).body.content.map(
        (e: { triggerId: string }) => e.triggerId,
      );
    expect((await list({ source: 'MANUAL' })).sort()).toEqual([`manual:${T1}:m-1`, `manual:${T1}:m-2`]);
    expect(await list({ source: 'CRON' })).toEqual([]);
    expect(await list({ processType: 'wordcount' })).toEqual([`manual:${T1}:m-2`]);
    expect(await list({ processType: 'single', source: 'MANUAL' })).toEqual([`manual:${T1}:m-1`]);
    expect((await request(app).get(`${API}/executions`).set(auth()).query({ source: 'cron' })).status).toBe(400);
  });
});
