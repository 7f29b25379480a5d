import { describeEachDatabase, fwRejection as rejection } from '@fw/test-support';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { makeQueryService, type QueryService, type SearchStream } from '../src';
import { FIXTURES, fixedDatabaseFactory } from './support/library-fixture';

const SCALE = path.join(FIXTURES, 'scale');
type Row = Record<string, unknown>;

async function drain(stream: SearchStream): Promise<Row[]> {
  const rows: Row[] = [];
  try {
    for (let batch = await stream.next(); batch; batch = await stream.next()) rows.push(...batch);
  } finally {
    await stream.close();
  }
  return rows;
}

describeEachDatabase('query service at scale', (getDb) => {
  let service: QueryService;

  beforeAll(async () => {
    const { database } = getDb();
    await database.withSession((s) => s.exec(readFileSync(path.join(SCALE, 'schema.sql'), 'utf8')));
    const { factory } = fixedDatabaseFactory({ 'postgres://db-host/t1': database, 'postgres://db-host/t2': database });
    service = await makeQueryService({
      config: {
        defaultTenantId: 't1',
        datasources: {
          t1: { jdbcUrl: 'postgres://db-host/t1' },
          t2: { jdbcUrl: 'postgres://db-host/t2', timeoutMillis: 2000 },
        },
        mapperFiles: 'mappers/*.xml',
        definitionFiles: 'definitions/*.json',
      },
      baseDir: SCALE,
      databaseFactory: factory,
    });
  });
  afterAll(() => service.close());

  describe('keyset pagination', () => {
    it('pages forward and back with opaque cursors, keyset column as the last sort key', async () => {
      const first = await service.search('items', { numRowsInPage: 20, countMode: 'none' }, {});
      expect(first.list.map((r) => r.row.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(first.pagination).toMatchObject({ nextPageAvailable: true, countMode: 'none', prevCursor: null });
      const second = await service.search(
        'items',
        { numRowsInPage: 20, countMode: 'none', cursor: first.pagination.nextCursor },
        {},
      );
      expect(second.list.map((r) => r.row.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 21));
      expect(second).toMatchObject({ currentPage: 2, startRow: 21, endRow: 40 });
      const third = await service.search(
        'items',
        { numRowsInPage: 20, countMode: 'none', cursor: second.pagination.nextCursor },
        {},
      );
      expect(third.list.map((r) => r.row.id)).toEqual(Array.from({ length: 10 }, (_, i) => i + 41));
      expect(third.pagination).toMatchObject({ nextPageAvailable: false, nextCursor: null });
      const back = await service.search(
        'items',
        { numRowsInPage: 20, countMode: 'none', cursor: third.pagination.prevCursor },
        {},
      );
      expect(back.list.map((r) => r.row.id)).toEqual(second.list.map((r) => r.row.id));
      const start = await service.search(
        'items',
        { numRowsInPage: 20, countMode: 'none', cursor: back.pagination.prevCursor },
        {},
      );
      expect(start).toMatchObject({ currentPage: 1, pagination: { prevCursor: null } });
      expect(start.list.map((r) => r.row.id)).toEqual(first.list.map((r) => r.row.id));
    });

    it('survives inserts between pages without skipping or repeating a row, and keeps the sort', async () => {
      const { database } = getDb();
      const sort = [{ name: 'grp', ascendingOrder: false }];
      const seen: unknown[] = [];
      let page = await service.search('items', { numRowsInPage: 7, sortCriteria: sort, countMode: 'none' }, {});
      let extra = 1000;
      for (;;) {
        seen.push(...page.list.map((r) => r.row.id));
        // New rows on both sides of the current position: before it (grp 5 sorts first) and after it (grp -1 sorts last).
        await database.withSession((s) =>
          s.exec(`insert into scale_item values (${extra}, 5, 'new'), (${extra + 1}, -1, 'new')`),
        );
        extra += 2;
        if (!page.pagination.nextCursor) break;
        // The cursor carries the sort: the request need not repeat it.
        page = await service.search(
          'items',
          { numRowsInPage: 7, countMode: 'none', cursor: page.pagination.nextCursor },
          {},
        );
      }
      const original = seen.filter((id) => (id as number) <= 50);
      expect([...original].sort((a, b) => (a as number) - (b as number))).toEqual(
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
      expect(new Set(seen).size).toBe(seen.length);
      // Rows inserted after the position (grp -1) appear; the ones before it (grp 5) do not.
      expect(seen.some((id) => (id as number) >= 1000 && (id as number) % 2 === 1)).toBe(true);
      expect(seen.filter((id) => (id as number) >= 1000 && (id as number) % 2 === 0)).toEqual([]);
      await database.withSession((s) => s.exec('delete from scale_item where id >= 1000'));
    });

    it('refuses a cursor with another sort, other filters, a damaged cursor or one on an offset query', async () => {
      const first = await service.search('items', { numRowsInPage: 5, filters: { grp: 1 }, countMode: 'none' }, {});
      const cursor = first.pagination.nextCursor;
      expect(
        await rejection(service.search('items', { cursor, filters: { grp: 1 }, sortCriteria: [{ name: 'name' }] }, {})),
      ).toMatchObject({ code: 400, subErrorCode: 'Q727', field: 'cursor' });
      expect(await rejection(service.search('items', { cursor, filters: { grp: 2 } }, {}))).toMatchObject({
        code: 400,
        subErrorCode: 'Q727',
        field: 'cursor',
      });
      expect(await rejection(service.search('items', { cursor: 'bm9wZQ' }, {}))).toMatchObject({
        subErrorCode: 'Q727',
        field: 'cursor',
      });
      expect(await rejection(service.search('items', { cursor, pageNum: 2 }, {}))).toMatchObject({
        subErrorCode: 'Q727',
      });
      expect(await rejection(service.search('itemsOffset', { cursor }, {}))).toMatchObject({
        subErrorCode: 'Q727',
        field: 'cursor',
      });
      const same = await service.search('items', { cursor, filters: { grp: 1 }, countMode: 'none' }, {});
      expect(same.list.every((r) => r.row.grp === 1)).toBe(true);
    });
  });

  describe('counts', () => {
    it('answers with the planner estimate, exact only when allowed, none on request', async () => {
      const planned = await service.search('items', { numRowsInPage: 5 }, {});
      expect(planned.pagination).toMatchObject({
        countMode: 'planned',
        countQueryExecuted: false,
        totalCountAvailable: true,
        nextPageAvailable: true,
      });
      expect(typeof planned.maxRows).toBe('number');
      expect(planned.maxRows).toBeGreaterThan(0);
      const none = await service.search('items', { numRowsInPage: 5, countMode: 'none' }, {});
      expect(none).toMatchObject({
        maxRows: null,
        maxPages: null,
        pagination: { countMode: 'none', totalCountAvailable: false },
      });
      expect(await rejection(service.search('items', { countMode: 'exact' }, {}))).toMatchObject({
        code: 400,
        subErrorCode: 'Q727',
        field: 'countMode',
      });
      const exact = await service.search('itemsOffset', { countMode: 'none' }, {});
      expect(exact.pagination.countMode).toBe('none');
      expect(await rejection(service.search('items', { countOnly: true, countMode: 'none' }, {}))).toMatchObject({
        subErrorCode: 'Q727',
        field: 'countOnly',
      });
    });
  });

  describe('streams and large answers', () => {
    it('refuses an unpaginated JSON answer above streamAbove with 413 Q731 naming the limit and NDJSON', async () => {
      const err = await rejection(service.search('allItems', {}, {}));
      expect(err).toMatchObject({ code: 413, subErrorCode: 'Q731' });
      expect(err.description).toMatch(/more than 5 rows/);
      expect(err.description).toMatch(/application\/x-ndjson/);
      expect((await service.search('allItems', { filters: { grp: 7 } }, {})).list).toEqual([]);
    });

    it('streams every row in order, cut at maxRows with truncated set', async () => {
      const stream = await service.stream('allItems', { sortCriteria: [{ name: 'id', ascendingOrder: false }] }, {});
      const rows = await drain(stream);
      expect(rows).toHaveLength(40);
      expect(rows[0]).toEqual({ id: 50, grp: 2, name: 'item 50' });
      expect(stream.summary()).toEqual({ rows: 40, truncated: true });
      const few = await service.stream('allItems', { filters: { grp: 0 } }, {});
      expect(await drain(few)).toHaveLength(16);
      expect(few.summary()).toEqual({ rows: 16, truncated: false });
      expect(await rejection(service.stream('allItems', { pageNum: 2 }, {}))).toMatchObject({
        subErrorCode: 'Q727',
        field: 'pageNum',
      });
    });

    it('streams a nested result map: each parent once, with all its rows, across batch boundaries', async () => {
      const rows = await drain(await service.stream('authors', {}, {}));
      expect(rows).toHaveLength(31);
      expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
      expect(rows.every((r, i) => Array.isArray(r.books) && (r.books as unknown[]).length === (i === 30 ? 0 : 7))).toBe(
        true,
      );
      expect(rows.flatMap((r) => (r.books as Row[]).map((b) => b.id)).length).toBe(210);
      // The same objects as the JSON answer's (which has no order of its own).
      const normal = (list: Row[]) =>
        [...list]
          .sort((a, b) => (a.id as number) - (b.id as number))
          .map((r) => ({ ...r, books: [...(r.books as Row[])].sort((a, b) => (a.id as number) - (b.id as number)) }));
      const json = await service.search('authors', {}, {});
      expect(normal(json.list.map((r) => r.row))).toEqual(normal(rows));
      const byName = await drain(
        await service.stream('authors', { sortCriteria: [{ name: 'name', ascendingOrder: false }] }, {}),
      );
      expect(byName.map((r) => r.name)).toEqual([...rows.map((r) => r.name)].sort().reverse());
    });

    it('a stream closed while a FETCH runs cancels it: the connection is back at once (PostgreSQL)', async () => {
      const { database, target } = getDb();
      const stream = await service.stream('slowRows', {}, {});
      expect(await stream.next()).toHaveLength(100);
      if (target === 'pglite') {
        await stream.close();
        expect((await service.search('settings', {}, {})).list).toHaveLength(1);
        return;
      }
      // The second batch reaches rows that sleep 5 s each; close while it runs.
      const pending = stream.next().catch((err: unknown) => err);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const closing = Date.now();
      await stream.close();
      expect(Date.now() - closing).toBeLessThan(100);
      expect(await pending).toBeDefined();
      const active = await database.query?.<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and query like 'FETCH FORWARD%' and state <> 'idle'",
      );
      expect(active?.[0].n).toBe(0);
    });

    it('closing a stream mid-way frees the connection for the next query', async () => {
      const stream = await service.stream('authors', {}, {});
      expect(await stream.next()).toBeDefined();
      await stream.close();
      expect((await service.search('itemsOffset', { numRowsInPage: 1 }, {})).list).toHaveLength(1);
    });
  });

  describe('statement timeouts', () => {
    it('sets the statement timeout for the statement only (mapper timeout, definition, tenant default)', async () => {
      const { database } = getDb();
      const setting = async (name: string, tenantId = 't1') =>
        (await service.search(name, {}, { tenantId })).list[0].row.statementTimeout;
      expect(await setting('settings')).toBe('3s');
      expect(await setting('quickSettings')).toBe('250ms');
      const uncached = await service.search('uncachedHits', { customVariables: { label: 'x' } }, { tenantId: 't2' });
      expect(uncached.list).toHaveLength(1);
      // Back in the pool, the connections carry no timeout of their own.
      const rows = await database.query?.<{ statement_timeout: string }>('show statement_timeout');
      expect(rows?.[0].statement_timeout).toBe('0');
    });

    it('cancels a pg_sleep statement at the mapper\'s timeout="1" with 504 Q730 and a clean connection (PGlite cannot interrupt a statement: there it runs to its end)', async () => {
      const { database, target } = getDb();
      if (target === 'pglite') {
        expect((await service.search('sleepy', { customVariables: { seconds: 0.01 } }, {})).list).toEqual([
          { row: { id: 1, slept: '' }, allowedActions: [] },
        ]);
        return;
      }
      const started = Date.now();
      const err = await rejection(service.search('sleepy', { customVariables: { seconds: 5 } }, {}));
      expect(err).toMatchObject({ code: 504, subErrorCode: 'Q730' });
      expect(err.description).toMatch(/1000 ms/);
      expect(Date.now() - started).toBeLessThan(3000);
      const settings = await Promise.all(
        Array.from({ length: 5 }, async () =>
          database.query?.<{ statement_timeout: string }>('show statement_timeout'),
        ),
      );
      expect(settings.map((r) => r?.[0].statement_timeout)).toEqual(['0', '0', '0', '0', '0']);
    });

    it('answers a cancelled statement with 504 Q730 (PGlite has no timer to cancel it: the error is raised as PostgreSQL raises it)', async () => {
      const err = await rejection(service.search('cancelled', {}, {}));
      expect(err).toMatchObject({ code: 504, subErrorCode: 'Q730' });
      expect((await service.search('settings', {}, {})).list).toHaveLength(1);
    });
  });

  describe('answer cache', () => {
    const hit = async (name: string, label: string, context: { tenantId?: string; callerId?: string }) => {
      const answer = await service.answer(name, { customVariables: { label } }, context);
      return { hit: (JSON.parse(answer.json) as { list: { row: Row }[] }).list[0].row.hit, answer };
    };

    it('serves a cached answer per tenant, query, parameters and caller, with a stable ETag', async () => {
      const a = await hit('hits', 'a', { tenantId: 't1', callerId: 'ann' });
      const again = await hit('hits', 'a', { tenantId: 't1', callerId: 'ann' });
      expect(again.hit).toBe(a.hit);
      expect(again.answer).toMatchObject({ cached: true, etag: a.answer.etag });
      expect(a.answer.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(a.answer.maxAgeSeconds).toBeGreaterThan(50);
      expect((await hit('hits', 'a', { tenantId: 't2', callerId: 'ann' })).hit).not.toBe(a.hit);
      expect((await hit('hits', 'a', { tenantId: 't1', callerId: 'bob' })).hit).not.toBe(a.hit);
      expect((await hit('hits', 'b', { tenantId: 't1', callerId: 'ann' })).hit).not.toBe(a.hit);
      const plain = await hit('uncachedHits', 'a', { tenantId: 't1', callerId: 'ann' });
      expect(plain.answer.etag).toBeUndefined();
      expect((await hit('uncachedHits', 'a', { tenantId: 't1', callerId: 'ann' })).hit).not.toBe(plain.hit);
    });

    it("honours the mapper's <cache> (size bound, useCache=false)", async () => {
      const first = await hit('mapperCachedHits', 'x', {});
      expect((await hit('mapperCachedHits', 'x', {})).hit).toBe(first.hit);
      await hit('mapperCachedHits', 'y', {});
      await hit('mapperCachedHits', 'z', {});
      // size="2": x was the least recently used and is gone.
      expect((await hit('mapperCachedHits', 'x', {})).hit).not.toBe(first.hit);
      const fresh = await service.answer('fresh', {}, {});
      expect(fresh.etag).toBeUndefined();
    });
  });
});
