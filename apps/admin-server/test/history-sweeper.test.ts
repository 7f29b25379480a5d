import { retentionSettingsFromEnv } from '@fw/process-management';
import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import {
  adminConfigFromEnv,
  createAdminServer,
  seedDefinitions,
  WORD_COUNT_DEFINITIONS,
  type AdminServer,
} from '../src';
import { checkedAgainst, type CheckedAgent } from './contract';
import { API, eventually, headers, testConfig } from './support';

/** `trees` finished word-count trees (root + 2 chunks, their events and reports) that ended `daysAgo`. */
async function seedFinishedTrees(
  db: AdminServer['database']['db'],
  trees: number,
  daysAgo: number,
  state = 'PROCESSED',
): Promise<string[]> {
  const roots = await sql<{ id: string }>`
    insert into fw_process (id, process_type, leaf, tenant, flow_id, state_id, split_completed, num_sub_processes, num_completed_sub_processes, completed_percent, created_time, last_modified_time, state_entry_time)
    select gen_random_uuid(), 'word-count', false, 'demo', 'process-flow', ${state}, true, 2, 2, 100, now() - make_interval(days => ${daysAgo}), now() - make_interval(days => ${daysAgo}), now() - make_interval(days => ${daysAgo})
    from generate_series(1, ${trees}) returning id`.execute(db);
  const ids = roots.rows.map((r) => r.id);
  await sql`
    insert into fw_process (id, process_type, leaf, parent_id, tenant, flow_id, state_id, created_time, last_modified_time, state_entry_time)
    select gen_random_uuid(), 'word-count-chunk', true, r.id, 'demo', 'process-flow', 'PROCESSED', r.created_time, r.last_modified_time, r.created_time
    from fw_process r cross join generate_series(1, 2) where r.id = any(${ids}::uuid[])`.execute(db);
  await sql`
    insert into fw_process_completion_event (id, process_id, process_type, tenant, state, successful, payload, generated_time)
    select gen_random_uuid(), p.id, p.process_type, 'demo', p.state_id, p.state_id = 'PROCESSED', '{}'::jsonb, p.last_modified_time
    from fw_process p where p.id = any(${ids}::uuid[]) or p.parent_id = any(${ids}::uuid[])`.execute(db);
  await sql`
    insert into fw_process_child_report (child_id, parent_id, successful, reported_time)
    select p.id, p.parent_id, true, p.last_modified_time from fw_process p where p.parent_id = any(${ids}::uuid[])`.execute(
    db,
  );
  return ids;
}

