import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { sql } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import {
  createDatabase,
  migrateDatabase,
  orderMigrations,
  assertTablesExist,
  parseDatabaseUrl,
  isConfigError,
} from '../src';
import { createTestDatabase, databaseTargets, describeEachDatabase } from '@fw/test-support';

describeEachDatabase('database access', (getDb) => {
  it('runs parameterised queries and returns numbers for int8 and numeric', async () => {
    const { database } = getDb();
    const { rows } = await sql<{
      n: number;
      total: number;
      big: string;
    }>`select count(*) as n, 12.50::numeric as total, 9007199254740993::int8::text as big from (values (1),(2)) v(x) where x > ${0}`.execute(
      database.db,
    );
    expect(rows).toEqual([{ n: 2, total: 12.5, big: '9007199254740993' }]);
  });

  it('query() runs a statement on a pooled connection with the same conversions as Kysely', async () => {
    const { database } = getDb();
    const query = database.query;
    if (!query) throw new Error('createDatabase must provide query()');
    const rows = await query<{ n: number; total: number; tags: string[] }>(
      'select count(*) as n, 12.50::numeric as total, $2::text[] as tags from (values (1),(2)) v(x) where x > $1',
      [0, ['a', 'b']],
    );
    expect(rows).toEqual([{ n: 2, total: 12.5, tags: ['a', 'b'] }]);
    // Two at once: the pool serves both (PGlite queues them on its single connection).
    const [a, b] = await Promise.all([
      query<{ v: number }>('select 1 as v'),
      query<{ v: number }>('select $1::int as v', [2]),
    ]);
    expect([a, b]).toEqual([[{ v: 1 }], [{ v: 2 }]]);
    await expect(query('select * from no_such_table')).rejects.toThrow(/no_such_table/);
    expect(await query<{ v: number }>('select 3 as v')).toEqual([{ v: 3 }]);
  });

  it('query() waits for a running transaction instead of running inside it', async () => {
    const { database } = getDb();
    await sql`create table q_tx_probe (id int)`.execute(database.db);
    let seen: number | undefined;
    let outside: Promise<void> | undefined;
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into q_tx_probe values (1)`.execute(trx);
      // On PGlite it can only run after the commit; on PostgreSQL it runs on another connection
      // and does not see the uncommitted row.
      outside = database.query?.<{ c: number }>('select count(*) as c from q_tx_probe').then((rows) => {
        seen = rows[0].c;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (database.kind === 'pglite') expect(seen).toBeUndefined();
    });
    await outside;
    expect(seen).toBe(database.kind === 'pglite' ? 1 : 0);
  });

  it('gives every row its own Date for times that repeat, and the right one when they change', async () => {
    const { database } = getDb();
    const { rows } = await sql<{ at: Date; local: Date; id: number }>`
      select v.at, v.at::timestamp as local, v.id
        from (values (1, timestamptz '2026-11-28 10:00:00.123+00'), (2, timestamptz '2026-11-28 10:00:00.123+00'),
                     (3, timestamptz '2026-11-28 11:30:00.5+00'), (4, timestamptz '2026-11-28 10:00:00.123+00'),
                     (5, timestamptz 'infinity')) as v(id, at)
       order by v.id`.execute(database.db);
    const at = rows.map((r) => (r.at instanceof Date ? r.at.toISOString() : r.at));
    expect(at).toEqual([
      '2026-11-28T10:00:00.123Z',
      '2026-11-28T10:00:00.123Z',
      '2026-11-28T11:30:00.500Z',
      '2026-11-28T10:00:00.123Z',
      Infinity,
    ]);
    // Equal values, separate objects: changing one row's Date changes no other row's.
    expect(rows[0].at).not.toBe(rows[1].at);
    rows[0].at.setFullYear(2000);
    expect(rows[1].at.toISOString()).toBe('2026-11-28T10:00:00.123Z');
    expect(rows[3].at.toISOString()).toBe('2026-11-28T10:00:00.123Z');
    // A time without zone is read as before, whatever the earlier rows held.
    expect(rows[1].local).toBeInstanceOf(Date);
    expect(rows[1].local.getTime()).toBe(rows[3].local.getTime());
    expect(rows[1].local).not.toBe(rows[3].local);
  });

  it('rolls a failed transaction back and keeps the connection usable', async () => {
    const { database } = getDb();
    await sql`create table tx_probe (id int primary key)`.execute(database.db);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`insert into tx_probe values (1)`.execute(trx);
        await sql`insert into tx_probe values (1)`.execute(trx);
      }),
    ).rejects.toThrow(/duplicate key/);
    const { rows } = await sql<{ c: number }>`select count(*) as c from tx_probe`.execute(database.db);
    expect(rows[0].c).toBe(0);
  });

  it('reports affected rows of updates', async () => {
    const { database } = getDb();
    await sql`create table upd_probe (id int)`.execute(database.db);
    await sql`insert into upd_probe values (1), (2), (3)`.execute(database.db);
    const result = await sql`update upd_probe set id = id + 10 where id > 1`.execute(database.db);
    expect(result.numAffectedRows).toBe(2n);
  });

  it('has applied the workspace schema, and a second migrate run applies nothing', async () => {
    const { database } = getDb();
    await assertTablesExist(database, ['fw_query_mapper_source', 'fw_query_definition_source']);
    const again = await migrateDatabase(database, [{ name: '0001_query_catalog.sql', sql: 'select 1' }]).catch(
      (e: unknown) => e,
    );
    expect(isConfigError(again)).toBe(true);
    expect((again as Error).message).toMatch(/0001_query_catalog.sql was changed after it was applied/);
  });

  it('names the missing table and the migrate command', async () => {
    const { database } = getDb();
    await expect(assertTablesExist(database, ['fw_query_mapper_source', 'no_such_table'])).rejects.toThrow(
      /missing table\(s\) no_such_table: .*npm run migrate/,
    );
  });
});

describe('migrator', () => {
  it.each(databaseTargets())('applies new migrations once, in order, and records them [%s]', async (target) => {
    const testDb = await createTestDatabase(target, { migrate: false });
    try {
      const migrations = [
        { name: '002_b.sql', sql: 'insert into m_probe values (2);' },
        { name: '001_a.sql', sql: 'create table m_probe (v int); insert into m_probe values (1);' },
      ];
      expect(await migrateDatabase(testDb.database, migrations)).toEqual({
        applied: ['001_a.sql', '002_b.sql'],
        alreadyApplied: [],
      });
      expect(await migrateDatabase(testDb.database, migrations)).toEqual({
        applied: [],
        alreadyApplied: ['001_a.sql', '002_b.sql'],
      });
      const { rows } = await sql<{ v: number }>`select v from m_probe order by v`.execute(testDb.database.db);
      expect(rows.map((r) => r.v)).toEqual([1, 2]);
    } finally {
      await testDb.dispose();
    }
  });

  it('orders the union of several sets by the number each name starts with, unnumbered names last', () => {
    const processSet = [
      { name: '0009_fanout.sql', sql: '' },
      { name: '0002_process.sql', sql: '' },
    ];
    const querySet = [
      { name: '0010_fair.sql', sql: '' },
      { name: '0001_query.sql', sql: '' },
    ];
    const own = [{ name: 'notes-0001-create.sql', sql: '' }];
    expect(orderMigrations([...own, ...processSet, ...querySet]).map((m) => m.name)).toEqual([
      '0001_query.sql',
      '0002_process.sql',
      '0009_fanout.sql',
      '0010_fair.sql',
      'notes-0001-create.sql',
    ]);
  });

  it('refuses two migrations with the same number, naming both, before touching the database', async () => {
    const clash = [
      { name: '0004_outbox.sql', sql: 'create table never_created (v int);' },
      { name: '004_other.sql', sql: 'select 1;' },
    ];
    expect(() => orderMigrations(clash)).toThrow(
      /Migrations 0004_outbox.sql and 004_other.sql have the same number 4; .*renumbered/,
    );
    const testDb = await createTestDatabase('pglite', { migrate: false });
    try {
      const refused = await migrateDatabase(testDb.database, clash).catch((e: unknown) => e);
      expect(isConfigError(refused)).toBe(true);
      const { rows } = await sql<{ t: string | null }>`select to_regclass('fw_schema_migrations')::text as t`.execute(
        testDb.database.db,
      );
      expect(rows[0].t).toBeNull();
    } finally {
      await testDb.dispose();
    }
  });

  it.each(databaseTargets())('leaves nothing behind when a migration fails [%s]', async (target) => {
    const testDb = await createTestDatabase(target, { migrate: false });
    try {
      const failing = [{ name: '001_bad.sql', sql: 'create table half_done (v int); select * from missing_table;' }];
      await expect(migrateDatabase(testDb.database, failing)).rejects.toThrow(/Migration 001_bad.sql failed/);
      const { rows } = await sql<{ t: string | null }>`select to_regclass('half_done')::text as t`.execute(
        testDb.database.db,
      );
      expect(rows[0].t).toBeNull();
    } finally {
      await testDb.dispose();
    }
  });
});

describe('database URLs', () => {
  it('converts jdbc URLs and writes separate credentials into them', () => {
    expect(parseDatabaseUrl('jdbc:postgresql://db.local:5433/app', { username: 'ro', password: 'p@ss' })).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://ro:p%40ss@db.local:5433/app',
    });
  });

  it('understands embedded URLs', () => {
    expect(parseDatabaseUrl('pglite:memory:')).toEqual({ kind: 'pglite' });
    expect(parseDatabaseUrl('pglite:./data', {}, '/srv')).toEqual({ kind: 'pglite', dataDir: '/srv/data' });
  });

  it('opens a PGlite of the caller’s, started from another database’s dump, and refuses it beside any other URL', async () => {
    const source = new PGlite();
    await source.exec('create table t (n int); insert into t values (42)');
    const pglite = new PGlite({ loadDataDir: await source.dumpDataDir('none') });
    await source.close();
    const database = createDatabase({ url: 'pglite:memory:', pglite });
    expect((await sql<{ n: number }>`select n from t`.execute(database.db)).rows).toEqual([{ n: 42 }]);
    await database.close();
    expect(pglite.closed).toBe(true);
    expect(() => createDatabase({ url: 'pglite:./data', pglite })).toThrow(/goes with 'pglite:memory:' only/);
    expect(() => createDatabase({ url: 'postgres://h/db', pglite })).toThrow(/not with a PostgreSQL URL/);
  });

  it('refuses other schemes with a message that says what is accepted', () => {
    expect(() => parseDatabaseUrl('mysql://x/y')).toThrow(/use postgres:\/\/host:port\/db, jdbc:postgresql/);
  });

  it('keeps a file-backed PGlite database across reopen', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fw-pglite-'));
    const first = createDatabase({ url: `pglite:${dir}` });
    await sql`create table kept (v int); `.execute(first.db);
    await sql`insert into kept values (42)`.execute(first.db);
    await first.close();
    const second = createDatabase({ url: `pglite:${dir}` });
    const { rows } = await sql<{ v: number }>`select v from kept`.execute(second.db);
    await second.close();
    expect(rows).toEqual([{ v: 42 }]);
  });

  it('closes PGlite even when the handle only ran query(): a process that reopened the folder exits', async () => {
    // Kysely only destroys a driver it has used; a PGlite left open keeps timers that hold the
    // process alive. Checked in a child process, since "the process can exit" is the behaviour.
    const dir = mkdtempSync(path.join(tmpdir(), 'fw-pglite-exit-'));
    const script = [
      `const { createDatabase } = require(${JSON.stringify(path.resolve(__dirname, '../src'))});`,
      `(async () => { for (let i = 0; i < 2; i++) { const d = createDatabase({ url: ${JSON.stringify(`pglite:${dir}`)} }); await d.query('select 1'); await d.close(); } console.log('closed'); })();`,
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: path.resolve(__dirname, '../../..'),
      timeout: 45_000,
      encoding: 'utf8',
    });
    expect(child.stdout.trim()).toBe('closed');
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
  });
});

// Only a real server can drop a connection (PGlite runs in this process), so this runs on the
// PostgreSQL target only, like every other suite's postgres half.
for (const target of databaseTargets().filter((t) => t === 'postgres')) {
  it(`survives the server terminating a checked-out connection [${target}]`, async () => {
    const testDb = await createTestDatabase(target, { migrate: false });
    try {
      const failure = testDb.database.withSession(async (session) => {
        const [{ pid }] = await session.query<{ pid: number }>('select pg_backend_pid() as pid');
        await sql`select pg_terminate_backend(${pid})`.execute(testDb.database.db);
        await new Promise((resolve) => setTimeout(resolve, 200));
        return session.query('select 1');
      });
      await expect(failure).rejects.toThrow();
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(testDb.database.db);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await testDb.dispose();
    }
  });
}

// A process frozen inside a transaction must not block the others for long: its session is ended
// by the server after idleInTransactionTimeoutMillis; a statement waits for a lock at most
// lockTimeoutMillis. Real sessions on a real server (PostgreSQL target only).
for (const target of databaseTargets().filter((t) => t === 'postgres')) {
  it(`bounds idle transactions and lock waits on every pooled session [${target}]`, async () => {
    const testDb = await createTestDatabase(target, { migrate: false });
    const bounded = createDatabase({ url: testDb.url, idleInTransactionTimeoutMillis: 800, lockTimeoutMillis: 300 });
    const defaults = createDatabase({ url: testDb.url });
    try {
      const show = async (database: typeof bounded, name: string) =>
        (await sql<Record<string, string>>`${sql.raw(`show ${name}`)}`.execute(database.db)).rows[0][name];
      expect(await show(defaults, 'idle_in_transaction_session_timeout')).toBe('15s');
      expect(await show(defaults, 'lock_timeout')).toBe('0');
      await sql`create table frozen (id int primary key, n int)`.execute(bounded.db);
      await sql`insert into frozen values (1, 0)`.execute(bounded.db);
      // A "frozen" holder: locks the row, then sends nothing more inside its transaction.
      const holder = bounded.withSession(async (session) => {
        await session.query('begin');
        await session.query('update frozen set n = n + 1 where id = 1');
        await new Promise((resolve) => setTimeout(resolve, 2000));
        return session.query('commit');
      });
      holder.catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
      // While it holds the lock, a writer gives up after the lock timeout (55P03) instead of waiting.
      await expect(sql`update frozen set n = n + 10 where id = 1`.execute(bounded.db)).rejects.toMatchObject({
        code: '55P03',
      });
      // After the idle timeout the server ended the holder's session: its update rolled back, the row is free.
      const began = Date.now();
      for (;;) {
        try {
          await sql`update frozen set n = n + 10 where id = 1`.execute(bounded.db);
          break;
        } catch (err) {
          if ((err as { code?: string }).code !== '55P03' || Date.now() - began > 5000) throw err;
        }
      }
      expect(Date.now() - began).toBeLessThan(2000);
      await expect(holder).rejects.toThrow();
      expect((await sql<{ n: number }>`select n from frozen where id = 1`.execute(bounded.db)).rows).toEqual([
        { n: 10 },
      ]);
    } finally {
      await bounded.close();
      await defaults.close();
      await testDb.dispose();
    }
  });
}
