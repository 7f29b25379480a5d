import type { Database } from '@fw/core';
import type { Process, ProcessDef } from '@fw/process-api';
import { makeDatabaseProcessConfigurator, processDb, type ProcessManager } from '@fw/process-service';
import { describeEachDatabase } from '@fw/test-support';
import { makeSchedulerLease } from '@fw/trigger';
import { sql, type Kysely } from 'kysely';
import {
  HISTORY_SWEEPER_LEASE,
  makeAuditStore,
  makeHistoryRetentionStore,
  makeHistorySweeper,
  retentionSettingsFromEnv,
  type HistorySweeper,
  type SweeperLease,
} from '../src';
import { request } from './contract';
import { API, auth, makeAdminHarness, seedDefinitions, T1, T2, type AdminHarness } from './support';

const DAY = 86_400_000;

const RETENTION_DEFINITIONS: ProcessDef[] = [
  { processType: 'batch', leaf: false },
  { processType: 'batch-part', leaf: false, parentProcessType: 'batch' },
  { processType: 'batch-item', leaf: true, parentProcessType: 'batch-part' },
  { processType: 'quick', leaf: true, retention: { succeeded: 'PT1H' } },
  { processType: 'single', leaf: true },
  { processType: 'chained', leaf: true },
  { processType: 'after-chained', leaf: true, predecessorProcessType: 'chained' },
];

/**
 * Tables whose rows are NOT removed with a tree, and why. Every other table of the schema is
 * searched for the removed tree's ids, so a table added later is checked without being listed.
 */
const KEPT_TABLES: Record<string, string> = {
  fw_schema_migrations: 'the schema version, no run data',
  fw_process_outbox:
    'delivery commands: finished ones have their own retention (7 days), DEAD ones are the delivery failure record',
  fw_process_receipt: 'receipts of delivery commands, removed with them',
  fw_admin_audit: 'the audit trail names what was removed: it must outlive it',
};

interface Harness extends AdminHarness {
  database: Database;
}

function makeHarness(database: Database, countExactLimit?: number): Harness {
  return { ...makeAdminHarness({ database }, { withCron: false, ports: { countExactLimit } }), database };
}

const always: SweeperLease = { acquire: async () => true, release: async () => undefined, isHeld: () => true };

function sweeperOf(h: Harness, lease: SweeperLease = always): HistorySweeper {
  const configurator = makeDatabaseProcessConfigurator({ db: processDb(h.database) });
  return makeHistorySweeper({
    store: makeHistoryRetentionStore(h.database),
    lease,
    settings: retentionSettingsFromEnv({}),
    definitions: () => configurator.list(),
    batchRows: 3,
  });
}

/** Moves a whole tree `daysAgo` into the past (created and finished then). */
async function age(database: Database, rootId: string, daysAgo: number): Promise<void> {
  await sql`
    with recursive tree(id) as (select ${rootId}::uuid union all select c.id from fw_process c join tree t on c.parent_id = t.id)
    update fw_process set created_time = now() - make_interval(days => ${daysAgo}), last_modified_time = now() - make_interval(days => ${daysAgo}) + interval '1 second'
    where id in (select id from tree)`.execute(database.db);
}

/** A three-level tree (batch → 2 parts → 2 items each) driven to its end; one item fails when `failing`. */
async function runBatch(
  m: ProcessManager,
  tenant: string,
  options: { failing?: boolean; triggerId?: string } = {},
): Promise<{ root: Process; ids: string[] }> {
  const root = (await m.createProcess({ processDefName: 'batch', args: {}, triggerId: options.triggerId }, { tenant }))
    .mutatedEntity;
  return { root, ids: await finishBatch(m, root, options.failing ?? false) };
}

async function finishBatch(m: ProcessManager, root: Process, failing: boolean): Promise<string[]> {
  const tenant = root.tenant;
  await m.sendEvent(
    root.id,
    'splitDone',
    {
      subProcesses: [
        { processType: 'batch-part', args: {} },
        { processType: 'batch-part', args: {} },
      ],
    },
    { tenant },
  );
  const parts = (await m.getProcessTree(root.id, { tenant })).slice(1);
  const ids = [root.id];
  for (const [p, part] of parts.entries()) {
    ids.push(part.id);
    await m.sendEvent(
      part.id,
      'splitDone',
      {
        subProcesses: [
          { processType: 'batch-item', args: {} },
          { processType: 'batch-item', args: {} },
        ],
      },
      { tenant },
    );
    const items = (await m.getProcessTree(part.id, { tenant })).slice(1);
    for (const [i, item] of items.entries()) {
      ids.push(item.id);
      if (failing && p === 0 && i === 0)
        await m.sendEvent(item.id, 'doneWithErrors', { errors: ['broken'] }, { tenant });
      else {
        // The second part's items are reported to it over HTTP first, as a remote worker would: their
        // counts are report rows, the others' the children's counted_inline marks.
        if (p === 1) await m.sendEvent(part.id, 'subProcessDoneSuccessfully', { childId: item.id }, { tenant });
        await m.sendEvent(item.id, 'doneSuccessfully', { output: { ok: true } }, { tenant });
      }
    }
    await m.sendEvent(part.id, 'aggregationDone', { output: {} }, { tenant });
  }
  await m.sendEvent(root.id, 'aggregationDone', { output: {} }, { tenant });
  return ids;
}

