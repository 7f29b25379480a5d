import { createDatabase, type Database } from '@fw/core';
import { createTestDatabase, describeEachDatabase, postgresServerUrl, type TestDatabase } from '@fw/test-support';
import { sql, type Kysely } from 'kysely';
import {
  makeOutboxDispatcher,
  makeOutboxWriter,
  type OutboxCommand,
  type OutboxCommandHandler,
  type OutboxDispatcher,
  type OutboxDispatcherOptions,
  type OutboxEvent,
} from '../src';
import { sleep, waitFor } from './checks';

/**
 * Two dispatchers over one outbox (the second with a pool of its own on PostgreSQL, as a second host
 * would have; PGlite has one connection to share), handlers that record who ran what and when.
 */
function twoHosts(getTestDb: () => TestDatabase) {
  const writer = makeOutboxWriter({ maxAttempts: 3 });
  const db = () => getTestDb().database.db;
  let second: Database | undefined;
  const started: OutboxDispatcher[] = [];
  const runs: Array<{ by: string; ids: string[] }> = [];

  beforeAll(() => {
    second =
      getTestDb().target === 'postgres' ? createDatabase({ url: getTestDb().url, maxConnections: 5 }) : undefined;
  });
  afterAll(async () => {
    await second?.close();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((d) => d.stop()));
    runs.length = 0;
    await sql`delete from fw_process_outbox`.execute(db());
    await sql`delete from fw_process_receipt`.execute(db());
  });

  return {
    db,
    runs,
    /** Commands of type SLOW, one per group key, in one committed transaction. */
    enqueue: (groups: string[]) =>
      db()
        .transaction()
        .execute((trx) =>
          writer.enqueue(
            trx,
            groups.map((groupKey) => ({ commandType: 'SLOW', groupKey, payload: {} })),
          ),
        ),
    /** A started dispatcher whose SLOW handler records its run under `by` and takes `millis`. */
    start(
      by: string,
      millis: number,
      options: Omit<OutboxDispatcherOptions<unknown>, 'db' | 'handlers'>,
      host: 'first' | 'second' = 'first',
    ): OutboxDispatcher {
      const slow: OutboxCommandHandler<unknown> = {
        async execute(commands: readonly OutboxCommand[]) {
          runs.push({ by, ids: commands.map((c) => c.id) });
          await sleep(millis);
        },
      };
      const handle = host === 'second' && second !== undefined ? second.db : db();
      const d = makeOutboxDispatcher({ ...options, db: handle as Kysely<unknown>, handlers: { SLOW: slow } });
      started.push(d);
      d.start();
      return d;
    },
  };
}

describeEachDatabase('outbox heartbeat', (getDb) => {
  const hosts = twoHosts(getDb);

  it('keeps a command whose handler runs longer than lock-seconds from a second dispatcher: it runs once, and its acknowledgement is accepted', async () => {
    const [id] = await hosts.enqueue(['g1']);
    const eventsA: OutboxEvent[] = [];
    const a = hosts.start('A', 2500, {
      options: { workerId: 'A', lockSeconds: 1, pollIntervalMillis: 50 },
      onEvent: (e) => eventsA.push(e),
    });
    await waitFor(() => hosts.runs.length === 1, 5000, 'A to start the command');
    const b = hosts.start('B', 0, { options: { workerId: 'B', lockSeconds: 1, pollIntervalMillis: 50 } }, 'second');
    await waitFor(() => a.stats().done === 1, 10_000, 'A to finish');
    await sleep(300);
    expect(hosts.runs.map((r) => r.by)).toEqual(['A']);
    expect(eventsA.map((e) => e.type)).toEqual(['claimed', 'done']);
    expect(a.stats()).toMatchObject({ claimed: 1, done: 1, staleAcks: 0 });
    expect(b.stats()).toMatchObject({ claimed: 0, done: 0 });
    const row = await sql<{
      status: string;
      attempts: number;
      locked_by: string;
    }>`select status, attempts, locked_by from fw_process_outbox where id = ${id}`.execute(hosts.db());
    expect(row.rows).toEqual([{ status: 'DONE', attempts: 1, locked_by: 'A' }]);
  });
});

// The groups of one claim wait for a free lane; the heartbeat renews their leases meanwhile. This
// needs two real connections: on PGlite the second dispatcher's claim and the heartbeat both queue
// behind the running group's transaction on the one connection, in an order no test controls.
if (postgresServerUrl()) {
  describe('outbox heartbeat of waiting groups [postgres]', () => {
    let testDb: TestDatabase | undefined;
    beforeAll(async () => {
      testDb = await createTestDatabase('postgres');
    }, 120_000);
    afterAll(async () => {
      await testDb?.dispose();
    }, 60_000);
    const hosts = twoHosts(() => testDb!);

    it('renews the leases of the groups waiting for a lane, so no other dispatcher takes them', async () => {
      await hosts.enqueue(['g1', 'g2', 'g3']);
      const a = hosts.start('A', 1300, {
        concurrency: 1,
        options: { workerId: 'A', lockSeconds: 1, pollIntervalMillis: 50 },
      });
      await waitFor(() => hosts.runs.length === 1, 5000, 'A to start the first group');
      const b = hosts.start('B', 0, { options: { workerId: 'B', lockSeconds: 1, pollIntervalMillis: 50 } }, 'second');
      await waitFor(() => a.stats().done === 3 || a.stats().staleAcks > 0, 15_000, 'A to finish its three groups');
      expect(hosts.runs.map((r) => r.by)).toEqual(['A', 'A', 'A']);
      expect(a.stats()).toMatchObject({ claimed: 3, done: 3, staleAcks: 0 });
      expect(b.stats().claimed).toBe(0);
      const rows = await sql<{
        status: string;
        attempts: number;
        locked_by: string;
      }>`select status, attempts, locked_by from fw_process_outbox`.execute(hosts.db());
      expect(rows.rows).toEqual(Array.from({ length: 3 }, () => ({ status: 'DONE', attempts: 1, locked_by: 'A' })));
    });

    it('without it (heartbeat: false) a waiting group is taken over after lock-seconds and the late acknowledgement refused', async () => {
      await hosts.enqueue(['g1', 'g2']);
      const a = hosts.start('A', 1500, {
        concurrency: 1,
        heartbeat: false,
        options: { workerId: 'A', lockSeconds: 0.5, pollIntervalMillis: 50 },
      });
      await waitFor(() => hosts.runs.length === 1, 5000, 'A to start the first group');
      const b = hosts.start('B', 0, { options: { workerId: 'B', lockSeconds: 30, pollIntervalMillis: 50 } }, 'second');
      await waitFor(() => a.stats().done + a.stats().staleAcks === 2, 15_000, 'A to get through both groups');
      expect(b.stats()).toMatchObject({ claimed: 1, done: 1 });
      expect(a.stats()).toMatchObject({ done: 1, staleAcks: 1 });
      // A never ran the group B took over: the acknowledgement comes first, and it was refused.
      expect(hosts.runs.map((r) => r.by).sort()).toEqual(['A', 'B']);
    });
  });
}
