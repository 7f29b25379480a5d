import { type FwError, isConfigError, isFwError } from '@fw/core';
import { createTestDatabase, databaseTargets, type TestDatabase } from '@fw/test-support';
import { makeQueryService, makeTenantRouter, type QueryService } from '../src';
import { FIXTURES, fixedDatabaseFactory, libraryConfig, seedLibrary } from './support/library-fixture';

function thrown(fn: () => unknown): FwError {
  try {
    fn();
  } catch (err) {
    if (isFwError(err)) return err;
    throw err;
  }
  throw new Error('expected an FwError');
}

describe('makeTenantRouter', () => {
  const datasources = {
    t1: {
      jdbcUrl: 'postgres://h/one',
      maximumPoolSize: 4,
      connectionTimeout: 1500,
      idleTimeout: 9000,
      username: 'ro',
      password: 'pw',
    },
    t2: { jdbcUrl: 'pglite:memory:' },
  };

  it('resolves the requested tenant, else the default; Q723 without either; Q724 for unknown ids', () => {
    const withDefault = makeTenantRouter({ datasources, defaultTenantId: 't2', baseDir: '.' });
    expect(withDefault.resolveTenant('t1')).toBe('t1');
    expect(withDefault.resolveTenant(undefined)).toBe('t2');
    expect(withDefault.resolveTenant('  ')).toBe('t2');
    const strict = makeTenantRouter({ datasources, baseDir: '.' });
    expect(thrown(() => strict.resolveTenant(undefined))).toMatchObject({ code: 400, subErrorCode: 'Q723' });
    expect(thrown(() => strict.resolveTenant('t3'))).toMatchObject({ code: 400, subErrorCode: 'Q724', params: ['t3'] });
    expect(thrown(() => strict.resolveTenant('constructor'))).toMatchObject({ subErrorCode: 'Q724' });
    expect(thrown(() => strict.resolveTenant('__proto__'))).toMatchObject({ subErrorCode: 'Q724' });
  });

  it('opens one pool per tenant lazily with the pool settings, and closes them', async () => {
    const opened: string[] = [];
    const closed: string[] = [];
    const options: unknown[] = [];
    const router = makeTenantRouter({
      datasources,
      baseDir: '/srv',
      databaseFactory: (o) => {
        opened.push(o.url);
        options.push(o);
        return {
          kind: 'postgres',
          displayUrl: o.url,
          db: undefined as never,
          withSession: async () => undefined as never,
          close: async () => void closed.push(o.url),
        };
      },
    });
    expect(opened).toEqual([]);
    expect(router.database('t1')).toBe(router.database('t1'));
    expect(opened).toEqual(['postgres://h/one']);
    expect(options[0]).toMatchObject({
      maxConnections: 4,
      connectionTimeoutMillis: 1500,
      idleTimeoutMillis: 9000,
      username: 'ro',
      password: 'pw',
      baseDir: '/srv',
    });
    router.database('t2');
    await router.close();
    expect(closed.sort()).toEqual(['pglite:memory:', 'postgres://h/one']);
  });

  it('fails at construction for a bad URL or a default tenant without datasource', () => {
    expect(() => makeTenantRouter({ datasources: { t1: { jdbcUrl: 'mysql://h/db' } }, baseDir: '.' })).toThrow(
      /query.datasources.t1.jdbcUrl: Unsupported database URL/,
    );
    let error: unknown;
    try {
      makeTenantRouter({ datasources, defaultTenantId: 'zz', baseDir: '.' });
    } catch (err) {
      error = err;
    }
    expect(isConfigError(error) && error.message).toBe(
      "query.defaultTenantId 'zz' is not a key of query.datasources (configured: t1, t2)",
    );
  });
});

describe.each(databaseTargets())('two tenants on two databases [%s]', (target) => {
  let one: TestDatabase;
  let two: TestDatabase;
  let service: QueryService;

  beforeAll(async () => {
    one = await createTestDatabase(target);
    two = await createTestDatabase(target);
    await seedLibrary(one.database);
    await seedLibrary(two.database);
    // Tenant t2's library differs: one extra book, and Dune renamed.
    await two.database.withSession(async (s) => {
      await s.query(
        `insert into books (id, title, author_id, genre, price, published, in_stock) values (13, 'Only In Tenant Two', 1, 'scifi', 1, '2000-01-01', true)`,
      );
      await s.query(`update books set title = 'Dune (t2 edition)' where id = 1`);
    });
    const { factory } = fixedDatabaseFactory({
      'postgres://db-host/t1': one.database,
      'postgres://db-host/t2': two.database,
    });
    service = await makeQueryService({
      config: libraryConfig({ defaultTenantId: null }),
      baseDir: FIXTURES,
      databaseFactory: factory,
    });
  });
  afterAll(async () => {
    await service?.close();
    await one?.dispose();
    await two?.dispose();
  });

  it('routes every request to its own tenant database, never mixing', async () => {
    const [a, b, a2, b2] = await Promise.all([
      service.search('authors', { countOnly: true }, { tenantId: 't1' }),
      service.search(
        'booksNoCount',
        { sortCriteria: [{ name: 'id', ascendingOrder: false }], numRowsInPage: 1 },
        { tenantId: 't2' },
      ),
      service.search(
        'booksNoCount',
        { sortCriteria: [{ name: 'id', ascendingOrder: false }], numRowsInPage: 1 },
        { tenantId: 't1' },
      ),
      service.search(
        'books',
        { filters: { genre: 'scifi' }, sortCriteria: [{ name: 'id' }], numRowsInPage: 1 },
        { tenantId: 't2' },
      ),
    ]);
    expect(a.maxRows).toBe(4);
    expect(b.list[0].row.id).toBe(13);
    expect(a2.list[0].row.id).toBe(12);
    expect(b2.list[0].row.title).toBe('Dune (t2 edition)');
    const t1Dune = await service.search(
      'books',
      { filters: { title: 'dune' }, sortCriteria: [{ name: 'id' }] },
      { tenantId: 't1' },
    );
    expect(t1Dune.list.map((r) => r.row.title)).toEqual(['Dune', 'Dune Messiah', 'Children of Dune']);
  });

  it('requires a tenant when there is no default (Q723) and never falls back (Q724)', async () => {
    await expect(service.search('books', {}, {})).rejects.toMatchObject({ code: 400, subErrorCode: 'Q723' });
    await expect(service.search('books', {}, { tenantId: 't3' })).rejects.toMatchObject({
      code: 400,
      subErrorCode: 'Q724',
    });
    expect(() => service.listQueries({})).toThrow(expect.objectContaining({ subErrorCode: 'Q723' }));
    expect(() => service.listQueries({ tenantId: 'nope' })).toThrow(expect.objectContaining({ subErrorCode: 'Q724' }));
  });
});
