/**
 * The fault suite: three real worker processes (the durable worker host of the README, outbox and
 * work-item queue) run a 120-leaf tree on a PostgreSQL server of the test's own, and one fault is
 * injected mid-tree: a server restart, a storm of terminated connections, an exclusive table
 * lock, a worker frozen with SIGSTOP past its lease. Each run must end with the tree complete,
 * every child counted exactly once, nothing left PENDING, RUNNING or DEAD; the recovery time (from
 * the end of the fault to the tree's completion) is printed for tools/bench/README.md.
 */
import { createDatabase, migrateDatabase, type Database } from '@fw/core';
import {
  readWorkspaceMigrations,
  startPrivatePostgres,
  type PrivatePostgres,
  type SpawnedScript,
} from '@fw/test-support';
import { sql } from 'kysely';
import { describeRun, freezeMidTransaction, runTreeWithFault, type TreeRunFigures } from './tree-run';

const LEAVES = Array.from({ length: 120 }, (_, i) => i + 1);
const STEP_MILLIS = 40;
/** The hosts' leases; their session timeouts follow (no explicit lock or idle timeout is given). */
const RECOVERY_SECONDS = 3;
/** What a frozen worker may cost beyond its lease: the others' claim poll (100 ms) and the leaves they then run. */
const TAKEOVER_SLACK_MILLIS = 1500;

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
    await migrateDatabase(control, readWorkspaceMigrations());
  }, 120_000);

  afterAll(async () => {
    await control?.close();
    await server?.stop();
  }, 60_000);

  async function runWithFault(name: string, fault: (hosts: SpawnedScript[]) => Promise<void>): Promise<TreeRunFigures> {
    const figures = await runTreeWithFault(
      { hostUrl: url, control, hosts: 3, leaves: LEAVES, stepMillis: STEP_MILLIS, recoverySeconds: RECOVERY_SECONDS },
      fault,
    );
    process.stdout.write(describeRun(name, LEAVES.length, figures));
    return figures;
  }

  it('survives a PostgreSQL restart mid-tree', async () => {
    await runWithFault('postgres restart', () => server.restart());
  }, 180_000);

  it('survives a storm of terminated connections', async () => {
    await runWithFault('connection storm', async () => {
      for (let i = 0; i < 5; i++) {
        await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = 'fw' and pid <> pg_backend_pid()`.execute(
          control.db,
        );
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

  it('moves on within one lease while a worker is frozen (SIGSTOP) and finishes before it wakes', async () => {
    // Frozen until the tree is done (then woken by SIGCONT and stopped). Its open transaction, if
    // any, is ended by the server once idle for the host's lease (the session timeouts follow it),
    // and its claims expire with the same lease: the others take over without waiting for it.
    const figures = await runWithFault('worker frozen past its lease', (hosts) =>
      freezeMidTransaction(control, hosts[1]),
    );
    expect(figures.hostStatesAtFinish[1]).toBe('T');
    expect(figures.stoodStillMillis).toBeLessThan(RECOVERY_SECONDS * 1000 + TAKEOVER_SLACK_MILLIS);
    expect(figures.finishedAfterFaultBeganMillis).toBeLessThan(RECOVERY_SECONDS * 1000 + TAKEOVER_SLACK_MILLIS);
  }, 180_000);
});
