import { describeEachDatabase } from '@fw/test-support';
import type { Express } from 'express';
import { request } from './contract';
import { findPredecessorCycle } from '../src';
import { API, auth, expectErrorEnvelope, makeAdminHarness, seedDefinitions, T2 } from './support';

describe('predecessor cycles', () => {
  it('finds the chain a new definition would close', () => {
    const existing = new Map<string, string | null>([
      ['a', null],
      ['b', 'a'],
      ['c', 'b'],
    ]);
    expect(findPredecessorCycle({ processType: 'a', leaf: true, predecessorProcessType: 'c' }, existing)).toEqual([
      'a',
      'c',
      'b',
      'a',
    ]);
    expect(findPredecessorCycle({ processType: 'x', leaf: true, predecessorProcessType: 'x' }, existing)).toEqual([
      'x',
      'x',
    ]);
    expect(
      findPredecessorCycle({ processType: 'd', leaf: true, predecessorProcessType: 'c' }, existing),
    ).toBeUndefined();
    expect(
      findPredecessorCycle({ processType: 'e', leaf: true, predecessorProcessType: 'unknown' }, existing),
    ).toBeUndefined();
  });
});

describeEachDatabase('administration API: definitions (database source)', (getDb) => {
  let app: Express;
  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    app = makeAdminHarness(getDb()).app;
  });

  it('lists definitions (global, paginated, by processType)', async () => {
    const res = await request(app).get(`${API}/definitions`).set(auth()).query({ size: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalElements: 4, page: 0, size: 2, totalPages: 2 });
    expect(res.body.content.map((d: { processType: string }) => d.processType)).toEqual(['chunk', 'report']);
    const other = await request(app).get(`${API}/definitions`).set(auth(T2)).query({ page: 1, size: 2 });
    expect(other.body.content.map((d: { processType: string }) => d.processType)).toEqual(['single', 'wordcount']);
    expect((await request(app).get(`${API}/definitions/report`).set(auth())).body).toMatchObject({
      processType: 'report',
      predecessorProcessType: 'wordcount',
      predecessorArgs: 'OUTPUT',
    });
    expect((await request(app).get(`${API}/definitions/nope`).set(auth())).status).toBe(404);
  });

  it('adds a definition, refuses duplicates (409) and invalid bodies (400), and serves it at once', async () => {
    const def = {
      processType: 'audit',
      leaf: true,
      predecessorProcessType: 'report',
      predecessorArgs: 'INPUT',
      config: { level: 'full' },
    };
    const created = await request(app).post(`${API}/definitions`).set(auth()).send(def);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject(def);
    // The cache of this instance was invalidated: the new definition is visible immediately.
    expect((await request(app).get(`${API}/definitions/audit`).set(auth())).status).toBe(200);
    const dup = await request(app).post(`${API}/definitions`).set(auth()).send(def);
    expect(dup.status).toBe(409);
    expect(dup.body.message).toMatch(/already exists/);
    const bad = await request(app).post(`${API}/definitions`).set(auth()).send({ processType: 'x', leaf: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/'leaf' must be true or false/);
    const badArgs = await request(app)
      .post(`${API}/definitions`)
      .set(auth())
      .send({ processType: 'y', leaf: true, predecessorArgs: 'SOME' });
    expect(badArgs.status).toBe(400);
  });

  it('refuses predecessor cycles with 400, on POST and PUT', async () => {
    const self = await request(app)
      .post(`${API}/definitions`)
      .set(auth())
      .send({ processType: 'loop', leaf: true, predecessorProcessType: 'loop' });
    expect(self.status).toBe(400);
    expect(self.body.message).toMatch(/cycle: loop → loop/);
    // wordcount ← report ← audit: making wordcount follow audit closes a cycle.
    const put = await request(app)
      .put(`${API}/definitions/wordcount`)
      .set(auth())
      .send({ leaf: false, predecessorProcessType: 'audit' });
    expect(put.status).toBe(400);
    expect(put.body.message).toMatch(/wordcount → audit → report → wordcount/);
    expect((await request(app).get(`${API}/definitions/wordcount`).set(auth())).body.predecessorProcessType).toBeNull();
  });

  it('edits a definition (PUT), 404 for an unknown one, 400 for a name mismatch', async () => {
    const res = await request(app)
      .put(`${API}/definitions/single`)
      .set(auth())
      .send({ leaf: true, config: { retries: '3' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ processType: 'single', leaf: true, config: { retries: '3' } });
    expect((await request(app).get(`${API}/definitions/single`).set(auth())).body.config).toEqual({ retries: '3' });
    expect((await request(app).put(`${API}/definitions/missing`).set(auth()).send({ leaf: true })).status).toBe(404);
    const mismatch = await request(app)
      .put(`${API}/definitions/single`)
      .set(auth())
      .send({ processType: 'other', leaf: true });
    expect(mismatch.status).toBe(400);
  });

  it('DELETE /definitions/{name}: 409 naming what still uses it, 204 once nothing does, 404 after', async () => {
    const h = makeAdminHarness(getDb());
    const app = h.app;
    const a = auth('deleting');
    expect(
      (await request(app).post(`${API}/definitions`).set(a).send({ processType: 'disposable', leaf: true })).status,
    ).toBe(201);
    expect(
      (
        await request(app)
          .post(`${API}/definitions`)
          .set(a)
          .send({ processType: 'disposable-next', leaf: true, predecessorProcessType: 'disposable' })
      ).status,
    ).toBe(201);
    const cron = await request(app)
      .post(`${API}/crontabs`)
      .set(a)
      .send({
        name: 'disposable-cron',
        cronExpression: '0 0 1 * * *',
        timezone: 'UTC',
        enabled: false,
        payload: { processDefName: 'disposable', args: {} },
      });
    expect(cron.status).toBe(201);
    const started = await request(app)
      .post(`${API}/triggers`)
      .set(a)
      .send({ payload: { processDefName: 'disposable', args: {} } });
    expect(started.body.dispatched).toBe(true);
    const inUse = await request(app).delete(`${API}/definitions/disposable`).set(a);
    expect(inUse.status).toBe(409);
    expect(inUse.body.message).toBe(
      "Definition 'disposable' is still used by 1 crontab(s), definition(s) disposable-next (as parent or predecessor), 1 unfinished process(es): remove or finish those first",
    );
    // Remove the uses: the successor definition, the crontab, and finish the process.
    expect((await request(app).delete(`${API}/definitions/disposable-next`).set(a)).status).toBe(204);
    expect((await request(app).delete(`${API}/crontabs/${cron.body.id}`).set(a)).status).toBe(204);
    expect((await request(app).delete(`${API}/crontabs/${cron.body.id}`).set(a)).status).toBe(404);
    const processes = await request(app).get(`${API}/processes`).set(a).query({ processType: 'disposable' });
    await h.manager.sendEvent(
      processes.body.content[0].id,
      'doneSuccessfully',
      { output: null },
      { tenant: 'deleting' },
    );
    const gone = await request(app).delete(`${API}/definitions/disposable`).set(a);
    expect(gone.status).toBe(204);
    expect((await request(app).get(`${API}/definitions/disposable`).set(a)).status).toBe(404);
    expect((await request(app).delete(`${API}/definitions/disposable`).set(a)).status).toBe(404);
  });

  it('POST /definitions/refresh reloads rows changed by another instance', async () => {
    await getDb().database.withSession((s) =>
      s.query(
        `insert into process_definition (process_type, definition) values ('external', '{"processType":"external","leaf":true}')`,
      ),
    );
    expect((await request(app).get(`${API}/definitions/external`).set(auth())).status).toBe(404);
    const refresh = await request(app).post(`${API}/definitions/refresh`).set(auth());
    expect(refresh.status).toBe(200);
    expect(refresh.body).toEqual({ refreshed: true, definitions: 6 });
    expect((await request(app).get(`${API}/definitions/external`).set(auth())).status).toBe(200);
  });

  it('lets only one of two concurrent writes that would close a cycle together succeed', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = [`race-a-${round}`, `race-b-${round}`];
      const results = await Promise.all([
        request(app)
          .post(`${API}/definitions`)
          .set(auth())
          .send({ processType: a, leaf: true, predecessorProcessType: b }),
        request(app)
          .post(`${API}/definitions`)
          .set(auth())
          .send({ processType: b, leaf: true, predecessorProcessType: a }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 400]);
      expect(results.find((r) => r.status === 400)?.body.message).toMatch(/predecessor cycle/);
    }
  });
});

