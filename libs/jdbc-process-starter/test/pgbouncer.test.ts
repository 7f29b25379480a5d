/**
 * The framework behind PgBouncer in transaction pooling with its default settings (Debian's
 * `pgbouncer`, a private instance on a free port in front of the PostgreSQL of
 * FW_TEST_DATABASE_URL, on a database of this suite's own): fw-migrate, a fan-out over two worker
 * processes, cron in the admin server, and a worker frozen mid-transaction, all through the pooler,
 * all in real processes. PgBouncer missing is a failure here, not a skip (CI installs it).
 */
import { createDatabase, type Database } from '@fw/core';
import {
  databaseTargets,
  postgresServerUrl,
  readWorkspaceMigrations,
  spawnScript,
  startPrivatePgbouncer,
  type PrivatePgbouncer,
  type SpawnedScript,
} from '@fw/test-support';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import pg from 'pg';
import { describeRun, freezeMidTransaction, runTreeWithFault } from './tree-run';

const ROOT = path.resolve(__dirname, '../../..');
const MIGRATE_CLI = path.join(ROOT, 'tools/migrate/src/main.ts');
const ADMIN_SERVER_CLI = path.join(ROOT, 'apps/admin-server/src/main.ts');
const WORKER_HOST = path.join(__dirname, 'fixtures', 'worker-host.ts');
const MIGRATION_COUNT = readWorkspaceMigrations().length;
const API_KEY = 'pgbouncer-suite-key-0123456789abcdef';
const RECOVERY_SECONDS = 3;
/** What a frozen worker may cost beyond its lease: the others' claim poll (100 ms) and the leaves they then run. */
const TAKEOVER_SLACK_MILLIS = 1500;
const POOLED = { FW_FIXTURE_POOLER: 'transaction' };

