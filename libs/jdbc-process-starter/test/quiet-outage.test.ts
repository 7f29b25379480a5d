/**
 * A runner that loses its database says so once and once when it is back (with the outage's
 * length and failed attempts), not once per poll: PostgreSQL is reached through a TCP relay that
 * the test cuts for about 1.5 s while the runner polls every 20 ms. Then the runner works again.
 */
import { createDatabase, createLogger, type Database } from '@fw/core';
import {
  createTestDatabase,
  openTcpRelay,
  postgresServerUrl,
  type TcpRelay,
  type TestDatabase,
} from '@fw/test-support';
import { makeWorkItemRunner, type WorkItemRunner } from '../src';
import { enqueue, itemOf, waitFor, workerDto } from './support';

const describePostgres = postgresServerUrl() ? describe : describe.skip;

describePostgres('a work-item runner during a database outage [postgres]', () => {
  let testDb: TestDatabase;
  let relay: TcpRelay;
  let relayed: Database;
  let runner: WorkItemRunner | undefined;

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    const url = new URL(testDb.url);
    relay = await openTcpRelay(url.hostname, Number(url.port || 5432));
    url.hostname = '127.0.0.1';
    url.port = String(relay.port);
    relayed = createDatabase({ url: url.toString() });
  }, 120_000);

  afterAll(async () => {
    await runner?.stop({ timeoutMillis: 1000 });
    await relayed?.close();
    await relay?.close();
    await testDb?.dispose();
  });

  it('logs one warning when the database goes, one line when it is back, and runs items again', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({
      name: 'outage-test',
      level: 'info',
      destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    });
    const done: string[] = [];
    runner = makeWorkItemRunner({
      database: relayed,
      pollIntervalMillis: 20,
      leaseSeconds: 5,
      logger,
      handler: async (w) => void done.push(w.processId),
    });
    runner.start();
    const before = workerDto();
    await enqueue(testDb.database, [before]);
    await waitFor(async () => (await itemOf(testDb.database, before.processId)).status === 'SUCCESS', 10_000);
    lines.length = 0;
    relay.cut();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    relay.restore();
    const after = workerDto();
    await enqueue(testDb.database, [after]);
    await waitFor(async () => done.includes(after.processId), 15_000);
    await waitFor(async () => (await itemOf(testDb.database, after.processId)).status === 'SUCCESS', 10_000);
    const warnings = lines.filter((l) => Number(l.level) >= 40);
    const back = lines.filter((l) => String(l.msg).includes('has its database back'));
    expect(warnings.map((l) => l.msg)).toEqual([
      'work-item runner lost its database: claims, heartbeats and sweeps retry quietly until it answers again',
    ]);
    expect(back).toHaveLength(1);
    expect(Number(back[0].outageMillis)).toBeGreaterThanOrEqual(1000);
    // Polling every 20 ms for ~1.5 s: dozens of failed attempts, one line each way.
    expect(Number(back[0].failedAttempts)).toBeGreaterThan(5);
  });
});
