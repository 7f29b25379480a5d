import { createDatabase, type Database } from '@fw/core';
import { createTestDatabase, describeEachDatabase, postgresServerUrl, type TestDatabase } from '@fw/test-support';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { makePgNotificationListener, makeWorkItemRunner, makeWorkItemStarter, type WorkItemRunner } from '../src';
import { enqueue, itemOf, itemsOf, sleep, waitFor, workerDto } from './support';

const ROOT = path.resolve(__dirname, '../../..');

describeEachDatabase('two runners', (getDb) => {
  let second: Database | undefined;
  const runners: WorkItemRunner[] = [];

  afterAll(async () => {
    await Promise.all(runners.map((r) => r.stop({ timeoutMillis: 1000 })));
    await second?.close();
  });

  it('never execute the same item twice, and execute every item once', async () => {
    const testDb = getDb();
    // On PostgreSQL the second runner has a pool of its own (as a second host would); PGlite has one connection.
    second = testDb.target === 'postgres' ? createDatabase({ url: testDb.url, maxConnections: 5 }) : undefined;
    const workers = Array.from({ length: 200 }, (_, i) => workerDto({ input: { i } }));
    await enqueue(testDb.database, workers);

    const executions = new Map<string, number>();
    const active = new Set<string>();
    const overlaps: string[] = [];
    const byRunner = { a: 0, b: 0 };
    const handlerOf = (name: 'a' | 'b') => async (worker: { processId: string }) => {
      if (active.has(worker.processId)) overlaps.push(worker.processId);
      active.add(worker.processId);
      executions.set(worker.processId, (executions.get(worker.processId) ?? 0) + 1);
      byRunner[name]++;
      await sleep(5);
      active.delete(worker.processId);
    };
    const common = { leaseSeconds: 30, pollIntervalMillis: 20, concurrency: 4, batchSize: 3 };
    runners.push(makeWorkItemRunner({ ...common, database: testDb.database, workerId: 'a', handler: handlerOf('a') }));
    runners.push(
      makeWorkItemRunner({ ...common, database: second ?? testDb.database, workerId: 'b', handler: handlerOf('b') }),
    );
    runners.forEach((r) => r.start());

    await waitFor(
      async () => (await itemsOf(testDb.database)).every((i) => i.status === 'SUCCESS'),
      25_000,
      'all items done',
    );
    expect(overlaps).toEqual([]);
    expect(executions.size).toBe(200);
    expect([...executions.values()].every((n) => n === 1)).toBe(true);
    expect(byRunner.a + byRunner.b).toBe(200);
    expect(byRunner.a).toBeGreaterThan(0);
    expect(byRunner.b).toBeGreaterThan(0);
    expect(runners[0]!.stats().completed + runners[1]!.stats().completed).toBe(200);
    expect((await itemsOf(testDb.database)).every((i) => i.attempts === 1)).toBe(true);
  });
});

// A crash needs a second operating-system process on the same database: PostgreSQL only.
if (postgresServerUrl()) {
  describe('a runner killed with SIGKILL mid-step [postgres]', () => {
    let testDb: TestDatabase | undefined;
    let runner: WorkItemRunner | undefined;
    beforeAll(async () => {
      testDb = await createTestDatabase('postgres');
    });
    afterAll(async () => {
      await runner?.stop({ timeoutMillis: 1000 });
      await testDb?.dispose();
    });

    it('loses its lease; another runner re-claims the item and completes it exactly once', async () => {
      const { database, url } = testDb!;
      const worker = workerDto();
      await enqueue(database, [worker]);

      // `node --import tsx` runs the TypeScript in this very process (the tsx CLI would fork a
      // grandchild that SIGKILL on the CLI would not reach); tsx reads the root tsconfig's paths.
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', path.join(__dirname, 'fixtures/crash-runner.ts'), url],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            FW_LOG_LEVEL: 'silent',
            TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'),
            NODE_OPTIONS: '',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      try {
        await waitFor(
          () => output.includes(`STARTED ${worker.processId}`),
          40_000,
          `the child runner to start the item (output: ${output})`,
        );
        expect(await itemOf(database, worker.processId)).toMatchObject({
          status: 'RUNNING',
          attempts: 1,
          locked_by: 'doomed',
        });
      } finally {
        child.kill('SIGKILL');
      }
      expect(await exited).toBe('SIGKILL');

      const executions: string[] = [];
      runner = makeWorkItemRunner({
        database,
        workerId: 'survivor',
        leaseSeconds: 1,
        pollIntervalMillis: 50,
        handler: async (w) => {
          executions.push(w.processId);
        },
      });
      runner.start();
      await waitFor(
        async () => (await itemOf(database, worker.processId)).status === 'SUCCESS',
        10_000,
        're-claim after the lease',
      );
      await sleep(300);
      expect(executions).toEqual([worker.processId]);
      expect(output.match(/STARTED/g)).toHaveLength(1);
      expect(await itemOf(database, worker.processId)).toMatchObject({
        status: 'SUCCESS',
        attempts: 2,
        locked_by: 'survivor',
      });
    }, 60_000);
  });

  describe('LISTEN/NOTIFY [postgres]', () => {
    let testDb: TestDatabase | undefined;
    let runner: WorkItemRunner | undefined;
    beforeAll(async () => {
      testDb = await createTestDatabase('postgres');
    });
    afterAll(async () => {
      await runner?.stop({ timeoutMillis: 1000 });
      await testDb?.dispose();
    });

    it('wakes a runner on another connection when an item commits, long before its next poll', async () => {
      const { database, url } = testDb!;
      const done: string[] = [];
      runner = makeWorkItemRunner({
        database,
        pollIntervalMillis: 60_000,
        wakeSource: makePgNotificationListener({ url }),
        handler: async (w) => {
          done.push(w.processId);
        },
      });
      runner.start();
      await sleep(500); // listening, first (empty) poll done
      const worker = workerDto();
      await enqueue(database, [worker], makeWorkItemStarter({ notify: true }));
      await waitFor(() => done.length === 1, 5000, 'notified runner');
      expect(done).toEqual([worker.processId]);
    });
  });
}
