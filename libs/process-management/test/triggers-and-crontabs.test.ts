import { describeEachDatabase } from '@fw/test-support';
import type { Express } from 'express';
import { request } from './contract';
import {
  API,
  auth,
  expectErrorEnvelope,
  makeAdminHarness,
  seedDefinitions,
  T1,
  T2,
  type AdminHarness,
} from './support';

describeEachDatabase('administration API: triggers and executions', (getDb) => {
  let h: AdminHarness;
  let app: Express;
  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    h = makeAdminHarness(getDb());
    app = h.app;
  });

  it('POST /triggers creates the process through the trigger ingress, idempotent on the key', async () => {
    const body = { triggerId: 'retry-42', payload: { processDefName: 'single', args: { day: 1 } } };
    const first = await request(app).post(`${API}/triggers`).set(auth()).send(body);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      triggerId: `manual:${T1}:retry-42`,
      dispatched: true,
      duplicate: false,
      eventId: expect.any(String),
      logId: expect.any(String),
    });
    const again = await request(app).post(`${API}/triggers`).set(auth()).send(body);
    expect(again.body).toMatchObject({
      triggerId: first.body.triggerId,
      eventId: first.body.eventId,
      logId: first.body.logId,
      dispatched: false,
      duplicate: true,
    });
    const processes = await request(app).get(`${API}/processes`).set(auth()).query({ triggerId: first.body.triggerId });
    expect(processes.body.totalElements).toBe(1);
    expect(processes.body.content[0]).toMatchObject({ processType: 'single', tenant: T1 });
    // The same key in another tenant is another trigger.
    const other = await request(app).post(`${API}/triggers`).set(auth(T2)).send(body);
    expect(other.body).toMatchObject({ triggerId: `manual:${T2}:retry-42`, duplicate: false, dispatched: true });
  });

  it("refuses args that break the definition's inputSchema at once (400 naming the field, nothing stored), and shows the schema in the definition view", async () => {
    // A tenant of its own, so the executions it leaves do not change the other tests' listings.
    const TYPED = 'typed-tenant';
    const inputSchema = { type: 'object', required: ['day'], properties: { day: { type: 'integer', minimum: 1 } } };
    const created = await request(app)
      .post(`${API}/definitions`)
      .set(auth())
      .send({ processType: 'typed', leaf: true, inputSchema });
    expect(created.status).toBe(201);
    expect((await request(app).get(`${API}/definitions/typed`).set(auth())).body).toMatchObject({
      processType: 'typed',
      inputSchema,
    });
    const refused = await request(app)
      .post(`${API}/triggers`)
      .set(auth(TYPED))
      .send({ triggerId: 'typed-bad', payload: { processDefName: 'typed', args: { day: 'monday' } } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      subErrorCode: 'PM400',
      message: "'payload.args.day' must be an integer (input schema of process type 'typed')",
    });
    const cron = await request(app)
      .post(`${API}/crontabs`)
      .set(auth(TYPED))
      .send({
        name: 'typed-cron',
        cronExpression: '0 0 1 * * *',
        timezone: 'UTC',
        enabled: false,
        payload: { processDefName: 'typed', args: {} },
      });
    expect(cron.status).toBe(400);
    expect(cron.body.message).toBe("'payload.args.day' is required (input schema of process type 'typed')");
    expect(
      (
        await request(app)
          .get(`${API}/processes`)
          .set(auth(TYPED))
          .query({ triggerId: `manual:${TYPED}:typed-bad` })
      ).body.totalElements,
    ).toBe(0);
    expect(
      (
        await request(app)
          .get(`${API}/executions`)
          .set(auth(TYPED))
          .query({ triggerId: `manual:${TYPED}:typed-bad` })
      ).body.totalElements,
    ).toBe(0);
    const accepted = await request(app)
      .post(`${API}/triggers`)
      .set(auth(TYPED))
      .send({ triggerId: 'typed-good', payload: { processDefName: 'typed', args: { day: 3 } } });
    expect(accepted.body).toMatchObject({ dispatched: true, duplicate: false });
  });

  it('refuses to trigger or schedule a child-only type as a root (400 naming both types)', async () => {
    const refused = await request(app)
      .post(`${API}/triggers`)
      .set(auth('child-only'))
      .send({ payload: { processDefName: 'chunk', args: {} } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      subErrorCode: 'PM400',
      message: "Process type 'chunk' is created only as a child of 'wordcount', not as a root process",
    });
    const cron = await request(app)
      .post(`${API}/crontabs`)
      .set(auth('child-only'))
      .send({
        name: 'chunks',
        cronExpression: '0 0 1 * * *',
        timezone: 'UTC',
        enabled: false,
        payload: { processDefName: 'chunk', args: {} },
      });
    expect(cron.status).toBe(400);
    expect((await request(app).get(`${API}/executions`).set(auth('child-only'))).body.totalElements).toBe(0);
  });

  it('generates a key when none is given', async () => {
    const res = await request(app)
      .post(`${API}/triggers`)
      .set(auth())
      .send({ payload: { processDefName: 'single', args: {} } });
    expect(res.status).toBe(200);
    expect(res.body.triggerId).toMatch(new RegExp(`^manual:${T1}:[0-9a-f-]{36}$`));
  });

  it('refuses bad trigger bodies with 400 (error envelope)', async () => {
    const cases = [
      { triggerId: 'x'.repeat(81), payload: { processDefName: 'single', args: {} } },
      { triggerId: 5, payload: { processDefName: 'single' } },
      { payload: { args: {} } },
      { payload: { processDefName: 'single', args: [1] } },
      { payload: { processDefName: 'no-such-definition', args: {} } },
      {},
    ];
    for (const body of cases) {
      const res = await request(app).post(`${API}/triggers`).set(auth()).send(body);
      expect(res.status).toBe(400);
      expectErrorEnvelope(res);
    }
    expect(
      (
        await request(app)
          .post(`${API}/triggers`)
          .set(auth())
          .send({ triggerId: 'x'.repeat(80), payload: { processDefName: 'single', args: {} } })
      ).status,
    ).toBe(200);
  });

  it('lists executions of the tenant, newest first, filtered and paginated', async () => {
    const all = await request(app).get(`${API}/executions`).set(auth());
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ totalElements: 3, page: 0, size: 25, totalPages: 1 });
    expect(
      all.body.content.every((e: { tenant: string; source: string }) => e.tenant === T1 && e.source === 'MANUAL'),
    ).toBe(true);
    expect(all.body.content[2].triggerId).toBe(`manual:${T1}:retry-42`);
    const byTrigger = await request(app)
      .get(`${API}/executions`)
      .set(auth())
      .query({ triggerId: `manual:${T1}:retry-42`, status: 'COMPLETED' });
    expect(byTrigger.body.totalElements).toBe(1);
    expect(
      (await request(app).get(`${API}/executions`).set(auth()).query({ status: 'FAILED' })).body.totalElements,
    ).toBe(0);
    expect((await request(app).get(`${API}/executions`).set(auth()).query({ size: 1, page: 1 })).body).toMatchObject({
      totalElements: 3,
      totalPages: 3,
      page: 1,
      size: 1,
    });
    expect((await request(app).get(`${API}/executions`).set(auth()).query({ status: 'DONE' })).status).toBe(400);
    expect((await request(app).get(`${API}/executions`).set(auth()).query({ size: 500 })).status).toBe(400);
    // Another tenant sees only its own.
    const t2 = await request(app)
      .get(`${API}/executions`)
      .set(auth(T2))
      .query({ triggerId: `manual:${T1}:retry-42` });
    expect(t2.body.totalElements).toBe(0);
  });
});

