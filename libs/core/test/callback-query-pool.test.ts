/**
 * Kysely's statements on PostgreSQL go through pg's callback form (`callbackQueryPool`): results
 * large and small come back whole and in order, errors keep pg's fields, and each pg client keeps
 * one wrapper so Kysely's connection cache holds.
 */
import { createDatabase } from '@fw/core';
import { createTestDatabase, databaseTargets } from '@fw/test-support';
import { sql } from 'kysely';
import pg from 'pg';
import { callbackQueryPool } from '../src/database/callback-query-pool';

for (const target of databaseTargets().filter((t) => t === 'postgres')) {
  describe(`Kysely through pg's callback form [${target}]`, () => {
    it('returns every row of a large result in order, and rejects with the server error', async () => {
      const testDb = await createTestDatabase(target, { migrate: false });
      const database = createDatabase({ url: testDb.url, maxConnections: 2 });
      try {
        const { rows } = await sql<{ n: number; doc: unknown }>`
          select g as n, jsonb_build_object('n', g) as doc from generate_series(1, 20000) g order by g`.execute(
          database.db,
        );
        expect(rows).toHaveLength(20_000);
        expect(rows[0]).toEqual({ n: 1, doc: { n: 1 } });
        expect(rows[19_999]).toEqual({ n: 20_000, doc: { n: 20_000 } });
        expect(rows.every((r, i) => r.n === i + 1)).toBe(true);
        // Parameters travel as before, transactions too.
        const inTx = await database.db
          .transaction()
          .execute(
            async (trx) => (await sql<{ s: string }>`select ${'a'}::text || ${'b'}::text as s`.execute(trx)).rows,
          );
        expect(inTx).toEqual([{ s: 'ab' }]);
        await expect(sql`select * from no_such_table`.execute(database.db)).rejects.toMatchObject({ code: '42P01' });
        // The failed statement released its connection: the pool still answers.
        expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows).toEqual([{ one: 1 }]);
      } finally {
        await database.close();
        await testDb.dispose();
      }
    });

    it('hands Kysely one wrapper per pg client', async () => {
      const testDb = await createTestDatabase(target, { migrate: false });
      const pool = new pg.Pool({ connectionString: testDb.url, max: 1 });
      try {
        const wrapped = callbackQueryPool(pool);
        const first = await wrapped.connect();
        first.release();
        const second = await wrapped.connect();
        expect(second).toBe(first);
        const result = await second.query<{ x: number }>('select $1::int as x', [7]);
        expect(result.rows).toEqual([{ x: 7 }]);
        second.release();
      } finally {
        await pool.end();
        await testDb.dispose();
      }
    });
  });
}
