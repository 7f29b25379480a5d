import { ConfigError } from '@fw/core';
import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import {
  makeOutboxDispatcher,
  makeOutboxRepository,
  makeOutboxWriter,
  outboxDb,
  outboxOptionsFromProperties,
  resolveOutboxOptions,
  type OutboxCommandHandler,
  type OutboxDispatcher,
} from '../src';
import { waitFor } from './checks';

const HOUR = 3_600_000;

describe('fw.process.outbox.done-retention-millis (our addition)', () => {
  it('is read from a property or the environment and checked; absent, the documented options resolve unchanged', () => {
    expect(
      outboxOptionsFromProperties({ 'fw.process.outbox.done-retention-millis': '3600000' }).doneRetentionMillis,
    ).toBe(HOUR);
    expect(outboxOptionsFromProperties({ FW_PROCESS_OUTBOX_DONE_RETENTION_MILLIS: '0' }).doneRetentionMillis).toBe(0);
    expect('doneRetentionMillis' in resolveOutboxOptions()).toBe(false);
    expect(() => outboxOptionsFromProperties({ 'fw.process.outbox.done-retention-millis': '-1' })).toThrow(ConfigError);
    expect(() => resolveOutboxOptions({ doneRetentionMillis: Number.NaN })).toThrow(/done-retention-millis/);
  });
});

describeEachDatabase('retention of DONE outbox commands', (getDb) => {
  const writer = makeOutboxWriter({ maxAttempts: 1 });
  const db = () => getDb().database.db;
  const noop: OutboxCommandHandler<unknown> = { execute: async () => undefined };
  const failing: OutboxCommandHandler<unknown> = { execute: async () => Promise.reject(new Error('boom')) };
  const dispatchers: OutboxDispatcher[] = [];

  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
    for (const table of ['fw_process_outbox', 'fw_process_receipt'])
      await sql`delete from ${sql.table(table)}`.execute(db());
  });

  /** DONE commands finished 2 h and 9 days ago, a DEAD one 9 days ago, one PENDING, one DONE of another type 9 days ago; receipts of two consumers. */
  async function seed(): Promise<Record<string, string>> {
    const names = ['recent', 'old', 'dead', 'pending', 'otherType'];
    const ids = await db()
      .transaction()
      .execute((trx) =>
        writer.enqueue(
          trx,
          names.map((name) => ({
            commandType: name === 'dead' ? 'FAILS' : name === 'otherType' ? 'OTHER' : 'EFFECT',
            payload: { name },
          })),
        ),
      );
    const byName = Object.fromEntries(names.map((n, i) => [n, ids[i]]));
    const seeding = makeOutboxDispatcher({
      db: db(),
      handlers: { EFFECT: noop, FAILS: failing, OTHER: noop },
      options: { workerId: 'seed' },
    });
    await db()
      .transaction()
      .execute((trx) =>
        sql`update fw_process_outbox set run_at = now() + interval '1 hour' where id = ${byName.pending}`.execute(trx),
      );
    expect(await seeding.runOnce()).toBe(4);
    await sql`update fw_process_outbox set run_at = now() where id = ${byName.pending}`.execute(db());
    await sql`insert into fw_process_receipt (consumer, command_id) select 'elsewhere', id from fw_process_outbox where status = 'DONE'`.execute(
      db(),
    );
    await sql`update fw_process_outbox set finished_at = now() - interval '2 hours' where id = ${byName.recent}`.execute(
      db(),
    );
    await sql`update fw_process_outbox set finished_at = now() - interval '9 days' where id = any(${[byName.old, byName.dead, byName.otherType]}::uuid[])`.execute(
      db(),
    );
    return Object.fromEntries(Object.entries(byName).map(([n, id]) => [id, n]));
  }

  const remaining = async (names: Record<string, string>) =>
    (await outboxDb(db()).selectFrom('fw_process_outbox').select('id').execute()).map((r) => names[r.id]!).sort();
  const receipts = async (names: Record<string, string>) =>
    (await outboxDb(db()).selectFrom('fw_process_receipt').select(['consumer', 'command_id']).execute())
      .map((r) => `${r.consumer}:${names[r.command_id]}`)
      .sort();

  it('deletes DONE commands older than 7 days by default with their receipts, and keeps newer, DEAD, waiting and other types', async () => {
    const names = await seed();
    expect(await receipts(names)).toEqual([
      'elsewhere:old',
      'elsewhere:otherType',
      'elsewhere:recent',
      'fw-process-outbox:old',
      'fw-process-outbox:otherType',
      'fw-process-outbox:recent',
    ]);
    const dispatcher = makeOutboxDispatcher({
      db: db(),
      handlers: { EFFECT: noop },
      retentionIntervalMillis: 50,
      retentionBatchSize: 1,
      options: { workerId: 'sweeper', pollIntervalMillis: 20 },
    });
    dispatchers.push(dispatcher);
    dispatcher.start();
    // the sweep (at start) and the run of the waiting command are independent: wait for both
    await waitFor(
      async () => dispatcher.stats().done === 1 && !(await remaining(names)).includes('old'),
      10_000,
      'the 9-day-old command deleted and the waiting one run',
    );
    expect(await remaining(names)).toEqual(['dead', 'otherType', 'pending', 'recent']);
    // its own consumer's receipt went with the command; another consumer's receipts stay
    expect(await receipts(names)).toEqual([
      'elsewhere:old',
      'elsewhere:otherType',
      'elsewhere:recent',
      'fw-process-outbox:otherType',
      'fw-process-outbox:pending',
      'fw-process-outbox:recent',
    ]);
  });

  it('uses the property value, and keeps everything with 0', async () => {
    const names = await seed();
    const keeping = makeOutboxDispatcher({
      db: db(),
      handlers: { EFFECT: noop, OTHER: noop },
      retentionIntervalMillis: 10,
      options: { workerId: 'k', pollIntervalMillis: 10, doneRetentionMillis: 0 },
    });
    dispatchers.push(keeping);
    keeping.start();
    await waitFor(() => keeping.stats().done === 1, 5000, 'the pending command run');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await remaining(names)).toEqual(['dead', 'old', 'otherType', 'pending', 'recent']);
    await keeping.stop();

    const hourly = makeOutboxDispatcher({
      db: db(),
      handlers: { EFFECT: noop, OTHER: noop },
      retentionIntervalMillis: 10,
      options: { workerId: 'h', pollIntervalMillis: 10, doneRetentionMillis: HOUR },
    });
    dispatchers.push(hourly);
    hourly.start();
    await waitFor(
      async () => (await remaining(names)).length === 2,
      10_000,
      'DONE commands older than an hour deleted',
    );
    expect(await remaining(names)).toEqual(['dead', 'pending']);
  });

  it('lets the repository purge in batches', async () => {
    const names = await seed();
    const repo = makeOutboxRepository();
    const purge = () =>
      repo.purgeDone(outboxDb(db()), {
        olderThanMillis: HOUR,
        limit: 2,
        consumers: ['fw-process-outbox', 'elsewhere'],
      });
    expect(await purge()).toBe(2);
    expect(await purge()).toBe(1);
    expect(await purge()).toBe(0);
    expect(await remaining(names)).toEqual(['dead', 'pending']);
    expect(await receipts(names)).toEqual([]);
  });
});
