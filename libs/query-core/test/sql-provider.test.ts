import { createLogger, type Database, isFwError } from '@fw/core';
import type { CompiledQuery } from 'kysely';
import { Writable } from 'node:stream';
import {
  type BoundSql,
  makeSqlQueryProvider,
  type MappedStatement,
  type QueryDefinition,
  type QueryExecutionRequest,
} from '../src';

type Row = Record<string, unknown>;

function statement(id: string, sql: string, uses: { orderby: boolean; pagination: boolean }): MappedStatement {
  return {
    id,
    namespace: 'ns',
    statementId: id.slice(3),
    usesOrderBy: uses.orderby,
    usesPagination: uses.pagination,
    source: 'test',
    render(parameters): BoundSql {
      const text = sql
        .replace('${orderby}', String(parameters.orderby ?? ''))
        .replace('${pagination}', String(parameters.pagination ?? ''));
      return { sql: text, values: [parameters.title] };
    },
    mapRows: (rows) => rows.map((r) => ({ ...r, mapped: true })),
  };
}

function fakeDatabase(answer: (sql: string) => Row[]): {
  database: Database;
  seen: Array<{ sql: string; parameters: readonly unknown[] }>;
} {
  const seen: Array<{ sql: string; parameters: readonly unknown[] }> = [];
  const db = {
    async executeQuery(query: CompiledQuery) {
      seen.push({ sql: query.sql, parameters: query.parameters });
      return { rows: answer(query.sql) };
    },
  };
  return {
    database: {
      kind: 'pglite',
      displayUrl: 'fake',
      db: db as unknown as Database['db'],
      withSession: async () => undefined as never,
      close: async () => undefined,
    },
    seen,
  };
}

const definition: QueryDefinition = { name: 'books', id: 'ns.plain', paginated: true, acls: [], columnMetadata: {} };

function request(overrides: Partial<QueryExecutionRequest>): QueryExecutionRequest {
  return {
    definition,
    tenantId: 't1',
    parameters: { title: '%a%', orderby: 'ORDER BY "b"."title" DESC', pagination: 'LIMIT 5 OFFSET 10' },
    filters: [],
    sort: [{ field: 'title', column: 'b.title', ascending: false }],
    page: { limit: 5, offset: 10 },
    mode: 'rows',
    ...overrides,
  };
}

describe('makeSqlQueryProvider', () => {
  const statements = new Map<string, MappedStatement>([
    [
      'ns.plain',
      statement('ns.plain', 'select * from books b where title like $1', { orderby: false, pagination: false }),
    ],
    [
      'ns.ordered',
      statement('ns.ordered', 'select * from books b where title like $1 ${orderby}', {
        orderby: true,
        pagination: false,
      }),
    ],
    [
      'ns.full',
      statement('ns.full', 'select * from books b where title like $1 ${orderby} ${pagination}', {
        orderby: true,
        pagination: true,
      }),
    ],
    [
      'ns.full-count',
      statement('ns.full-count', 'select count(*) as n from books b where title like $1 ${orderby}', {
        orderby: true,
        pagination: false,
      }),
    ],
  ]);
  const lookup = { getStatement: (id: string) => statements.get(id) };

  it('wraps a statement without ${orderby}/${pagination}, using derived-table columns', async () => {
    const { database, seen } = fakeDatabase(() => [{ id: 1 }]);
    const provider = makeSqlQueryProvider({ statements: lookup, databaseFor: () => database });
    const result = await provider.execute(request({}));
    expect(seen[0]).toEqual({
      sql: 'select * from (select * from books b where title like $1) q ORDER BY "q"."title" DESC LIMIT 5 OFFSET 10',
      parameters: ['%a%'],
    });
    expect(result).toEqual({ rows: [{ id: 1, mapped: true }] });
  });

  it("runs rows and count in parallel through the database's query port when it has one", async () => {
    const { database } = fakeDatabase(() => {
      throw new Error('Kysely must not be used when the database has query()');
    });
    const calls: string[] = [];
    const pending: Array<() => void> = [];
    const withPort: Database = {
      ...database,
      query: async <R>(sql: string) => {
        calls.push(sql);
        // Both statements must be issued before either answers.
        await new Promise<void>((resolve) => pending.push(resolve));
        return (sql.includes('count') ? [{ n: 7 }] : [{ id: 1 }]) as R[];
      },
    };
    const provider = makeSqlQueryProvider({ statements: lookup, databaseFor: () => withPort });
    const result = provider.execute(request({ definition: { ...definition, id: 'ns.full' }, mode: 'both' }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toHaveLength(2);
    pending.forEach((resolve) => resolve());
    expect(await result).toEqual({ rows: [{ id: 1, mapped: true }], totalCount: 7 });
  });

  it('wraps only for LIMIT when the statement orders itself, and not at all when it has both', async () => {
    const { database, seen } = fakeDatabase(() => []);
    const provider = makeSqlQueryProvider({ statements: lookup, databaseFor: () => database });
    await provider.execute(request({ definition: { ...definition, id: 'ns.ordered' } }));
    await provider.execute(request({ definition: { ...definition, id: 'ns.full' } }));
    await provider.execute(request({ definition: { ...definition, id: 'ns.plain' }, sort: [], page: undefined }));
    expect(seen.map((s) => s.sql)).toEqual([
      'select * from (select * from books b where title like $1 ORDER BY "b"."title" DESC) q LIMIT 5 OFFSET 10',
      'select * from books b where title like $1 ORDER BY "b"."title" DESC LIMIT 5 OFFSET 10',
      'select * from books b where title like $1',
    ]);
  });

  it('counts with <id>-count (first column) or a derived count, without ORDER BY/LIMIT', async () => {
    const { database, seen } = fakeDatabase((sql) =>
      sql.includes('as n') ? [{ n: 7 }] : sql.includes('as total') ? [{ total: '42' }] : [{ id: 1 }],
    );
    const provider = makeSqlQueryProvider({ statements: lookup, databaseFor: () => database });
    expect(await provider.execute(request({ definition: { ...definition, id: 'ns.full' }, mode: 'count' }))).toEqual({
      rows: [],
      totalCount: 7,
    });
    expect(seen[0].sql).toBe('select count(*) as n from books b where title like $1 ');
    expect(await provider.execute(request({ mode: 'both' }))).toEqual({
      rows: [{ id: 1, mapped: true }],
      totalCount: 42,
    });
    expect(seen.map((s) => s.sql)).toContain(
      'select count(*) as total from (select * from books b where title like $1) q',
    );
  });

  it('reports failures as Q721/Q722 without internals and logs the real error', async () => {
    const lines: string[] = [];
    const logger = createLogger({
      name: 'test',
      level: 'error',
      destination: new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) }),
    });
    const { database } = fakeDatabase((sql) => {
      if (sql.includes('count')) throw new Error('relation "secret_table" does not exist');
      return [];
    });
    const provider = makeSqlQueryProvider({ statements: lookup, databaseFor: () => database, logger });
    const count = await provider.execute(request({ mode: 'both' })).catch((e: unknown) => e);
    expect(isFwError(count) && [count.code, count.subErrorCode, count.description]).toEqual([
      500,
      'Q722',
      "The count for query 'books' failed",
    ]);
    expect(lines.join('')).toContain('secret_table');
    const missing = await provider
      .execute(request({ definition: { ...definition, id: 'ns.none' } }))
      .catch((e: unknown) => e);
    expect(isFwError(missing) && missing.subErrorCode).toBe('Q721');
    expect(provider.supportsStatement?.('ns.plain')).toBe(true);
    expect(provider.supportsStatement?.('ns.none')).toBe(false);
  });
});
