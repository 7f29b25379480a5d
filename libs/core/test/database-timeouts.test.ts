/**
 * Where a Database's timeouts are applied: never as startup parameters; per transaction always;
 * per session only without a transaction pooler. `capTimeouts` lowers fw's defaults, not explicit
 * values. Migrations serialise on a transaction-level lock, so concurrent runs apply each once.
 */
import { createDatabase, migrateDatabase, parseDatabasePooler, type Database } from '@fw/core';
import { createTestDatabase, databaseTargets } from '@fw/test-support';
import { sql } from 'kysely';
import { capDefaultTimeouts, resolveSessionTimeouts, timeoutSettingsSql } from '../src/database/session-settings';

describe('session timeouts (settings)', () => {
  it('resolves fw defaults, keeps explicit values, and caps only the defaults', () => {
    const defaults = resolveSessionTimeouts({});
    expect(defaults).toEqual({
      timeouts: { idleInTransactionMillis: 15_000 },
      explicit: { idleInTransaction: false, lock: false },
    });
    expect(capDefaultTimeouts(defaults, 3000).timeouts).toEqual({ idleInTransactionMillis: 3000, lockMillis: 3000 });
    expect(capDefaultTimeouts(defaults, 60_000).timeouts).toEqual({
      idleInTransactionMillis: 15_000,
      lockMillis: 60_000,
    });
    const explicit = resolveSessionTimeouts({ idleInTransactionTimeoutMillis: 30_000, lockTimeoutMillis: 0 });
    expect(capDefaultTimeouts(explicit, 3000).timeouts).toEqual({ idleInTransactionMillis: 30_000, lockMillis: 0 });
    expect(() => capDefaultTimeouts(defaults, 0)).toThrow(RangeError);
  });

  it('writes SET LOCAL for what differs from the session, and nothing for what is unset', () => {
    expect(
      timeoutSettingsSql({ idleInTransactionMillis: 3000, lockMillis: 3000 }, 'local', {
        idleInTransactionMillis: 15_000,
      }),
    ).toBe('set local idle_in_transaction_session_timeout = 3000; set local lock_timeout = 3000');
    expect(timeoutSettingsSql({ idleInTransactionMillis: 15_000 }, 'local', { idleInTransactionMillis: 15_000 })).toBe(
      '',
    );
    expect(timeoutSettingsSql({ statementMillis: 500, idleInTransactionMillis: 0 }, 'session')).toBe(
      'set statement_timeout = 500; set idle_in_transaction_session_timeout = 0',
    );
  });

  it('refuses at creation what cannot hold behind a transaction pooler, saying what to set instead', () => {
    expect(() =>
      createDatabase({ url: 'postgres://db/x', pooler: 'transaction', statementTimeoutMillis: 5000 }),
    ).toThrow(/ALTER ROLE <user> SET statement_timeout = '5000ms'/);
    expect(() => createDatabase({ url: 'postgres://db/x', idleInTransactionTimeoutMillis: -1 })).toThrow(
      /idleInTransactionTimeoutMillis must be a whole number/,
    );
    expect(parseDatabasePooler(undefined, 'X')).toBe('none');
    expect(parseDatabasePooler(' Transaction ', 'X')).toBe('transaction');
    expect(() => parseDatabasePooler('pgbouncer', 'PROCESS_DATABASE_POOLER')).toThrow(
      /PROCESS_DATABASE_POOLER must be one of none, session, transaction/,
    );
  });
});

