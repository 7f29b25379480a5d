import { createDatabase, type Database } from '@fw/core';
import { makeJsonProcessConfigurator, makeProcessManager, processDb, type ProcessManager } from '@fw/process-service';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '@fw/test-support';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { sql } from 'kysely';
import { resilientPostgres, summarize, sumTo, waitFor } from './checks';
import { FAN_OUT_DEFINITIONS, startFanOutStack, type FanOutStack } from './fan-out-stack';

const ROOT = path.resolve(__dirname, '../../..');
const LEAVES = 400;

async function processedLeaves(database: Database, rootId: string): Promise<number> {
  const { rows } = await sql<{
    n: string;
  }>`select count(*) as n from fw_process where parent_id = ${rootId} and state_id = 'PROCESSED'`.execute(database.db);
  return Number(rows[0].n);
}

/** A manager that only writes (no dispatcher here): the root's commands wait for the child process. */
function writerManager(database: Database): ProcessManager {
  return makeProcessManager({
    db: processDb(database),
    configurator: makeJsonProcessConfigurator({ definitions: FAN_OUT_DEFINITIONS }),
    workerStarter: { startWorker: () => undefined },
    outbox: { enabled: true, runDispatcher: false },
  });
}

// Crashes and dropped connections need real OS processes and server backends: PostgreSQL only.
if (postgresServerUrl()) {
  describe('faults during a fan-out [postgres]', () => {
    let testDb: TestDatabase | undefined;
    let stack: FanOutStack | undefined;
    let closeAfter: Database | undefined;
    beforeEach(async () => {
      testDb = await createTestDatabase('postgres');
    }, 120_000);
    afterEach(async () => {
      await stack?.stop();
      stack = undefined;
      await closeAfter?.close();
      closeAfter = undefined;
      await testDb?.dispose();
    }, 60_000);

    it('kill -9 of the process owning the dispatcher mid-run: a new one finishes everything exactly once', async () => {
      const { database, url } = testDb!;
      const root = (await writerManager(database).createProcess({ processDefName: 'fan', args: { leaves: LEAVES } }))
        .mutatedEntity;
      // `node --import tsx` runs the TypeScript in this very process, so SIGKILL reaches it (the tsx CLI forks).
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'fixtures/crash-stack.ts'), url], {
        cwd: ROOT,
        env: {
          ...process.env,
          FW_LOG_LEVEL: 'silent',
          TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'),
          NODE_OPTIONS: '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      let atKill: number;
      try {
        await waitFor(
          async () => (await processedLeaves(database, root.id)) >= 20,
          60_000,
          `the child to process leaves (output: ${output})`,
        );
        atKill = await processedLeaves(database, root.id);
      } finally {
        child.kill('SIGKILL');
      }
      expect(await exited).toBe('SIGKILL');
      expect(atKill).toBeLessThan(LEAVES);

      stack = startFanOutStack(database, { outbox: { workerId: 'survivor' } });
      await waitFor(
        async () => (await summarize(database, root.id)).successors.some((s) => s.state_id === 'PROCESSED'),
        60_000,
        'the survivor to finish',
      );
      const s = await summarize(database, root.id);
      expect(s).toMatchObject({
        rootState: 'PROCESSED',
        numSubProcesses: LEAVES,
        numCompletedSubProcesses: LEAVES,
        leavesProcessed: LEAVES,
        childReports: LEAVES,
        completionAnomalies: 0,
      });
      expect(s.output).toEqual({ sum: sumTo(LEAVES), children: LEAVES });
      expect(s.successors).toHaveLength(1);
      expect(s.outbox.DEAD).toBeUndefined();
      const done = await sql<{
        n: string;
      }>`select count(*) as n from fw_process_outbox where locked_by = 'doomed-dispatcher' and status = 'DONE'`.execute(
        database.db,
      );
      expect(Number(done.rows[0].n)).toBeGreaterThan(0);
    }, 150_000);

    it('survives the server terminating every connection mid-run: pools reconnect, nothing is lost', async () => {
      const { url } = testDb!;
      const database = resilientPostgres(url);
      closeAfter = database;
      stack = startFanOutStack(database, { leafDelayMillis: 5 });
      const root = (await stack.manager.createProcess({ processDefName: 'fan', args: { leaves: LEAVES } }))
        .mutatedEntity;
      await waitFor(async () => (await processedLeaves(database, root.id)) >= 20, 60_000, 'leaves to start completing');
      const admin = createDatabase({ url, maxConnections: 1 });
      try {
        const killed = await sql<{ n: string }>`select count(pg_terminate_backend(pid)) as n from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`.execute(admin.db);
        expect(Number(killed.rows[0].n)).toBeGreaterThan(0);
      } finally {
        await admin.close();
      }
      // The observer's own pooled connections were terminated too: a poll that lands on one of them
      // before the pool has noticed fails once, and counts as "not finished yet".
      const finished = async () =>
        (await summarize(database, root.id)).successors.some((s) => s.state_id === 'PROCESSED');
      await waitFor(() => finished().catch(() => false), 90_000, 'the run to finish after the connections dropped');
      const s = await summarize(database, root.id);
      expect(s).toMatchObject({
        rootState: 'PROCESSED',
        numSubProcesses: LEAVES,
        numCompletedSubProcesses: LEAVES,
        leavesProcessed: LEAVES,
        childReports: LEAVES,
        completionAnomalies: 0,
      });
      expect(s.output).toEqual({ sum: sumTo(LEAVES), children: LEAVES });
      expect(s.successors).toHaveLength(1);
    }, 150_000);
  });
}
