import type { Process } from '@fw/process-api';
import { describeEachDatabase } from '@fw/test-support';
import type { Express } from 'express';
import { request } from './contract';
import {
  API,
  auth,
  expectErrorEnvelope,
  makeAdminHarness,
  runTree,
  seedDefinitions,
  T1,
  T2,
  type AdminHarness,
} from './support';

describeEachDatabase('administration API: processes', (getDb) => {
  let h: AdminHarness;
  let app: Express;
  let root: Process;
  let children: string[];
  let successor: Process;
  let singles: Process[];

  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    h = makeAdminHarness(getDb());
    app = h.app;
    root = (
      await h.manager.createProcess(
        { processDefName: 'wordcount', args: { text: 'a b c' }, triggerId: 'tr-1' },
        { tenant: T1 },
      )
    ).mutatedEntity;
    ({ children, successor } = await runTree(h.manager, getDb().database, root, ['a b', 'c']));
    singles = [];
    for (let i = 0; i < 3; i++)
      singles.push(
        (await h.manager.createProcess({ processDefName: 'single', args: { i } }, { tenant: T1 })).mutatedEntity,
      );
    await h.manager.createProcess({ processDefName: 'single', args: { other: true } }, { tenant: T2 });
  });

  it('lists the tenant processes newest first with the page shape', async () => {
    const res = await request(app).get(`${API}/processes`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalElements: 7, page: 0, size: 25, totalPages: 1 });
    const ids = res.body.content.map((p: { id: string }) => p.id);
    expect(ids.slice(0, 3)).toEqual([singles[2].id, singles[1].id, singles[0].id]);
    expect(ids[ids.length - 1]).toBe(root.id);
    const times = res.body.content.map((p: { createdTime: string }) => p.createdTime);
    expect([...times].sort().reverse()).toEqual(times);
    expect(res.body.content[0]).toMatchObject({ processType: 'single', status: 'EXECUTING', tenant: T1, leaf: true });
    expect(res.body.content[0].input).toBeUndefined();

    const page = await request(app).get(`${API}/processes`).set(auth()).query({ page: 1, size: 3 });
    expect(page.body).toMatchObject({ totalElements: 7, page: 1, size: 3, totalPages: 3 });
    expect(page.body.content).toHaveLength(3);
    expect(page.body.content[0].id).toBe(ids[3]);
    const beyond = await request(app).get(`${API}/processes`).set(auth()).query({ page: 9, size: 3 });
    expect(beyond.body).toMatchObject({ content: [], totalElements: 7, page: 9 });
  });

  it('refuses bad page and size with 400 (error envelope)', async () => {
    for (const query of [{ size: 0 }, { size: 101 }, { page: -1 }, { page: 'first' }]) {
      const res = await request(app).get(`${API}/processes`).set(auth()).query(query);
      expect(res.status).toBe(400);
      expectErrorEnvelope(res);
    }
  });

  it('filters by exact matches, ANDed', async () => {
    const get = async (query: Record<string, string>) =>
      (await request(app).get(`${API}/processes`).set(auth()).query(query)).body.content.map(
        (p: { id: string }) => p.id,
      );
    expect((await get({ parentId: root.id })).sort()).toEqual([...children].sort());
    expect(await get({ predecessorId: root.id })).toEqual([successor.id]);
    expect(await get({ processType: 'wordcount' })).toEqual([root.id]);
    expect(await get({ processType: 'single', status: 'EXECUTING' })).toHaveLength(3);
    expect(await get({ processType: 'single', status: 'PROCESSED' })).toEqual([]);
    expect((await get({ triggerId: 'tr-1' })).sort()).toEqual([root.id, ...children, successor.id].sort());
    expect(await get({ triggerId: 'tr-1', processType: 'report' })).toEqual([successor.id]);
    expect((await request(app).get(`${API}/processes`).set(auth()).query({ parentId: 'not-a-uuid' })).status).toBe(400);
  });

  it('shows one process with input, output, errors, status and completion events', async () => {
    const res = await request(app).get(`${API}/processes/${root.id}`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: root.id,
      status: 'PROCESSED',
      input: { text: 'a b c' },
      output: { words: 3 },
      errors: [],
      triggerId: 'tr-1',
    });
    expect(res.body.completionEvents).toHaveLength(1);
    expect(res.body.completionEvents[0]).toMatchObject({
      processId: root.id,
      state: 'PROCESSED',
      successful: true,
      triggerId: 'tr-1',
    });
    const failing = singles[0];
    await h.manager.sendEvent(
      failing.id,
      'doneWithErrors',
      { errors: ['disk full'], exceptionMessage: 'IOException' },
      { tenant: T1 },
    );
    const failed = await request(app).get(`${API}/processes/${failing.id}`).set(auth());
    expect(failed.body.status).toBe('PROCESSED_WITH_ERRORS');
    expect(failed.body.errors).toEqual([
      expect.objectContaining({ processId: failing.id, errors: ['disk full'], exceptionMessage: 'IOException' }),
    ]);
    expect(failed.body.completionEvents[0]).toMatchObject({ successful: false, state: 'PROCESSED_WITH_ERRORS' });
  });

  it('hides other tenants: 404 (error envelope) for their process, absent from lists', async () => {
    const foreign = await request(app).get(`${API}/processes/${root.id}`).set(auth(T2));
    expect(foreign.status).toBe(404);
    expectErrorEnvelope(foreign);
    expect((await request(app).get(`${API}/processes/not-a-uuid`).set(auth())).status).toBe(404);
    expect((await request(app).get(`${API}/processes/00000000-0000-4000-8000-000000000000`).set(auth())).status).toBe(
      404,
    );
    const t2 = await request(app).get(`${API}/processes`).set(auth(T2));
    expect(t2.body.totalElements).toBe(1);
    expect(t2.body.content[0].tenant).toBe(T2);
    expect(
      (await request(app).get(`${API}/processes`).set(auth(T2)).query({ triggerId: 'tr-1' })).body.totalElements,
    ).toBe(0);
    expect((await request(app).get(`${API}/trace`).set(auth(T2)).query({ processId: root.id })).status).toBe(404);
    expect((await request(app).get(`${API}/trace`).set(auth(T2)).query({ triggerId: 'tr-1' })).status).toBe(404);
  });
});
