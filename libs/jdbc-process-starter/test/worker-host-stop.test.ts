import * as path from 'node:path';
import { sql } from 'kysely';
import { makeJsonProcessConfigurator } from '@fw/process-service';
import {
  createTestDatabase,
  databaseTargets,
  describeEachDatabase,
  spawnScript,
  stopMidTree,
  waitForTreeFinished,
  type SpawnedScript,
  type TestDatabase,
} from '@fw/test-support';
import { makeJdbcWorkerHost } from '../src';
import { AddParts, SplitSum, SUM_DEFINITIONS, SumPart } from './fixtures/sum-workers';

/**
 * SIGTERM in the middle of a running tree, with real processes on PostgreSQL: the README's worker
 * host (makeJdbcWorkerHost + stopOnSignals) drains, gives its leases back and exits by itself
 * by itself (within the drain plus a few seconds, well inside a container's kill timeout); a second host started right after finishes the tree, each child
 * counted once, long before any lease (120 s here) could have expired.
 */
const FIXTURE = path.join(__dirname, 'fixtures/worker-host.ts');
const NUMBERS = Array.from({ length: 12 }, (_, i) => i + 1);
const DRAIN_MILLIS = 300;

function startHost(url: string, stepMillis: number, numbers?: number[]): SpawnedScript {
  return spawnScript(FIXTURE, [url, String(stepMillis), String(DRAIN_MILLIS), ...(numbers ? [numbers.join(',')] : [])]);
}

describeEachDatabase('makeJdbcWorkerHost (in process)', (getDb) => {
  it('runs a tree to PROCESSED with one recovery time for both leases, and stops once', async () => {
    const host = makeJdbcWorkerHost({
      database: getDb().database,
      closeDatabase: false,
      configurator: makeJsonProcessConfigurator({ definitions: SUM_DEFINITIONS }),
      workers: [new SplitSum(), new SumPart(0), new AddParts()],
      recoverySeconds: 7,
      runner: { pollIntervalMillis: 50 },
      outbox: { pollIntervalMillis: 50 },
    });
    expect(host.manager.outbox?.options.lockSeconds).toBe(7);
    host.start();
    const { mutatedEntity } = await host.manager.createProcess(
      { processDefName: 'sum', args: { numbers: [2, 3, 4] } },
      { tenant: 't1' },
    );
    const until = Date.now() + 30_000;
    let root = (await host.manager.getProcess(mutatedEntity.id, { tenant: 't1' })).mutatedEntity;
    while (root.state.stateId !== 'PROCESSED' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      root = (await host.manager.getProcess(mutatedEntity.id, { tenant: 't1' })).mutatedEntity;
    }
    expect(root.output).toEqual({ total: 9, parts: 3 });
    const stopped = await host.stop({ drainMillis: 1_000 });
    expect(stopped).toMatchObject({ released: 0 });
    expect(await host.stop()).toBe(stopped);
  });

  it('refuses a recovery time that is not a positive number', () => {
    const options = {
      database: getDb().database,
      configurator: makeJsonProcessConfigurator({ definitions: SUM_DEFINITIONS }),
      workers: [],
    };
    expect(() => makeJdbcWorkerHost({ ...options, recoverySeconds: 0 })).toThrow(
      /recoverySeconds must be a positive number of seconds, got 0/,
    );
  });
});

// Registered only when FW_TEST_DATABASE_URL names a server: two processes share one database.
for (const _target of databaseTargets().filter((t) => t === 'postgres')) {
  describe('JDBC worker host stopped by SIGTERM mid-tree (real processes) [postgres]', () => {
    let testDb: TestDatabase;
    beforeAll(async () => {
      testDb = await createTestDatabase('postgres');
    }, 60_000);
    afterAll(async () => {
      await testDb.dispose();
    }, 60_000);

    it('drains, releases its claims and exits by itself soon after the drain; a second host completes the tree exactly once', async () => {
      const first = startHost(testDb.url, 1500, NUMBERS);
      // Mid-tree: some leaves finished, others running (started after those ended).
      const { rootId, interrupted, exitCode, stopMillis } = await stopMidTree(first);
      expect(interrupted).toBeGreaterThan(0);
      expect(exitCode).toBe(0);
      // Well inside a container's 10 s kill timeout; the figure on an idle machine is printed below.
      expect(stopMillis).toBeLessThan(DRAIN_MILLIS + 6_000);
      expect(first.output()).not.toContain('still keeps the process alive');

      // Nothing of the first host is still leased: its running items were released at once.
      const leased = await sql<{
        n: number;
      }>`select count(*)::int as n from fw_process_work_item where status = 'RUNNING'`.execute(testDb.database.db);
      expect(leased.rows[0].n).toBe(0);
      const leasedCommands = await sql<{
        n: number;
      }>`select count(*)::int as n from fw_process_outbox where status = 'RUNNING'`.execute(testDb.database.db);
      expect(leasedCommands.rows[0].n).toBe(0);

      const resumed = Date.now();
      const second = startHost(testDb.url, 50);
      try {
        const tree = await waitForTreeFinished(testDb.database, rootId, 30_000, () => second.output());
        // Far below the 120 s lease: nothing waited for an expiry.
        expect(tree).toMatchObject({
          stateId: 'PROCESSED',
          output: { total: NUMBERS.reduce((a, b) => a + b, 0), parts: NUMBERS.length },
          numCompletedSubProcesses: NUMBERS.length,
        });
        expect(tree.childStates).toEqual({ PROCESSED: NUMBERS.length });
        expect(tree.childReports).toEqual({ total: NUMBERS.length, distinctChildren: NUMBERS.length });
        const resumeMillis = Date.now() - resumed;
        // The root is PROCESSED when the aggregator's transaction commits; the runner acknowledges
        // that last work item just after, in its own statement. Give it a moment, then every item
        // must be SUCCESS (none DEAD, none left RUNNING by the first host).
        const unfinished = async () =>
          (
            await sql<{
              n: number;
            }>`select count(*)::int as n from fw_process_work_item where status <> 'SUCCESS'`.execute(
              testDb.database.db,
            )
          ).rows[0].n;
        for (const deadline = Date.now() + 10_000; (await unfinished()) > 0 && Date.now() < deadline;)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await unfinished()).toBe(0);
        process.stdout.write(
          `worker host stop: ${stopMillis} ms after SIGTERM (drain ${DRAIN_MILLIS} ms, ${interrupted} step(s) interrupted); tree resumed and finished in ${resumeMillis} ms\n`,
        );
      } finally {
        second.child.kill('SIGTERM');
        expect(await second.exited).toBe(0);
      }
    }, 120_000);
  });
}
