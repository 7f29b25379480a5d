/**
 * Every change and its audit row commit together, on the database itself (no stand-ins):
 *
 * - when the row cannot be stored (a trigger on `fw_admin_audit` refuses it), the change is rolled
 *   back and the request is recorded as failed, in a transaction of its own;
 * - when the change's transaction fails at its commit, after the row was inserted (a deferred
 *   constraint trigger on the changed table), no `ok` row is left, only the `failed` one;
 * - a change that goes through leaves exactly one row, `ok`.
 *
 * For each write of the API: POST /triggers, POST/PUT/DELETE /crontabs, POST/PUT/DELETE
 * /definitions and DELETE /processes/{id}.
 */
import type { Database } from '@fw/core';
import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import rawRequest from 'supertest';
import { API, auth, makeAdminHarness, seedDefinitions, T1, type AdminHarness } from '../support';

type Sent = { status: number; body: Record<string, unknown> };

describeEachDatabase('audit row in the transaction of the change', (getDb) => {
  let h: AdminHarness;
  let database: Database;
  let n = 0;
  const db = () => database.db;

  beforeAll(async () => {
    database = getDb().database;
    await seedDefinitions(database);
    h = makeAdminHarness(getDb());
    await sql`create function fw_test_refuse_ok_audit() returns trigger language plpgsql as $$
      begin if new.outcome = 'ok' then raise exception 'audit refused'; end if; return new; end $$`.execute(db());
    await sql`create function fw_test_fail_at_commit() returns trigger language plpgsql as $$
      begin raise exception 'commit refused'; end $$`.execute(db());
  });

  /** Sends a change with a request id of its own; answers the response and that id. */
  async function send(
    method: 'post' | 'put' | 'delete',
    path: string,
    body?: object,
  ): Promise<{ res: Sent; requestId: string }> {
    n += 1;
    const requestId = `audit-tx-${n}`;
    const agent = rawRequest(h.app);
    const call = agent[method](`${API}${path}`).set({ ...auth(), 'X-Request-Id': requestId });
    const res = body === undefined ? await call : await call.send(body);
    return { res: { status: res.status, body: res.body as Record<string, unknown> }, requestId };
  }

  /** The audit rows of one request: `action outcome`. */
  async function rowsOf(requestId: string): Promise<string[]> {
    const rows = await sql<{ action: string; outcome: string }>`
      select action, outcome from fw_admin_audit where request_id = ${requestId} order by seq`.execute(db());
    return rows.rows.map((r) => `${r.action} ${r.outcome}`);
  }

  async function count(query: ReturnType<typeof sql<{ n: string }>>): Promise<number> {
    return Number((await query.execute(db())).rows[0].n);
  }

  const crontabNamed = (name: string) =>
    count(sql<{ n: string }>`select count(*) as n from fw_crontab where tenant = ${T1} and name = ${name}`);
  const triggerLogged = (key: string) =>
    count(sql<{ n: string }>`select count(*) as n from fw_trigger_log where trigger_id = ${`manual:${T1}:${key}`}`);
  const definitionNamed = (name: string) =>
    count(sql<{ n: string }>`select count(*) as n from process_definition where process_type = ${name}`);
  const processCount = (id: string) =>
    count(sql<{ n: string }>`select count(*) as n from fw_process where id = ${id}::uuid`);

  /** A finished root process of T1 (a `single` leaf, done). */
  async function finishedRoot(): Promise<string> {
    const root = (await h.manager.createProcess({ processDefName: 'single', args: {} }, { tenant: T1 })).mutatedEntity;
    await h.manager.sendEvent(root.id, 'doneSuccessfully', { output: { ok: true } }, { tenant: T1 });
    return root.id;
  }

  async function addCrontab(name: string): Promise<string> {
    const { res } = await send('post', '/crontabs', {
      name,
      cronExpression: '0 0 3 * * *',
      payload: { processDefName: 'single' },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  /** The 500 a change answers when its transaction failed: no detail of the database's error. */
  function expectPlain500(res: Sent): void {
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ subErrorCode: 'FW500' });
    expect(JSON.stringify(res.body)).not.toMatch(/audit refused|commit refused|\.ts:\d/);
  }

  it('rolls every change back when its audit row cannot be stored, and records the request as failed', async () => {
    const toUpdate = await addCrontab('kept-enabled');
    const toDelete = await addCrontab('kept-there');
    const root = await finishedRoot();
    await sql`create trigger fw_test_refuse_ok_audit before insert on fw_admin_audit
      for each row execute function fw_test_refuse_ok_audit()`.execute(db());
    try {
      const sent = {
        trigger: await send('post', '/triggers', { triggerId: 'refused-1', payload: { processDefName: 'single' } }),
        addCrontab: await send('post', '/crontabs', {
          name: 'never-added',
          cronExpression: '0 0 3 * * *',
          payload: { processDefName: 'single' },
        }),
        updateCrontab: await send('put', `/crontabs/${toUpdate}`, { enabled: false }),
        deleteCrontab: await send('delete', `/crontabs/${toDelete}`),
        addDefinition: await send('post', '/definitions', { processType: 'never-defined', leaf: true }),
        deleteProcess: await send('delete', `/processes/${root}`),
      };
      for (const [action, { res, requestId }] of Object.entries(sent)) {
        expectPlain500(res);
        expect({ action, rows: await rowsOf(requestId) }).toEqual({ action, rows: [`${action} failed`] });
      }
    } finally {
      await sql`drop trigger fw_test_refuse_ok_audit on fw_admin_audit`.execute(db());
    }

    expect(await triggerLogged('refused-1')).toBe(0);
    expect(
      await count(
        sql<{ n: string }>`select count(*) as n from fw_process where trigger_id = ${`manual:${T1}:refused-1`}`,
      ),
    ).toBe(0);
    expect(await crontabNamed('never-added')).toBe(0);
    expect((await rawRequest(h.app).get(`${API}/crontabs/${toUpdate}`).set(auth())).body.enabled).toBe(true);
    expect(await crontabNamed('kept-there')).toBe(1);
    expect(await definitionNamed('never-defined')).toBe(0);
    expect(await processCount(root)).toBe(1);

    // Once the trail takes rows again, each change goes through with exactly one row: ok.
    const again = {
      trigger: await send('post', '/triggers', { triggerId: 'refused-1', payload: { processDefName: 'single' } }),
      updateCrontab: await send('put', `/crontabs/${toUpdate}`, { enabled: false }),
      deleteCrontab: await send('delete', `/crontabs/${toDelete}`),
      deleteProcess: await send('delete', `/processes/${root}`),
    };
    for (const [action, { res, requestId }] of Object.entries(again)) {
      expect({ action, status: res.status < 300 }).toEqual({ action, status: true });
      expect(await rowsOf(requestId)).toEqual([`${action} ok`]);
    }
    expect(await triggerLogged('refused-1')).toBe(1);
    expect(await processCount(root)).toBe(0);
  });

  it('leaves no ok row when the change fails at its commit, after the audit row was inserted', async () => {
    const toUpdate = await addCrontab('fails-at-commit');
    const root = await finishedRoot();
    expect((await send('post', '/definitions', { processType: 'defined-before', leaf: true })).res.status).toBe(201);
    const failing: Array<[string, string]> = [
      ['fw_trigger_log', 'insert'],
      ['fw_crontab', 'insert or update or delete'],
      ['process_definition', 'insert or update or delete'],
      ['fw_process', 'delete'],
    ];
    for (const [table, events] of failing)
      await sql
        .raw(
          `create constraint trigger fw_test_fail_at_commit after ${events} on ${table}
           deferrable initially deferred for each row execute function fw_test_fail_at_commit()`,
        )
        .execute(db());
    try {
      const sent = {
        trigger: await send('post', '/triggers', { triggerId: 'at-commit', payload: { processDefName: 'single' } }),
        addCrontab: await send('post', '/crontabs', {
          name: 'not-committed',
          cronExpression: '0 0 3 * * *',
          payload: { processDefName: 'single' },
        }),
        updateCrontab: await send('put', `/crontabs/${toUpdate}`, { enabled: false }),
        deleteCrontab: await send('delete', `/crontabs/${toUpdate}`),
        addDefinition: await send('post', '/definitions', { processType: 'not-committed', leaf: true }),
        updateDefinition: await send('put', '/definitions/defined-before', { leaf: true, config: { x: 'y' } }),
        deleteDefinition: await send('delete', '/definitions/defined-before'),
        deleteProcess: await send('delete', `/processes/${root}`),
      };
      for (const [action, { res, requestId }] of Object.entries(sent)) {
        expectPlain500(res);
        expect({ action, rows: await rowsOf(requestId) }).toEqual({ action, rows: [`${action} failed`] });
      }
    } finally {
      for (const [table] of failing) await sql.raw(`drop trigger fw_test_fail_at_commit on ${table}`).execute(db());
    }
    expect(await triggerLogged('at-commit')).toBe(0);
    expect(await crontabNamed('not-committed')).toBe(0);
    expect(await crontabNamed('fails-at-commit')).toBe(1);
    expect((await rawRequest(h.app).get(`${API}/crontabs/${toUpdate}`).set(auth())).body.enabled).toBe(true);
    expect(await definitionNamed('not-committed')).toBe(0);
    expect(
      JSON.parse(
        (
          await sql<{
            d: string;
          }>`select definition as d from process_definition where process_type = 'defined-before'`.execute(db())
        ).rows[0].d,
      ),
    ).not.toHaveProperty('config.x');
    expect(await processCount(root)).toBe(1);
    expect(
      await count(sql<{ n: string }>`select count(*) as n from fw_admin_audit where outcome = 'ok' and request_id in (
        select request_id from fw_admin_audit where outcome = 'failed')`),
    ).toBe(0);
  });
});