/**
 * Work items as the JDBC starter leaves them behind: a SUCCESS per step, and one DEAD. Every other
 * item has the random id of a row written before ids were derived from keys (the starter's
 * migration 0025), so retention is seen to find both kinds.
 */
async function addWorkItems(database: Database, ids: readonly string[]): Promise<void> {
  const rows = await processDb(database)
    .selectFrom('fw_process')
    .select(['id', 'process_type', 'leaf', 'tenant'])
    .where('id', 'in', [...ids])
    .execute();
  for (const [n, row] of rows.entries()) {
    const worker = row.leaf ? 'EXECUTOR' : 'SPLITTER';
    const key = `${row.id}:${row.process_type}:${worker}`;
    const id = n % 2 === 0 ? sql`fw_work_item_id(${row.id}::uuid, ${key})` : sql`gen_random_uuid()`;
    await sql`insert into fw_process_work_item (id, idempotency_key, process_id, process_type, worker_type, tenant, payload, status, finished_at)
      values (${id}, ${key}, ${row.id}::uuid, ${row.process_type}, ${worker}, ${row.tenant}, ${JSON.stringify({ processId: row.id })}::jsonb,
      ${n === 0 ? 'DEAD' : 'SUCCESS'}, now())`.execute(database.db);
  }
}

/**
 * Every table of the schema and the number of its rows mentioning one of `values` in any column
 * (as text, so ids inside keys and JSON payloads count), tables of {@link KEPT_TABLES} aside.
 */
async function rowsMentioning(database: Database, values: readonly string[]): Promise<Record<string, number>> {
  const db = database.db as Kysely<unknown>;
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(
    db,
  );
  const found: Record<string, number> = {};
  for (const { table_name: table } of tables.rows) {
    if (KEPT_TABLES[table] !== undefined) continue;
    const patterns = values.map((v) => `%${v}%`);
    const rows = await sql<{ n: string | number }>`
      select count(*) as n from ${sql.table(table)} as t where t::text like any(${sql.raw(`array[${patterns.map((p) => `'${p}'`).join(',')}]`)})`.execute(
      db,
    );
    found[table] = Number(rows.rows[0].n);
  }
  return found;
}

