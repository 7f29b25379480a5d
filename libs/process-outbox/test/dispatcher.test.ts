import { ConfigError, createDatabase, type Database } from '@fw/core';
import { describeEachDatabase } from '@fw/test-support';
import { sql, type Kysely } from 'kysely';
import {
  makeOutboxDispatcher,
  makeOutboxRepository,
  makeOutboxWriter,
  outboxDb,
  outboxOptionsFromProperties,
  resolveOutboxOptions,
  type OutboxCommandHandler,
  type OutboxEvent,
} from '../src';
import { sleep, waitFor } from './checks';

interface EffectTables {
  outbox_test_effect: { command_id: string; note: string };
}

describe('outbox options', () => {
  it('has the documented defaults', () => {
    expect(resolveOutboxOptions()).toEqual({
      enabled: false,
      runDispatcher: true,
      pollIntervalMillis: 1000,
      lockSeconds: 300,
      maxAttempts: 5,
      workerId: expect.stringMatching(/:\d+$/),
    });
  });
  it('reads property names and environment names; a property wins', () => {
    const o = outboxOptionsFromProperties({
      'fw.process.outbox.enabled': 'true',
      FW_PROCESS_OUTBOX_ENABLED: 'false',
      FW_PROCESS_OUTBOX_LOCK_SECONDS: '2.5',
      'fw.process.outbox.max-attempts': '3',
      'fw.process.outbox.run-dispatcher': 'false',
      'fw.process.outbox.poll-interval-millis': '50',
      'fw.process.outbox.worker-id': 'w-1',
    });
    expect(o).toEqual({
      enabled: true,
      runDispatcher: false,
      pollIntervalMillis: 50,
      lockSeconds: 2.5,
      maxAttempts: 3,
      workerId: 'w-1',
    });
  });
  it('refuses bad values naming the key', () => {
    expect(() => outboxOptionsFromProperties({ 'fw.process.outbox.enabled': 'yes' })).toThrow(ConfigError);
    expect(() => outboxOptionsFromProperties({ FW_PROCESS_OUTBOX_MAX_ATTEMPTS: '0' })).toThrow(
      /fw\.process\.outbox\.max-attempts/,
    );
    expect(() => outboxOptionsFromProperties({ 'fw.process.outbox.lock-seconds': 'abc' })).toThrow(/lock-seconds/);
  });
});

