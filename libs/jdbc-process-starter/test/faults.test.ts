/**
 * The fault suite: three real worker processes (the durable worker host of the README, outbox and
 * work-item queue) run a 120-leaf tree on a PostgreSQL server of the test's own, and one fault is
 * injected mid-tree: a server restart, a storm of terminated connections, an exclusive table
 * lock, a worker frozen with SIGSTOP past its lease. Each run must end with the tree complete,
 * every child counted exactly once, nothing left PENDING, RUNNING or DEAD; the recovery time (from
 * the end of the fault to the tree's completion) is printed for tools/bench/README.md.
 */
import { createDatabase, migrateDatabase, readMigrationFolder, type Database } from '@fw/core';
import { countMatches, MIGRATIONS_DIR, spawnScript, startPrivatePostgres, waitForTreeFinished, type PrivatePostgres, type SpawnedScript } from '@fw/test-support';
import { sql } from 'kysely';
import * as path from 'node:path';

const FIXTURE = path.join(__dirname, 'fixtures', 'worker-host.ts');
const LEAVES = Array.from({ length: 120 }, (_, i) => i + 1);
const TOTAL = LEAVES.reduce((a, b) => a + b, 0);
const STEP_MILLIS = 40;
const RECOVERY_SECONDS = 3;

describe('faults in the database and the workers (private PostgreSQL, real processes)', () => {
  let server: PrivatePostgres;
  let url: string;
  let control: Database;

  beforeAll(async () => {
    server = await startPrivatePostgres();
    const admin = createDatabase({ url: server.url });
    await admin.withSession((s) => s.exec('create database fw'));
    await admin.close();
    url = server.url.replace(/\/postgres$/, '/fw');
    control = createDatabase({ url, maxConnections: 2 });
    await migrateDatabase(control, readMigrationFolder(MIGRATIONS_DIR));
  }, 120_000);

  afterAll(async () => {
    await control?.close();
    await server?.stop();
  }, 60_000);

  function startHosts(): SpawnedScript[] {
    const env = { FW_FIXTURE_RECOVERY_SECONDS: String(RECOVERY_SECONDS), FW_FIXTURE_LOCK_TIMEOUT_MILLIS: '2000', FW_FIXTURE_IDLE_TX_MILLIS: '3000' };
    return [0, 1, 2].map((i) => spawnScript(FIXTURE, [url, String(STEP_MILLIS), '500', ...(i === 0 ? [LEAVES.join(',')] : [])], { env, killAfterMillis: 120_000 }));
  }

  async function stopHosts(hosts: SpawnedScript[]): Promise<void> {
    for (const h of hosts) if (h.child.exitCode === null) h.child.kill('SIGCONT');
    for (const h of hosts) if (h.child.exitCode === null) h.child.kill('SIGTERM');
    await Promise.all(hosts.map((h) => h.exited));
  }

  /** Runs the tree with `fault` injected once about a third of the leaves are done; returns the recovery time. */
  async function runWithFault(name: string, fault: (hosts: SpawnedScript[]) => Promise<void>): Promise<void> {
    const hosts = startHosts();
    try {
      const rootId = (await hosts[0].waitFor(/ROOT (\S+)/, 60_000))[1];
      const ended = () => hosts.reduce((n, h) => n + countMatches(h.output(), /STEP-END/g), 0);
      for (const until = Date.now() + 60_000; ended() < LEAVES.length / 3; ) {
        if (Date.now() > until) throw new Error(`the tree did not get going: ${hosts[0].output()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const faultBegan = Date.now();
      await fault(hosts);
      const faultEnded = Date.now();
      // The test's own pool may hold connections the fault cut: the first statements may fail.
      for (let tries = 0; ; tries++) {
        try {
          await sql`select 1`.execute(control.db);
          break;
        } catch (err) {
          if (tries > 50) throw err;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      const tree = await waitForTreeFinished(control, rootId, 60_000, () => hosts.map((h) => h.output().slice(-2000)).join('\n---\n'));
      const finishedAt = Date.now();
      const recoveryMillis = finishedAt - faultEnded;
      expect(tree).toMatchObject({ stateId: 'PROCESSED', output: { total: TOTAL, parts: LEAVES.length }, numCompletedSubProcesses: LEAVES.length });
      expect(tree.childStates).toEqual({ PROCESSED: LEAVES.length });
      expect(tree.childReports).toEqual({ total: LEAVES.length, distinctChildren: LEAVES.length });
      // Nothing left behind: every work item SUCCESS, every outbox command DONE (none DEAD). The root
      // is PROCESSED when its last transaction commits; the acknowledgements of the item and command
      // that ran it follow in statements of their own (and a command retried after a fault waits out
      // its backoff), so the rows get a few seconds to settle before they must all be done.
      const itemStates = async () => (await sql<{ status: string; n: number }>`select status, count(*)::int as n from fw_process_work_item where process_id in (select id from fw_process where id = ${rootId} or parent_id = ${rootId}) group by status`.execute(control.db)).rows;
      const commandStates = async () => (await sql<{ status: string }>`select distinct status from fw_process_outbox where process_id in (select id from fw_process where id = ${rootId} or parent_id = ${rootId})`.execute(control.db)).rows.map((r) => r.status);
      const settled = async () => (await itemStates()).length === 1 && (await commandStates()).join() === 'DONE';
      for (const deadline = Date.now() + 15_000; !(await settled()) && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await itemStates()).toEqual([{ status: 'SUCCESS', n: LEAVES.length + 2 }]);
      expect(await commandStates()).toEqual(['DONE']);
      process.stdout.write(`fault ${name}: lasted ${faultEnded - faultBegan} ms; tree of ${LEAVES.length} leaves complete ${finishedAt - faultBegan} ms after it began (${recoveryMillis} ms after it ended), every child counted once\n`);
    } finally {
      await stopHosts(hosts);
    }
  }

  it('survives a PostgreSQL restart mid-tree', async () => {
    await runWithFault('postgres restart', () => server.restart());
  }, 180_000);

  it('survives a storm of terminated connections', async () => {
    await runWithFault('connection storm', async () => {
      for (let i = 0; i < 5; i++) {
        await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = 'fw' and pid <> pg_backend_pid()`.execute(control.db);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    });
  }, 180_000);

  it('survives an exclusive lock on the process table for 2 s', async () => {
    await runWithFault('table lock', () =>
      control.withSession(async (s) => {
        await s.query('begin');
        await s.query('lock table fw_process in access exclusive mode');
        await new Promise((resolve) => setTimeout(resolve, 2000));
        await s.query('commit');
      }),
    );
  }, 180_000);

  it('finishes without a worker frozen (SIGSTOP) past its lease; its late work is fenced off when it wakes', async () => {
    // Frozen until the tree is done (woken by SIGCONT, then stopped): the others must take over its
    // claims once its leases (recoverySeconds) and any open transaction (idle timeout) expire.
    await runWithFault('worker frozen past its lease', async (hosts) => {
      hosts[1].child.kill('SIGSTOP');
    });
  }, 180_000);
});