describeEachDatabase('administration API: crontabs', (getDb) => {
  let h: AdminHarness;
  let app: Express;
  const cron = {
    name: 'nightly',
    cronExpression: '0 0 2 * * *',
    timezone: 'Europe/Berlin',
    enabled: true,
    payload: { processDefName: 'single', args: { mode: 'full' } },
  };
  let id: string;

  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    h = makeAdminHarness(getDb());
    app = h.app;
  });

  it('adds a crontab (201) and reloads the scheduler', async () => {
    const res = await request(app).post(`${API}/crontabs`).set(auth()).send(cron);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ...cron, tenant: T1, id: expect.any(String) });
    id = res.body.id;
    expect(h.reloads.count).toBe(1);
    const list = await request(app).get(`${API}/crontabs`).set(auth());
    expect(list.body).toMatchObject({ totalElements: 1, page: 0, size: 25, totalPages: 1 });
    expect(list.body.content[0].id).toBe(id);
    expect((await request(app).get(`${API}/crontabs/${id}`).set(auth())).body.name).toBe('nightly');
  });

  it('refuses a duplicate name with 409 and bad expressions or zones with 400', async () => {
    const dup = await request(app).post(`${API}/crontabs`).set(auth()).send(cron);
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({
      subErrorCode: 'T003',
      legacyCode: 'T409',
      message: expect.stringMatching(/nightly/),
    });
    for (const bad of [
      { ...cron, name: 'a', cronExpression: '0 2 * * *' },
      { ...cron, name: 'b', cronExpression: '99 * * * * *' },
      { ...cron, name: 'c', timezone: 'Mars/Olympus' },
      { ...cron, name: 'd', payload: { processDefName: 'no-such-definition' } },
      { ...cron, name: 'e', enabled: 'yes' },
      { ...cron, name: '' },
    ]) {
      const res = await request(app).post(`${API}/crontabs`).set(auth()).send(bad);
      expect(res.status).toBe(400);
      expectErrorEnvelope(res);
    }
    // The same name in another tenant is fine.
    expect((await request(app).post(`${API}/crontabs`).set(auth(T2)).send(cron)).status).toBe(201);
    expect(h.reloads.count).toBe(2);
  });

  it('edits, disables and enables with PUT, reloading each time', async () => {
    const before = h.reloads.count;
    const edited = await request(app)
      .put(`${API}/crontabs/${id}`)
      .set(auth())
      .send({ cronExpression: '*/30 * * * * *', timezone: 'UTC' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      id,
      cronExpression: '*/30 * * * * *',
      timezone: 'UTC',
      enabled: true,
      name: 'nightly',
    });
    const disabled = await request(app).put(`${API}/crontabs/${id}`).set(auth()).send({ enabled: false });
    expect(disabled.body.enabled).toBe(false);
    const enabled = await request(app).put(`${API}/crontabs/${id}`).set(auth()).send({ enabled: true });
    expect(enabled.body.enabled).toBe(true);
    expect(h.reloads.count).toBe(before + 3);
    expect((await request(app).put(`${API}/crontabs/${id}`).set(auth()).send({})).status).toBe(400);
    expect((await request(app).put(`${API}/crontabs/${id}`).set(auth()).send({ cronExpression: 'nope' })).status).toBe(
      400,
    );
  });

  it('cannot read or change another tenant crontab (404), nor a missing one', async () => {
    const read = await request(app).get(`${API}/crontabs/${id}`).set(auth(T2));
    expect(read.status).toBe(404);
    const change = await request(app).put(`${API}/crontabs/${id}`).set(auth(T2)).send({ enabled: false });
    expect(change.status).toBe(404);
    expectErrorEnvelope(change);
    expect((await request(app).get(`${API}/crontabs/${id}`).set(auth())).body.enabled).toBe(true);
    expect(
      (
        await request(app)
          .put(`${API}/crontabs/00000000-0000-4000-8000-000000000000`)
          .set(auth())
          .send({ enabled: false })
      ).status,
    ).toBe(404);
    expect((await request(app).put(`${API}/crontabs/not-an-id`).set(auth()).send({ enabled: false })).status).toBe(404);
    const t2 = await request(app).get(`${API}/crontabs`).set(auth(T2));
    expect(t2.body.totalElements).toBe(1);
    expect(t2.body.content[0].id).not.toBe(id);
  });
});

describeEachDatabase('administration API: cron without a scheduler', (getDb) => {
  let app: Express;
  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    app = makeAdminHarness(getDb(), { withScheduler: false }).app;
  });

  it('answers 503 to cron writes, lists still work, /info says cronAvailable false', async () => {
    expect((await request(app).get(`${API}/info`).set(auth())).body.cronAvailable).toBe(false);
    const add = await request(app)
      .post(`${API}/crontabs`)
      .set(auth())
      .send({
        name: 'n',
        cronExpression: '* * * * * *',
        timezone: 'UTC',
        enabled: true,
        payload: { processDefName: 'single', args: {} },
      });
    expect(add.status).toBe(503);
    expect(add.body.message).toMatch(/scheduler is not configured/);
    expect(
      (
        await request(app)
          .put(`${API}/crontabs/00000000-0000-4000-8000-000000000000`)
          .set(auth())
          .send({ enabled: false })
      ).status,
    ).toBe(503);
    expect((await request(app).get(`${API}/crontabs`).set(auth())).status).toBe(200);
  });
});