describeEachDatabase('history retention: whole trees', (getDb) => {
  let h: Harness;

  beforeAll(async () => {
    await seedDefinitions(getDb().database, RETENTION_DEFINITIONS);
    h = makeHarness(getDb().database);
  });

  it('removes an expired tree from every table of the schema, and keeps the rest', async () => {
    const trigger = await request(h.app)
      .post(`${API}/triggers`)
      .set(auth())
      .send({ triggerId: 'retention-1', payload: { processDefName: 'batch' } });
    expect(trigger.status).toBe(200);
    const root = await processDb(h.database)
      .selectFrom('fw_process')
      .selectAll()
      .where('trigger_id', '=', 'manual:tenant-1:retention-1')
      .executeTakeFirstOrThrow();
    const manager = h.manager;
    const ids = await finishBatch(
      manager,
      { ...(await manager.getProcess(root.id, { tenant: T1 })).mutatedEntity },
      true,
    );
    await addWorkItems(h.database, ids);
    const kept = await runBatch(manager, T1);
    await age(h.database, root.id, 200);
    const values = [...ids, 'manual:tenant-1:retention-1'];

    const before = await rowsMentioning(h.database, values);
    const tablesOfTheRun = [
      'fw_process',
      'fw_process_completion_event',
      'fw_process_child_report',
      'fw_process_error',
      'fw_process_work_item',
      'fw_trigger_execution',
      'fw_trigger_log',
    ];
    expect(tablesOfTheRun.filter((table) => !(before[table] > 0))).toEqual([]);

    const pass = await sweeperOf(h).sweepOnce();
    expect(pass).toMatchObject({ owner: true, roots: 1, skipped: 0 });
    expect(pass.removed).toEqual({
      processes: 7,
      completionEvents: 7,
      childReports: 2,
      errors: expect.any(Number),
      workItems: 7,
      triggerExecutions: 1,
      triggerLogs: 1,
    });
    const after = await rowsMentioning(h.database, values);
    expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([]);
    expect(
      await processDb(h.database).selectFrom('fw_process').select('id').where('id', 'in', kept.ids).execute(),
    ).toHaveLength(7);
  });

  it('keeps failed runs longer than successful ones, honours a definition’s own retention and never removes a running tree', async () => {
    const ok = await runBatch(h.manager, T2);
    const failed = await runBatch(h.manager, T2, { failing: true });
    const old = await runBatch(h.manager, T2, { failing: true });
    const running = (await h.manager.createProcess({ processDefName: 'batch', args: {} }, { tenant: T2 }))
      .mutatedEntity;
    const quick = (await h.manager.createProcess({ processDefName: 'quick', args: {} }, { tenant: T2 })).mutatedEntity;
    await h.manager.sendEvent(quick.id, 'doneSuccessfully', { output: {} }, { tenant: T2 });
    const single = (await h.manager.createProcess({ processDefName: 'single', args: {} }, { tenant: T2 }))
      .mutatedEntity;
    await h.manager.sendEvent(single.id, 'doneSuccessfully', { output: {} }, { tenant: T2 });
    for (const id of [ok.root.id, failed.root.id]) await age(h.database, id, 40);
    await age(h.database, old.root.id, 100);
    await age(h.database, running.id, 400);
    await sql`update fw_process set created_time = now() - interval '3 hours', last_modified_time = now() - interval '2 hours' where id in (${quick.id}::uuid, ${single.id}::uuid)`.execute(
      h.database.db,
    );

    const pass = await sweeperOf(h).sweepOnce();
    const left = new Set(
      (
        await processDb(h.database)
          .selectFrom('fw_process')
          .select('id')
          .where('parent_id', 'is', null)
          .where('tenant', '=', T2)
          .execute()
      ).map((r) => r.id),
    );
    expect({
      ok: left.has(ok.root.id),
      failed40: left.has(failed.root.id),
      failed100: left.has(old.root.id),
      running: left.has(running.id),
      quick: left.has(quick.id),
      single: left.has(single.id),
    }).toEqual({
      ok: false,
      failed40: true,
      failed100: false,
      running: true,
      quick: false,
      single: true,
    });
    expect(pass.roots).toBe(3);
  });

  it('DELETE /processes/{id}: 204 for a finished root, 409 while it runs, 400 for a child, 404 outside the tenant', async () => {
    const running = (await h.manager.createProcess({ processDefName: 'batch', args: {} }, { tenant: T1 }))
      .mutatedEntity;
    const refused = await request(h.app).delete(`${API}/processes/${running.id}`).set(auth());
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/still running/);
    const done = await runBatch(h.manager, T1);
    expect((await request(h.app).delete(`${API}/processes/${done.ids[1]}`).set(auth())).status).toBe(400);
    expect((await request(h.app).delete(`${API}/processes/${done.root.id}`).set(auth(T2))).status).toBe(404);
    expect((await request(h.app).delete(`${API}/processes/not-a-uuid`).set(auth())).status).toBe(404);
    const removed = await request(h.app).delete(`${API}/processes/${done.root.id}`).set(auth());
    expect(removed.status).toBe(204);
    expect(
      await processDb(h.database).selectFrom('fw_process').select('id').where('id', 'in', done.ids).execute(),
    ).toEqual([]);
    expect((await request(h.app).get(`${API}/processes/${done.root.id}`).set(auth())).status).toBe(404);
    expect((await request(h.app).delete(`${API}/processes/${done.root.id}`).set(auth())).status).toBe(404);
  });

  it('a successor keeps working after its predecessor’s tree is removed', async () => {
    const first = (await h.manager.createProcess({ processDefName: 'chained', args: { n: 1 } }, { tenant: T1 }))
      .mutatedEntity;
    await h.manager.sendEvent(first.id, 'doneSuccessfully', { output: { n: 2 } }, { tenant: T1 });
    const successor = await processDb(h.database)
      .selectFrom('fw_process')
      .selectAll()
      .where('predecessor_id', '=', first.id)
      .executeTakeFirstOrThrow();
    expect((await request(h.app).delete(`${API}/processes/${first.id}`).set(auth())).status).toBe(204);

    const trace = await request(h.app).get(`${API}/trace`).set(auth()).query({ processId: successor.id });
    expect(trace.status).toBe(200);
    expect(trace.body.nodes.map((n: { id: string }) => n.id)).toContain(successor.id);
    const listed = await request(h.app).get(`${API}/processes`).set(auth()).query({ predecessorId: first.id });
    expect(listed.body.content.map((p: { id: string }) => p.id)).toEqual([successor.id]);
    const finished = await h.manager.sendEvent(
      successor.id,
      'doneSuccessfully',
      { output: { done: true } },
      { tenant: T1 },
    );
    expect(finished.mutatedEntity.state.stateId).toBe('PROCESSED');
    expect((await request(h.app).get(`${API}/processes/${successor.id}`).set(auth())).body).toMatchObject({
      status: 'PROCESSED',
      predecessorId: first.id,
    });
    // The completion of the removed predecessor delivered again starts nothing new.
    const again = await h.manager.processCompleted({
      processDefName: 'chained',
      processId: first.id,
      processType: 'chained',
      tenantId: T1,
      triggerId: null,
      state: 'PROCESSED',
      input: { n: 1 },
      output: { n: 2 },
      successful: true,
    });
    expect(again).toEqual([]);
  });

  it('one owner sweeps at a time: two sweepers on one database never both hold the lease', async () => {
    const roots: string[] = [];
    for (let i = 0; i < 4; i++) {
      const tree = await runBatch(h.manager, T1);
      await age(h.database, tree.root.id, 60);
      roots.push(tree.root.id);
    }
    const leaseOf = (owner: string) =>
      makeSchedulerLease({ database: h.database, name: HISTORY_SWEEPER_LEASE, ownerId: owner, leaseSeconds: 30 });
    const a = sweeperOf(h, leaseOf('admin-a'));
    const b = sweeperOf(h, leaseOf('admin-b'));
    const [pa, pb] = await Promise.all([a.sweepOnce(), b.sweepOnce()]);
    expect([pa.owner, pb.owner].sort()).toEqual([false, true]);
    expect(pa.roots + pb.roots).toBeGreaterThanOrEqual(4);
    expect(a.isOwner() !== b.isOwner()).toBe(true);
    const loser = pa.owner ? b : a;
    expect((await loser.sweepOnce()).owner).toBe(false);
    await (pa.owner ? a : b).stop();
    expect((await loser.sweepOnce()).owner).toBe(true);
    await loser.stop();
    expect(
      await processDb(h.database).selectFrom('fw_process').select('id').where('id', 'in', roots).execute(),
    ).toEqual([]);
  });

  it('sweeps the audit trail older than its retention (default: the failed retention) and keeps the newer entries', async () => {
    const audit = makeAuditStore(h.database.db);
    const entry = (target: string) => ({
      actor: 'key:test',
      credential: 'key' as const,
      tenant: T1,
      action: 'addCrontab',
      target,
      outcome: 'ok' as const,
      requestId: target,
    });
    for (const target of ['audit-old-1', 'audit-old-2', 'audit-old-3', 'audit-recent'])
      await audit.record(entry(target));
    await sql`update fw_admin_audit set occurred_at = now() - interval '91 days' where target like 'audit-old-%'`.execute(
      h.database.db,
    );
    const configurator = makeDatabaseProcessConfigurator({ db: processDb(h.database) });
    const settings = retentionSettingsFromEnv({});
    expect(settings.auditMillis).toBe(90 * DAY);
    const sweeper = makeHistorySweeper({
      store: makeHistoryRetentionStore(h.database),
      audit,
      lease: always,
      settings,
      definitions: () => configurator.list(),
      readRoots: 2,
    });

    const pass = await sweeper.sweepOnce();
    expect(pass.auditEntries).toBe(3);
    const left = await sql<{
      target: string;
    }>`select target from fw_admin_audit where target like 'audit-%' order by target`.execute(h.database.db);
    expect(left.rows.map((r) => r.target)).toEqual(['audit-recent']);
    expect(retentionSettingsFromEnv({ PROCESS_AUDIT_RETENTION: 'P400D' }).auditMillis).toBe(400 * DAY);
    expect(() => retentionSettingsFromEnv({ PROCESS_AUDIT_RETENTION: 'forever' })).toThrow(/PROCESS_AUDIT_RETENTION/);
  });
});