describeEachDatabase('outbox dispatcher', (getDb) => {
  const writer = makeOutboxWriter({ maxAttempts: 3 });
  const db = () => getDb().database.db as Kysely<EffectTables>;
  const effects = async (): Promise<Array<{ command_id: string; note: string }>> =>
    db().selectFrom('outbox_test_effect').selectAll().execute();
  const enqueue = (n: number, type = 'EFFECT') =>
    getDb()
      .database.db.transaction()
      .execute((trx) =>
        writer.enqueue(
          trx,
          Array.from({ length: n }, (_, i) => ({ commandType: type, groupKey: `g${i % 3}`, payload: { i } })),
        ),
      );
  const effect: OutboxCommandHandler<EffectTables> = {
    async execute(commands, { trx }) {
      await trx
        .insertInto('outbox_test_effect')
        .values(commands.map((c) => ({ command_id: c.id, note: 'done' })))
        .execute();
    },
  };

  beforeAll(async () => {
    await sql`create table outbox_test_effect (command_id uuid primary key, note text not null)`.execute(
      getDb().database.db,
    );
  });
  beforeEach(async () => {
    await sql`delete from outbox_test_effect; delete from fw_process_outbox; delete from fw_process_receipt`
      .execute(getDb().database.db)
      .catch(async () => {
        await sql`delete from outbox_test_effect`.execute(getDb().database.db);
        await sql`delete from fw_process_outbox`.execute(getDb().database.db);
        await sql`delete from fw_process_receipt`.execute(getDb().database.db);
      });
  });

  it('writes commands only when the transaction commits, and executes each once with a receipt', async () => {
    await expect(
      getDb()
        .database.db.transaction()
        .execute(async (trx) => {
          await writer.enqueue(trx, [{ commandType: 'EFFECT', payload: {} }]);
          throw new Error('rollback');
        }),
    ).rejects.toThrow('rollback');
    const ids = await enqueue(10);
    const dispatcher = makeOutboxDispatcher({ db: db(), handlers: { EFFECT: effect }, options: { workerId: 'd1' } });
    expect(await dispatcher.runOnce()).toBe(10);
    expect(await dispatcher.runOnce()).toBe(0);
    expect((await effects()).map((e) => e.command_id).sort()).toEqual([...ids].sort());
    const statuses = await outboxDb(db())
      .selectFrom('fw_process_outbox')
      .select(['status', 'locked_by', 'attempts'])
      .execute();
    expect(statuses.every((s) => s.status === 'DONE' && s.locked_by === 'd1' && Number(s.attempts) === 1)).toBe(true);
    expect(dispatcher.stats()).toMatchObject({ claimed: 10, done: 10, duplicates: 0 });
  });

  it('has no second effect for a command whose receipt exists (a re-run after a crash)', async () => {
    const [id] = await enqueue(1);
    await makeOutboxRepository().receive(outboxDb(db()), 'fw-process-outbox', [id]);
    const dispatcher = makeOutboxDispatcher({ db: db(), handlers: { EFFECT: effect } });
    expect(await dispatcher.runOnce()).toBe(1);
    expect(await effects()).toEqual([]);
    expect(dispatcher.stats()).toMatchObject({ done: 0, duplicates: 1 });
  });

  it('refuses the late acknowledgement of a dispatcher whose lease expired', async () => {
    await enqueue(1);
    const repo = makeOutboxRepository();
    // A lease long enough for the second claim to come within it even on a busy machine.
    const [a] = await repo.claim(outboxDb(db()), { workerId: 'a', limit: 5, leaseMillis: 1000 });
    expect(await repo.claim(outboxDb(db()), { workerId: 'b', limit: 5, leaseMillis: 60_000 })).toEqual([]);
    await sleep(1100);
    const [b] = await repo.claim(outboxDb(db()), { workerId: 'b', limit: 5, leaseMillis: 60_000 });
    expect(b).toMatchObject({ id: a.id, attempts: 2 });
    expect(await repo.complete(outboxDb(db()), [a.id], a.claimToken)).toBe(0);
    expect(await repo.complete(outboxDb(db()), [b.id], b.claimToken)).toBe(1);

    // The same through dispatchers: A claims, stalls past its lease, B re-claims and executes; A's ack is refused.
    await enqueue(1);
    let release: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    const events: OutboxEvent[] = [];
    const slowA = makeOutboxDispatcher({
      db: db(),
      handlers: { EFFECT: { ...effect, prepare: () => stalled } },
      options: { workerId: 'A', lockSeconds: 0.05 },
      onEvent: (e) => events.push(e),
    });
    const fastB = makeOutboxDispatcher({ db: db(), handlers: { EFFECT: effect }, options: { workerId: 'B' } });
    const runA = slowA.runOnce();
    await waitFor(() => events.some((e) => e.type === 'claimed'), 5000, 'A to claim');
    await sleep(120);
    expect(await fastB.runOnce()).toBe(1);
    release();
    await runA;
    expect(events.map((e) => e.type)).toEqual(['claimed', 'stale-ack']);
    expect(slowA.stats()).toMatchObject({ staleAcks: 1, done: 0 });
    expect(await effects()).toHaveLength(1); // B's execution only (the first command was acknowledged by hand)
  });

  it('retries with backoff and marks a command that always fails DEAD after max attempts, recording the failure in the same transaction', async () => {
    const [id] = await enqueue(1, 'BROKEN');
    const deadNotes: string[] = [];
    const broken: OutboxCommandHandler<EffectTables> = {
      async execute() {
        throw new Error('downstream refuses');
      },
      async onDead(command, error, { trx }) {
        deadNotes.push(error);
        await trx
          .insertInto('outbox_test_effect')
          .values({ command_id: command.id, note: `dead: ${error}` })
          .execute();
      },
    };
    const delays: number[] = [];
    const dispatcher = makeOutboxDispatcher({
      db: db(),
      handlers: { BROKEN: broken },
      backoff: (attempts) => (delays.push(attempts), 0),
    });
    for (let i = 0; i < 3; i++) expect(await dispatcher.runOnce()).toBe(1);
    expect(await dispatcher.runOnce()).toBe(0);
    const row = await outboxDb(db())
      .selectFrom('fw_process_outbox')
      .select(['status', 'attempts', 'last_error'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'DEAD', attempts: 3, last_error: 'downstream refuses' });
    expect(delays).toEqual([1, 2]);
    expect(deadNotes).toEqual(['downstream refuses']);
    expect(await effects()).toEqual([{ command_id: id, note: 'dead: downstream refuses' }]);
    expect(dispatcher.stats()).toMatchObject({ retried: 2, dead: 1 });
  });

  it('lets two dispatchers share the work without ever executing a command twice or concurrently', async () => {
    const testDb = getDb();
    const second: Database | undefined =
      testDb.target === 'postgres' ? createDatabase({ url: testDb.url, maxConnections: 5 }) : undefined;
    try {
      await enqueue(300);
      const active = new Set<string>();
      const seen = new Map<string, number>();
      const overlaps: string[] = [];
      const byDispatcher = { a: 0, b: 0 };
      const tracking = (name: 'a' | 'b'): OutboxCommandHandler<EffectTables> => ({
        async execute(commands, ctx) {
          for (const c of commands) {
            if (active.has(c.id)) overlaps.push(c.id);
            active.add(c.id);
            seen.set(c.id, (seen.get(c.id) ?? 0) + 1);
          }
          byDispatcher[name] += commands.length;
          await sleep(5);
          await effect.execute(commands, ctx);
          for (const c of commands) active.delete(c.id);
        },
      });
      const common = { batchSize: 7, options: { pollIntervalMillis: 10, lockSeconds: 30 } };
      const a = makeOutboxDispatcher({
        ...common,
        db: db(),
        handlers: { EFFECT: tracking('a') },
        options: { ...common.options, workerId: 'a' },
      });
      const b = makeOutboxDispatcher({
        ...common,
        db: (second?.db ?? db()) as Kysely<EffectTables>,
        handlers: { EFFECT: tracking('b') },
        options: { ...common.options, workerId: 'b' },
      });
      a.start();
      b.start();
      await waitFor(async () => (await effects()).length === 300, 30_000, 'all commands executed');
      await Promise.all([a.stop(), b.stop()]);
      expect(overlaps).toEqual([]);
      expect(seen.size).toBe(300);
      expect([...seen.values()].every((n) => n === 1)).toBe(true);
      expect(byDispatcher.a).toBeGreaterThan(0);
      expect(byDispatcher.b).toBeGreaterThan(0);
    } finally {
      await second?.close();
    }
  });
});