for (const target of databaseTargets().filter((t) => t === 'postgres')) {
  describe(`session timeouts on a server [${target}]`, () => {
    const show = async (database: Database, inTransaction: boolean) => {
      const read = sql<{
        idle: string;
        lock: string;
      }>`select current_setting('idle_in_transaction_session_timeout') as idle, current_setting('lock_timeout') as lock`;
      return inTransaction
        ? (await database.db.transaction().execute((trx) => read.execute(trx))).rows[0]
        : (await read.execute(database.db)).rows[0];
    };

    it('applies the defaults to the session and every transaction; a capped handle only to its transactions', async () => {
      const testDb = await createTestDatabase(target, { migrate: false });
      const database = createDatabase({ url: testDb.url, maxConnections: 1 });
      try {
        const capped = database.capTimeouts?.(3000) as Database;
        expect(capped.timeouts).toEqual({ idleInTransactionMillis: 3000, lockMillis: 3000 });
        expect(await show(database, false)).toEqual({ idle: '15s', lock: '0' });
        expect(await show(capped, true)).toEqual({ idle: '3s', lock: '3s' });
        // SET LOCAL ends with the transaction: the shared connection is back on its session values.
        expect(await show(database, true)).toEqual({ idle: '15s', lock: '0' });
        // Isolation levels keep working with the settings in the same round trip.
        const level = await capped.db
          .transaction()
          .setIsolationLevel('serializable')
          .execute(
            async (trx) =>
              (await sql<{ l: string }>`select current_setting('transaction_isolation') as l`.execute(trx)).rows[0].l,
          );
        expect(level).toBe('serializable');
        // Closing the capped handle closes the shared connections too.
        await capped.close();
        await expect(sql`select 1`.execute(database.db)).rejects.toThrow();
      } finally {
        await database.close();
        await testDb.dispose();
      }
    });

    it("with pooler 'transaction' sets nothing on the session, everything on each transaction", async () => {
      const testDb = await createTestDatabase(target, { migrate: false });
      const database = createDatabase({
        url: testDb.url,
        maxConnections: 1,
        pooler: 'transaction',
        lockTimeoutMillis: 700,
      });
      try {
        expect(await show(database, false)).toEqual({ idle: '0', lock: '0' });
        expect(await show(database, true)).toEqual({ idle: '15s', lock: '700ms' });
        expect(await show(database.capTimeouts?.(2000) as Database, true)).toEqual({ idle: '2s', lock: '700ms' });
      } finally {
        await database.close();
        await testDb.dispose();
      }
    });

    it('ends a transaction left idle by a frozen holder after the capped timeout, freeing its locks', async () => {
      const testDb = await createTestDatabase(target, { migrate: false });
      const database = createDatabase({ url: testDb.url, pooler: 'transaction' });
      const capped = database.capTimeouts?.(600) as Database;
      try {
        await sql`create table frozen (id int primary key, n int)`.execute(database.db);
        await sql`insert into frozen values (1, 0)`.execute(database.db);
        const holder = capped.db.transaction().execute(async (trx) => {
          await sql`update frozen set n = n + 1 where id = 1`.execute(trx);
          await new Promise((resolve) => setTimeout(resolve, 2500)); // "frozen": nothing sent inside the transaction
        });
        holder.catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
        const began = Date.now();
        await sql`update frozen set n = n + 10 where id = 1`.execute(database.db);
        expect(Date.now() - began).toBeLessThan(1500);
        await expect(holder).rejects.toThrow();
        expect((await sql<{ n: number }>`select n from frozen`.execute(database.db)).rows).toEqual([{ n: 10 }]);
      } finally {
        await database.close();
        await testDb.dispose();
      }
    });

    it('applies each migration once when runs race, and leaves no advisory lock behind', async () => {
      const testDb = await createTestDatabase(target, { migrate: false });
      const handles = [0, 1, 2].map(() => createDatabase({ url: testDb.url, maxConnections: 1 }));
      try {
        const migrations = Array.from({ length: 8 }, (_, i) => ({
          name: `000${i}_t.sql`,
          sql: `create table t${i} (id int); select pg_sleep(0.02);`,
        }));
        const results = await Promise.all(handles.map((h) => migrateDatabase(h, migrations)));
        const applied = results.flatMap((r) => r.applied).sort();
        expect(applied).toEqual(migrations.map((m) => m.name));
        for (const r of results)
          expect([...r.applied, ...r.alreadyApplied].sort()).toEqual(migrations.map((m) => m.name));
        const locks = await handles[0].withSession((s) =>
          s.query(`select 1 from pg_locks where locktype = 'advisory'`),
        );
        expect(locks).toEqual([]);
      } finally {
        await Promise.all(handles.map((h) => h.close()));
        await testDb.dispose();
      }
    });
  });
}