describeEachDatabase('history retention: totals above the exact-count limit', (getDb) => {
  it('answers an estimate marked totalElementsEstimated above the limit, an exact count below', async () => {
    const database = getDb().database;
    await seedDefinitions(database, RETENTION_DEFINITIONS);
    const h = makeHarness(database, 5);
    await sql`insert into fw_process (id, process_type, leaf, tenant, flow_id, state_id, created_time, last_modified_time, state_entry_time)
      select gen_random_uuid(), 'single', true, ${T1}, 'process-flow', 'PROCESSED', now() - g * interval '1 second', now(), now() from generate_series(1, 40) g`.execute(
      database.db,
    );
    await sql`analyze fw_process`.execute(database.db);
    const big = await request(h.app).get(`${API}/processes`).set(auth()).query({ size: 10 });
    expect(big.status).toBe(200);
    expect(big.body.totalElementsEstimated).toBe(true);
    expect(big.body.totalElements).toBeGreaterThan(5);
    expect(big.body.content).toHaveLength(10);
    const small = await request(h.app).get(`${API}/processes`).set(auth(T2));
    expect(small.body).toMatchObject({ totalElements: 0 });
    expect(small.body.totalElementsEstimated).toBeUndefined();
    const filtered = await request(h.app).get(`${API}/processes`).set(auth()).query({ processType: 'quick' });
    expect(filtered.body.totalElements).toBe(0);
    expect(filtered.body.totalElementsEstimated).toBeUndefined();
  });

  it('bounds a filtered total the same way: a rare state read past the limit is estimated, under it exact', async () => {
    const database = getDb().database;
    await seedDefinitions(database, RETENTION_DEFINITIONS);
    const h = makeHarness(database, 5);
    // T1: 52 processes, 12 of them failed; 'mid': 8 processes, 3 failed; T2: 4 processes, 2 failed.
    const seed = async (tenant: string, processed: number, failed: number) =>
      sql`insert into fw_process (id, process_type, leaf, tenant, flow_id, state_id, created_time, last_modified_time, state_entry_time)
        select gen_random_uuid(), 'single', true, ${tenant}, 'process-flow', case when g <= ${failed} then 'PROCESSED_WITH_ERRORS' else 'PROCESSED' end,
          now() - g * interval '1 second', now(), now() from generate_series(1, ${processed + failed}) g`.execute(
        database.db,
      );
    await seed(T1, 40, 12);
    await seed('mid', 5, 3);
    await seed(T2, 2, 2);
    await sql`analyze fw_process`.execute(database.db);
    const list = (tenant: string, query: Record<string, string | number>) =>
      request(h.app).get(`${API}/processes`).set(auth(tenant)).query(query);

    // Beyond the limit: estimated, and the page itself still answers its rows.
    const failedBig = await list(T1, { status: 'PROCESSED_WITH_ERRORS', size: 5 });
    expect(failedBig.status).toBe(200);
    expect(failedBig.body.totalElementsEstimated).toBe(true);
    expect(failedBig.body.totalElements).toBeGreaterThan(0);
    expect(failedBig.body.content.map((p: { status: string }) => p.status)).toEqual(
      Array(5).fill('PROCESSED_WITH_ERRORS'),
    );
    // Rows read past the limit without reaching the end (between the limit and four times it): estimated too.
    const failedMid = await list('mid', { status: 'PROCESSED_WITH_ERRORS', size: 1 });
    expect(failedMid.body.totalElementsEstimated).toBe(true);
    expect(failedMid.body.content).toHaveLength(1);
    // Under the limit: exact, though the page shows one row of them.
    const failedSmall = await list(T2, { status: 'PROCESSED_WITH_ERRORS', size: 1 });
    expect(failedSmall.body).toMatchObject({ totalElements: 2, totalPages: 2 });
    expect(failedSmall.body.totalElementsEstimated).toBeUndefined();
    const typeSmall = await list(T2, { processType: 'single', q: 'sin', size: 1 });
    expect(typeSmall.body).toMatchObject({ totalElements: 4 });
    expect(typeSmall.body.totalElementsEstimated).toBeUndefined();
    // A page that is not full ends the list, so its total is exact whatever the tenant's size.
    const lastPage = await list(T1, { status: 'PROCESSED_WITH_ERRORS', size: 5, page: 2 });
    expect(lastPage.body).toMatchObject({ totalElements: 12, totalPages: 3 });
    expect(lastPage.body.content).toHaveLength(2);
    expect(lastPage.body.totalElementsEstimated).toBeUndefined();
    const none = await list(T1, { status: 'EXECUTING' });
    expect(none.body).toMatchObject({ totalElements: 0, content: [] });
    expect(none.body.totalElementsEstimated).toBeUndefined();
  });
});