describeEachDatabase('admin server: history retention', (getDb) => {
  const servers: AdminServer[] = [];
  let request: (target: AdminServer['app']) => CheckedAgent;

  beforeAll(async () => {
    await seedDefinitions(getDb().database, WORD_COUNT_DEFINITIONS);
    for (const owner of ['sweeper-a', 'sweeper-b']) {
      const config = {
        ...testConfig(getDb()),
        history: { retention: retentionSettingsFromEnv({}), sweepIntervalMillis: 200 },
      };
      const server = await createAdminServer({
        config,
        database: getDb().database,
        ownerId: owner,
        historyLeaseSeconds: 15,
      });
      await server.listen();
      servers.push(server);
    }
    request = await checkedAgainst(servers[0].app);
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await server.close();
  }, 60_000);

  it('two admin servers on one database: one sweeper owner removes the expired trees, the failed ones are kept longer', async () => {
    const db = getDb().database.db;
    const expired = await seedFinishedTrees(db, 30, 45);
    const failedKept = await seedFinishedTrees(db, 3, 45, 'PROCESSED_WITH_ERRORS');
    const recent = await seedFinishedTrees(db, 3, 2);
    await eventually(
      async () => {
        const left = await sql<{
          n: string | number;
        }>`select count(*) as n from fw_process where id = any(${expired}::uuid[]) or parent_id = any(${expired}::uuid[])`.execute(
          db,
        );
        return Number(left.rows[0].n) === 0 ? true : undefined;
      },
      20_000,
      'the expired trees to be removed',
    );
    const owners = servers.filter((s) => s.historySweeper?.isOwner());
    expect(owners).toHaveLength(1);
    const lease = await sql<{
      owner_id: string;
    }>`select owner_id from fw_scheduler_lease where name = 'history-sweeper'`.execute(db);
    expect(lease.rows.map((r) => r.owner_id)).toEqual([owners[0].scheduler.ownerId]);
    const orphans = await sql<{
      n: string | number;
    }>`select count(*) as n from fw_process_completion_event e where not exists (select 1 from fw_process p where p.id = e.process_id)`.execute(
      db,
    );
    expect(Number(orphans.rows[0].n)).toBe(0);
    const reports = await sql<{
      n: string | number;
    }>`select count(*) as n from fw_process_child_report r where not exists (select 1 from fw_process p where p.id = r.child_id)`.execute(
      db,
    );
    expect(Number(reports.rows[0].n)).toBe(0);
    const kept = await sql<{
      n: string | number;
    }>`select count(*) as n from fw_process where id = any(${[...failedKept, ...recent]}::uuid[])`.execute(db);
    expect(Number(kept.rows[0].n)).toBe(6);
  }, 60_000);

  it('DELETE /processes/{id} removes a finished tree and refuses a running one with 409', async () => {
    const [finished] = await seedFinishedTrees(getDb().database.db, 1, 0);
    const running = await request(servers[0].app)
      .post('/process')
      .set(headers())
      .send({ processDefName: 'word-count', args: { text: 'a b' } });
    const runningId = running.body.payload.mutatedEntity.id as string;
    expect((await request(servers[0].app).delete(`${API}/processes/${runningId}`).set(headers())).status).toBe(409);
    expect((await request(servers[1].app).delete(`${API}/processes/${finished}`).set(headers())).status).toBe(204);
    expect((await request(servers[0].app).get(`${API}/processes/${finished}`).set(headers())).status).toBe(404);
  });

  it('reads the retention, the sweep interval and duty cycle, and the exact-count limit from the environment', () => {
    const env = {
      PROCESS_DATABASE_URL: 'postgres://h/db',
      PROCESS_DATABASE_USERNAME: '',
      PROCESS_DATABASE_PASSWORD: '',
      PROCESS_MANAGEMENT_API_KEY: 'k'.repeat(40),
    };
    const defaults = adminConfigFromEnv('production', env, '/');
    expect(defaults.history).toEqual({
      retention: {
        succeededMillis: 30 * 86_400_000,
        failedMillis: 90 * 86_400_000,
        tenants: {},
        auditMillis: 90 * 86_400_000,
      },
      sweepIntervalMillis: 60_000,
      sweepDutyCycle: 0.25,
    });
    expect(defaults.countExactLimit).toBe(100_000);
    const set = adminConfigFromEnv(
      'production',
      {
        ...env,
        PROCESS_HISTORY_RETENTION: 'P7D',
        PROCESS_FAILED_RETENTION: 'PT36H',
        PROCESS_HISTORY_RETENTION_TENANTS: 'acme=P1D/,beta=/P2W',
        PROCESS_AUDIT_RETENTION: 'P1Y',
        PROCESS_HISTORY_SWEEP_INTERVAL: 'off',
        PROCESS_HISTORY_SWEEP_DUTY_CYCLE: '50%',
        FW_COUNT_EXACT_LIMIT: '5000',
      },
      '/',
    );
    expect(set.history).toEqual({
      retention: {
        succeededMillis: 7 * 86_400_000,
        failedMillis: 36 * 3_600_000,
        tenants: { acme: { succeededMillis: 86_400_000 }, beta: { failedMillis: 14 * 86_400_000 } },
        auditMillis: 365 * 86_400_000,
      },
      sweepIntervalMillis: undefined,
      sweepDutyCycle: 0.5,
    });
    expect(set.countExactLimit).toBe(5000);
    expect(() => adminConfigFromEnv('production', { ...env, PROCESS_HISTORY_RETENTION: '30 days' }, '/')).toThrow(
      /PROCESS_HISTORY_RETENTION must be an ISO-8601 duration/,
    );
    expect(() => adminConfigFromEnv('production', { ...env, PROCESS_HISTORY_SWEEP_DUTY_CYCLE: '0' }, '/')).toThrow(
      /PROCESS_HISTORY_SWEEP_DUTY_CYCLE must be a share of the time above 0 and at most 1/,
    );
    expect(() => adminConfigFromEnv('production', { ...env, FW_COUNT_EXACT_LIMIT: '-1' }, '/')).toThrow(
      /FW_COUNT_EXACT_LIMIT/,
    );
  });
});
