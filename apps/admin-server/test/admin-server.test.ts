import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import rawRequest from 'supertest';
import type { AdminServer } from '../src';
import { checkedAgainst, type CheckedAgent } from './contract';
import { API, eventually, headers, startServer } from './support';

interface ExecutionRow {
  triggerId: string;
  source: string;
  status: string;
  cronId: string | null;
  processId: string | null;
}

describeEachDatabase('admin server (in process)', (getDb) => {
  let a: AdminServer;
  let urlA: string;
  let b: AdminServer | undefined;

  /** supertest, every answer checked against the server's own /openapi.json. */
  let request: (target: string) => CheckedAgent;

  beforeAll(async () => {
    ({ server: a, url: urlA } = await startServer(getDb(), 'owner-a'));
    request = await checkedAgainst(urlA);
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  }, 60_000);

  it('protects every route with the key: /process answers a 401 envelope, the admin API 401 { message }', async () => {
    const process = await request(urlA)
      .post('/process')
      .send({ processDefName: 'word-count', args: { text: 'a' } });
    expect(process.status).toBe(401);
    expect(process.body).toMatchObject({ success: false, code: 401, subErrorCode: 'PM401' });
    expect(
      (
        await request(urlA)
          .get('/process/00000000-0000-4000-8000-000000000000')
          .set('X-Process-Management-Key', 'wrong')
      ).status,
    ).toBe(401);
    // Paths in no document (the dashboard, unknown ones): checked by hand.
    expect((await rawRequest(urlA).get('/anything')).status).toBe(401);
    // The process dashboard's page (no data; it asks for the key) in every profile; other paths stay behind the key.
    const page = await rawRequest(urlA).get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect((await rawRequest(urlA).get('/anything').set('Accept', 'application/json')).status).toBe(401);
    const api = await request(urlA).get(`${API}/info`).set('x-fw-tenant-id', 'demo');
    expect(api.status).toBe(401);
    // The same error envelope as every other route of the host; its message says why.
    expect(api.body).toMatchObject({ success: false, code: 401, subErrorCode: 'PM401', message: expect.any(String) });
    expect((await rawRequest(urlA).get('/anything').set('Accept', 'application/json')).body).toMatchObject({
      code: 401,
      subErrorCode: 'PM401',
      message: expect.any(String),
    });
    const info = await request(urlA).get(`${API}/info`).set(headers());
    expect(info.body).toEqual({
      definitionSource: 'database',
      definitionsWritable: true,
      cronAvailable: true,
      supportedEvents: ['ProcessCreate'],
    });
    expect(info.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('the example report refuses a bad input as a payload failure, not a TypeError', async () => {
    const created = await request(urlA)
      .post('/process')
      .set(headers())
      .send({ processDefName: 'word-count-report', args: null });
    const id = created.body.payload.mutatedEntity.id as string;
    const failed = await eventually(
      async () => {
        const res = await request(urlA).get(`/process/${id}`).set(headers());
        return res.body.payload.mutatedEntity.state.stateId === 'PROCESSED_WITH_ERRORS'
          ? res.body.payload.mutatedEntity
          : undefined;
      },
      30_000,
      'the report to fail',
    );
    expect(failed.errors[0].errors).toEqual(["MALFORMED_PAYLOAD: 'input' must be a JSON object, got null"]);
  });

  it('runs a process through /process with the key (envelope), delivered by the outbox and JDBC work items', async () => {
    const created = await request(urlA)
      .post('/process')
      .set(headers())
      .send({ processDefName: 'word-count', args: { text: 'one two two three three three' } });
    expect(created.status).toBe(200);
    expect(created.body.success).toBe(true);
    const id = created.body.payload.mutatedEntity.id as string;
    const done = await eventually(
      async () => {
        const res = await request(urlA).get(`/process/${id}`).set(headers());
        return res.body.payload.mutatedEntity.state.stateId === 'PROCESSED'
          ? res.body.payload.mutatedEntity
          : undefined;
      },
      30_000,
      'the word count to finish',
    );
    expect(done.output).toMatchObject({ totalWords: 6, distinctWords: 3 });
    const report = await eventually(
      async () => {
        const page = await request(urlA)
          .get(`${API}/processes`)
          .set(headers())
          .query({ predecessorId: id, status: 'PROCESSED' });
        return page.body.content[0] as { id: string } | undefined;
      },
      30_000,
      'the report',
    );
    const detail = await request(urlA).get(`${API}/processes/${report.id}`).set(headers());
    expect(detail.body.output.topWords[0]).toEqual({ word: 'three', count: 3 });
  });

  it('fires a fast crontab through the API and stops when it is disabled', async () => {
    const created = await request(urlA)
      .post(`${API}/crontabs`)
      .set(headers())
      .send({
        name: 'every-second',
        cronExpression: '* * * * * *',
        timezone: 'UTC',
        enabled: true,
        payload: { processDefName: 'word-count', args: { text: 'tick tock' } },
      });
    expect(created.status).toBe(201);
    const cronId = created.body.id as string;
    const fired = await eventually(
      async () => {
        const page = await request(urlA).get(`${API}/executions`).set(headers()).query({ crontabId: cronId });
        // A firing is RUNNING until its trigger has started the process: wait for two completed ones
        // (the newest may still be running when the page is read on a loaded machine).
        const rows = (page.body.content ?? []) as ExecutionRow[];
        return rows.filter((e) => e.status === 'COMPLETED').length >= 2 ? rows : undefined;
      },
      20_000,
      'two completed cron firings',
    );
    for (const execution of fired) expect(execution).toMatchObject({ source: 'CRON', cronId });
    fired.sort((a, b) => (a.status === 'COMPLETED' ? 0 : 1) - (b.status === 'COMPLETED' ? 0 : 1));
    expect(fired[0]).toMatchObject({ source: 'CRON', status: 'COMPLETED', cronId });
    expect(fired[0].triggerId).toMatch(new RegExp(`^cron:${cronId}:`));
    expect(new Set(fired.map((e) => e.triggerId)).size).toBe(fired.length);
    const processes = await request(urlA)
      .get(`${API}/processes`)
      .set(headers())
      .query({ triggerId: fired[0].triggerId, processType: 'word-count' });
    expect(processes.body.totalElements).toBe(1);

    const disabled = await request(urlA).put(`${API}/crontabs/${cronId}`).set(headers()).send({ enabled: false });
    expect(disabled.status).toBe(200);
    expect(disabled.body.enabled).toBe(false);
    const count = async () =>
      (await request(urlA).get(`${API}/executions`).set(headers()).query({ crontabId: cronId })).body
        .totalElements as number;
    const afterDisable = await count();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await count()).toBe(afterDisable);
    // Another tenant cannot re-enable it.
    expect(
      (await request(urlA).put(`${API}/crontabs/${cronId}`).set(headers('other')).send({ enabled: true })).status,
    ).toBe(404);
  }, 60_000);

  it('elects one scheduler owner when two servers share the database; only it fires', async () => {
    let urlB: string;
    ({ server: b, url: urlB } = await startServer(getDb(), 'owner-b'));
    const servers = [a, b];
    expect(servers.filter((s) => s.scheduler.isOwner())).toHaveLength(1);
    const owner = servers.find((s) => s.scheduler.isOwner()) as AdminServer;
    const lease = await sql<{
      owner_id: string;
    }>`select owner_id from fw_scheduler_lease where name = 'cron-scheduler'`.execute(getDb().database.db);
    expect(lease.rows.map((r) => r.owner_id)).toEqual([owner.scheduler.ownerId]);

    // A crontab added through the non-owner is fired by the owner (it re-reads crontabs on renewal).
    const nonOwnerUrl = owner === a ? urlB : urlA;
    const created = await request(nonOwnerUrl)
      .post(`${API}/crontabs`)
      .set(headers('shared'))
      .send({
        name: 'shared',
        cronExpression: '* * * * * *',
        timezone: 'Europe/Berlin',
        enabled: true,
        payload: { processDefName: 'word-count', args: { text: 'x' } },
      });
    expect(created.status).toBe(201);
    const cronId = created.body.id as string;
    const fired = await eventually(
      async () => {
        const page = await request(urlA).get(`${API}/executions`).set(headers('shared')).query({ crontabId: cronId });
        return page.body.totalElements >= 3 ? (page.body.content as ExecutionRow[]) : undefined;
      },
      20_000,
      'three firings',
    );
    // One execution per scheduled second: no instance fired a second time (duplicates would add none, but
    // the owner is the only one holding the lease throughout).
    expect(new Set(fired.map((e) => e.triggerId)).size).toBe(fired.length);
    expect(servers.filter((s) => s.scheduler.isOwner())).toEqual([owner]);
    await request(urlA).put(`${API}/crontabs/${cronId}`).set(headers('shared')).send({ enabled: false });
  }, 60_000);
});