describeEachDatabase('administration API: definitions (JSON source)', (getDb) => {
  let app: Express;
  beforeAll(() => {
    app = makeAdminHarness(getDb(), { source: 'json', withCron: false }).app;
  });

  it('reads definitions and answers 409 (error envelope) to writes', async () => {
    expect((await request(app).get(`${API}/info`).set(auth())).body).toEqual({
      definitionSource: 'json',
      definitionsWritable: false,
      cronAvailable: false,
      supportedEvents: ['ProcessCreate'],
    });
    expect((await request(app).get(`${API}/definitions`).set(auth())).body.totalElements).toBe(4);
    const post = await request(app).post(`${API}/definitions`).set(auth()).send({ processType: 'new', leaf: true });
    expect(post.status).toBe(409);
    expect(post.body.message).toMatch(/JSON source/);
    const put = await request(app).put(`${API}/definitions/single`).set(auth()).send({ leaf: true });
    expect(put.status).toBe(409);
    expect((await request(app).post(`${API}/definitions/refresh`).set(auth())).status).toBe(200);
  });

  it('answers 503 to crontab calls without cron', async () => {
    const list = await request(app).get(`${API}/crontabs`).set(auth());
    expect(list.status).toBe(503);
    expectErrorEnvelope(list);
    const add = await request(app)
      .post(`${API}/crontabs`)
      .set(auth())
      .send({ name: 'n', cronExpression: '* * * * * *', payload: { processDefName: 'single' } });
    expect(add.status).toBe(503);
  });
});