for (const _target of databaseTargets().filter((t) => t === 'postgres')) {
  describe('behind PgBouncer, transaction pooling, default settings (real processes) [postgres]', () => {
    const server = new URL(postgresServerUrl() as string);
    const user = decodeURIComponent(server.username) || 'postgres';
    const name = `fw_pgbouncer_${randomUUID().slice(0, 8)}`;
    const directUrl = Object.assign(new URL(server.toString()), { pathname: `/${name}` }).toString();
    let bouncer: PrivatePgbouncer | undefined;
    let pooledUrl: string;
    let control: Database;

    async function onServer(statement: string): Promise<void> {
      const client = new pg.Client({ connectionString: server.toString() });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    }

    beforeAll(async () => {
      // Fails (never skips) when pgbouncer is not installed: the error says how to install it.
      bouncer = await startPrivatePgbouncer({
        host: server.hostname,
        port: Number(server.port || 5432),
        users: [user],
      });
      await onServer(`create database ${name}`);
      pooledUrl = bouncer.urlFor(name, user);
      control = createDatabase({ url: directUrl, maxConnections: 2 });
    }, 60_000);

    afterAll(async () => {
      await control?.close();
      await bouncer?.stop();
      await onServer(`drop database if exists ${name} with (force)`);
    }, 60_000);

    it('is a PgBouncer with its default settings: a startup parameter it does not track is refused', async () => {
      const client = new pg.Client({ connectionString: pooledUrl, idle_in_transaction_session_timeout: 15_000 });
      client.on('error', () => undefined);
      await expect(client.connect()).rejects.toThrow(
        /unsupported startup parameter: idle_in_transaction_session_timeout/,
      );
      await client.end().catch(() => undefined);
    });

    it('fw-migrate applies the schema through it, two runs at once, each migration once', async () => {
      const runs = [0, 1].map(() =>
        spawnScript(MIGRATE_CLI, ['--database-url', pooledUrl, '--pooler', 'transaction'], { killAfterMillis: 60_000 }),
      );
      const codes = await Promise.all(runs.map((r) => r.exited));
      expect({ codes, output: codes.some((c) => c !== 0) ? runs.map((r) => r.output()).join('\n---\n') : '' }).toEqual({
        codes: [0, 0],
        output: '',
      });
      const applied = runs.map((r) => Number(/: (\d+) applied, (\d+) already applied/.exec(r.output())?.[1]));
      expect(applied[0] + applied[1]).toBe(MIGRATION_COUNT);
      const ledger = await control.withSession((s) =>
        s.query<{ n: number }>('select count(*)::int as n from fw_schema_migrations'),
      );
      expect(ledger).toEqual([{ n: MIGRATION_COUNT }]);
      // And without --pooler (the default), as a user who does not know about the pooler would run it.
      const again = spawnScript(MIGRATE_CLI, ['--database-url', pooledUrl], { killAfterMillis: 60_000 });
      expect(await again.exited).toBe(0);
      expect(again.output()).toMatch(new RegExp(`: 0 applied, ${MIGRATION_COUNT} already applied`));
    }, 120_000);

    it('runs a fan-out over two worker processes, every child counted once', async () => {
      const leaves = Array.from({ length: 60 }, (_, i) => i + 1);
      const figures = await runTreeWithFault(
        { hostUrl: pooledUrl, control, hosts: 2, leaves, stepMillis: 20, recoverySeconds: 30, env: POOLED },
        async () => undefined,
      );
      process.stdout.write(describeRun('none, through PgBouncer', leaves.length, figures));
    }, 180_000);

    it('fires a per-second crontab from the admin server once per second, run by a worker host', async () => {
      const admin = spawnScript(ADMIN_SERVER_CLI, [], {
        env: {
          PROCESS_DATABASE_URL: pooledUrl,
          PROCESS_DATABASE_USERNAME: '',
          PROCESS_DATABASE_PASSWORD: '',
          PROCESS_DATABASE_POOLER: 'transaction',
          PROCESS_MANAGEMENT_API_KEY: API_KEY,
          PROCESS_ADMIN_PORT: '0',
        },
        killAfterMillis: 120_000,
      });
      const worker = spawnScript(WORKER_HOST, [pooledUrl, '5', '500'], { env: POOLED, killAfterMillis: 120_000 });
      const stop = async (scripts: SpawnedScript[]) => {
        for (const s of scripts) if (s.child.exitCode === null) s.child.kill('SIGTERM');
        return Promise.all(scripts.map((s) => s.exited));
      };
      try {
        const base = (await admin.waitFor(/listening on (http:\/\/\S+)/, 60_000))[1];
        await worker.waitFor(/READY/, 60_000);
        const api = async (method: string, route: string, body?: unknown) => {
          const res = await fetch(`${base}/process-management/api${route}`, {
            method,
            headers: {
              'X-Process-Management-Key': API_KEY,
              'x-fw-tenant-id': 't1',
              'content-type': 'application/json',
            },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          return { status: res.status, body: (await res.json()) as Record<string, unknown> };
        };
        expect((await api('POST', '/definitions', { processType: 'sum', leaf: false })).status).toBe(201);
        expect(
          (await api('POST', '/definitions', { processType: 'sum-part', leaf: true, parentProcessType: 'sum' })).status,
        ).toBe(201);
        const created = await api('POST', '/crontabs', {
          name: 'every-second',
          cronExpression: '* * * * * *',
          timezone: 'UTC',
          enabled: true,
          payload: { processDefName: 'sum', args: { numbers: [1, 2, 3] } },
        });
        expect(created.status).toBe(201);
        const done = async () =>
          control.withSession((s) =>
            s.query<{ trigger_id: string; processes: number; state_id: string; total: number }>(
              `select trigger_id, count(*)::int as processes, min(state_id) as state_id, min((output->>'total')::int) as total
               from fw_process where trigger_id like 'cron:%' and parent_id is null group by trigger_id`,
            ),
          );
        for (const until = Date.now() + 60_000; (await done()).filter((r) => r.state_id === 'PROCESSED').length < 3;) {
          if (Date.now() > until)
            throw new Error(
              `three cron runs did not finish: ${JSON.stringify(await done())}\n${admin.output().slice(-2000)}\n---\n${worker.output().slice(-2000)}`,
            );
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        await api('PUT', `/crontabs/${String(created.body.id)}`, { enabled: false });
        const runs = await done();
        // One process per scheduled second (the trigger id names the second), each summed right.
        for (const run of runs)
          expect(run).toMatchObject({
            trigger_id: expect.stringMatching(/^cron:[^:]+:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/),
            processes: 1,
          });
        for (const run of runs.filter((r) => r.state_id === 'PROCESSED')) expect(run.total).toBe(6);
        const seconds = runs.map((r) => Date.parse(r.trigger_id.split(':').slice(2).join(':'))).sort((a, b) => a - b);
        expect(new Set(seconds).size).toBe(seconds.length);
      } finally {
        await stop([admin, worker]);
      }
    }, 180_000);

    it('moves on within one lease while a worker is frozen mid-transaction, and finishes before it wakes', async () => {
      const leaves = Array.from({ length: 120 }, (_, i) => i + 1);
      const figures = await runTreeWithFault(
        {
          hostUrl: pooledUrl,
          control,
          hosts: 3,
          leaves,
          stepMillis: 40,
          recoverySeconds: RECOVERY_SECONDS,
          env: POOLED,
        },
        (hosts) => freezeMidTransaction(control, hosts[1]),
      );
      process.stdout.write(describeRun('worker frozen past its lease, through PgBouncer', leaves.length, figures));
      expect(figures.hostStatesAtFinish[1]).toBe('T');
      expect(figures.stoodStillMillis).toBeLessThan(RECOVERY_SECONDS * 1000 + TAKEOVER_SLACK_MILLIS);
      expect(figures.finishedAfterFaultBeganMillis).toBeLessThan(RECOVERY_SECONDS * 1000 + TAKEOVER_SLACK_MILLIS);
    }, 180_000);
  });
}
