import { runWithTenant } from '@fw/core';
import { describeEachDatabase, fwRejection as rejection } from '@fw/test-support';
import { makeQueryService, type QueryService, type SearchResponse } from '../src';
import { FIXTURES, fixedDatabaseFactory, libraryConfig, seedLibrary } from './support/library-fixture';

const ids = (response: SearchResponse) => response.list.map((r) => r.row.id);

/** The canned-report behaviour through the service, run against each store (same scenario, several backends). */
async function savesAppliesPublishesAndListsCannedReports(service: QueryService): Promise<void> {
  const saved = await service.search(
    'books',
    {
      cannedReportName: 'cheap scifi',
      saveChangesToCannedReport: true,
      filters: { genre: 'scifi', price: [0, 10] },
      sortCriteria: [{ name: 'price' }],
      fields: ['id', 'price'],
      hiddenColumns: ['price'],
    },
    { tenantId: 't1', userId: 'ann' },
  );
  expect(ids(saved)).toEqual([2, 11, 1]);
  expect(saved).toMatchObject({
    cannedReportName: 'cheap scifi',
    availableCannedReports: ['cheap scifi'],
    hiddenColumns: ['price'],
  });
  const applied = await service.search('books', { cannedReportName: 'cheap scifi' }, { tenantId: 't1', userId: 'ann' });
  expect(applied.list.map((r) => r.row)).toEqual([
    { id: 2, price: 8.5 },
    { id: 11, price: 9.1 },
    { id: 1, price: 9.99 },
  ]);
  const overridden = await service.search(
    'books',
    { cannedReportName: 'cheap scifi', sortCriteria: [{ name: 'price', ascendingOrder: false }] },
    { tenantId: 't1', userId: 'ann' },
  );
  expect(ids(overridden)).toEqual([1, 11, 2]);
  expect(
    await rejection(service.search('books', { cannedReportName: 'cheap scifi' }, { tenantId: 't1', userId: 'bob' })),
  ).toMatchObject({ code: 404, subErrorCode: 'Q729' });
  expect(
    (await service.search('books', { numRowsInPage: 1 }, { tenantId: 't1', userId: 'bob' })).availableCannedReports,
  ).toEqual([]);
  expect(
    await rejection(
      service.search(
        'books',
        { cannedReportName: 'cheap scifi', saveChangesToCannedReport: true },
        { tenantId: 't1', userId: 'bob' },
      ),
    ),
  ).toMatchObject({ code: 403, subErrorCode: 'Q728' });
  await service.search(
    'books',
    {
      cannedReportName: 'cheap scifi',
      saveChangesToCannedReport: true,
      publishCannedReportToEveryone: true,
      filters: { genre: 'scifi' },
    },
    { tenantId: 't1', userId: 'ann' },
  );
  const bob = await service.search('books', { cannedReportName: 'cheap scifi' }, { tenantId: 't1', userId: 'bob' });
  expect(bob).toMatchObject({ maxRows: 9, availableCannedReports: ['cheap scifi'] });
  expect((await service.search('authors', {}, { tenantId: 't1' })).availableCannedReports).toEqual([]);
  expect(
    await rejection(service.search('books', { cannedReportName: 'cheap scifi' }, { tenantId: 't2' })),
  ).toMatchObject({ subErrorCode: 'Q729' });
  expect(await rejection(service.search('books', { saveChangesToCannedReport: true }, {}))).toMatchObject({
    subErrorCode: 'Q727',
    field: 'cannedReportName',
  });
  expect(
    await rejection(service.search('books', { cannedReportName: 'x', publishCannedReportToEveryone: true }, {})),
  ).toMatchObject({ subErrorCode: 'Q727' });
  const invalidSave = await rejection(
    service.search('books', { cannedReportName: 'bad', saveChangesToCannedReport: true, filters: { nope: 1 } }, {}),
  );
  expect(invalidSave.subErrorCode).toBe('Q725');
  expect(await rejection(service.search('books', { cannedReportName: 'bad' }, {}))).toMatchObject({
    subErrorCode: 'Q729',
  });
}

describeEachDatabase('query service on SQL', (getDb) => {
  let service: QueryService;
  let factory: ReturnType<typeof fixedDatabaseFactory>;

  beforeAll(async () => {
    const { database } = getDb();
    await seedLibrary(database);
    factory = fixedDatabaseFactory({ 'postgres://db-host/t1': database, 'postgres://db-host/t2': database });
    service = await makeQueryService({ config: libraryConfig(), baseDir: FIXTURES, databaseFactory: factory.factory });
  });
  afterAll(() => service.close());

  it('returns the first page with a count and the documented payload', async () => {
    const response = await service.search(
      'books',
      { sortCriteria: [{ name: 'id' }], numRowsInPage: 5 },
      { tenantId: 't1' },
    );
    expect(Object.keys(response).sort()).toEqual(
      [
        'availableCannedReports',
        'cannedReportName',
        'columnMetadata',
        'currentPage',
        'endRow',
        'hiddenColumns',
        'list',
        'maxPages',
        'maxRows',
        'numRowsInPage',
        'numRowsReturned',
        'pagination',
        'startRow',
      ].sort(),
    );
    expect(ids(response)).toEqual([1, 2, 3, 4, 5]);
    expect(response.list[0]).toEqual({
      row: {
        id: 1,
        title: 'Dune',
        author: 'Frank Herbert',
        genre: 'scifi',
        price: 9.99,
        published: '1965-08-01',
        inStock: true,
      },
      allowedActions: [],
    });
    expect(response).toMatchObject({
      numRowsReturned: 5,
      currentPage: 1,
      numRowsInPage: 5,
      startRow: 1,
      endRow: 5,
      maxRows: 12,
      maxPages: 3,
    });
    expect(response.pagination).toEqual({
      nextPageAvailable: true,
      countQueryExecuted: true,
      totalCountAvailable: true,
      countMode: 'exact',
    });
    expect(Object.keys(response.columnMetadata)).toEqual([
      'id',
      'title',
      'genre',
      'price',
      'published',
      'inStock',
      'author',
    ]);
    expect(response.columnMetadata.price).toMatchObject({ name: 'price', columnType: 'Number', sortable: true });
    // SQL column names (b.title…) are internal: never in a response.
    expect(response.columnMetadata.title).toEqual({
      name: 'title',
      columnType: 'Text',
      filterable: true,
      likeQuery: true,
      containsQuery: false,
      betweenQuery: false,
      sortable: true,
    });
    expect(JSON.stringify(response.columnMetadata)).not.toMatch(/columnName|b\.title/);
    expect(response).toMatchObject({ hiddenColumns: [], cannedReportName: null, availableCannedReports: [] });
    expect(factory.opened[0]).toMatchObject({ url: 'postgres://db-host/t1', maxConnections: 3 });
  });

  it('pages through count mode up to the last partial page and beyond', async () => {
    const last = await service.search('books', { sortCriteria: [{ name: 'id' }], numRowsInPage: 5, pageNum: 3 }, {});
    expect(ids(last)).toEqual([11, 12]);
    expect(last).toMatchObject({
      startRow: 11,
      endRow: 12,
      maxRows: 12,
      maxPages: 3,
      pagination: { nextPageAvailable: false },
    });
    const exact = await service.search('books', { sortCriteria: [{ name: 'id' }], numRowsInPage: 6, pageNum: 2 }, {});
    expect(ids(exact)).toEqual([7, 8, 9, 10, 11, 12]);
    expect(exact.pagination.nextPageAvailable).toBe(false);
    const beyond = await service.search('books', { numRowsInPage: 5, pageNum: 4 }, {});
    expect(beyond).toMatchObject({
      numRowsReturned: 0,
      startRow: 0,
      endRow: 0,
      maxRows: 12,
      pagination: { nextPageAvailable: false },
    });
  });

  it('no-count mode fetches one extra row to detect the next page', async () => {
    const first = await service.search(
      'booksNoCount',
      { sortCriteria: [{ name: 'id', ascendingOrder: false }], numRowsInPage: 4 },
      {},
    );
    expect(ids(first)).toEqual([12, 11, 10, 9]);
    expect(first).toMatchObject({ maxRows: null, maxPages: null, startRow: 1, endRow: 4 });
    expect(first.pagination).toEqual({
      nextPageAvailable: true,
      countQueryExecuted: false,
      totalCountAvailable: false,
      countMode: 'none',
    });
    const last = await service.search(
      'booksNoCount',
      { sortCriteria: [{ name: 'id', ascendingOrder: false }], numRowsInPage: 4, pageNum: 3 },
      {},
    );
    expect(ids(last)).toEqual([4, 3, 2, 1]);
    expect(last.pagination.nextPageAvailable).toBe(false);
    const filtered = await service.search(
      'booksNoCount',
      { filters: { genre: 'humour' }, numRowsInPage: 1, sortCriteria: [{ name: 'id' }] },
      {},
    );
    expect(ids(filtered)).toEqual([6]);
    expect(filtered.pagination.nextPageAvailable).toBe(true);
  });

  it('applies like, contains and between filters through bind parameters', async () => {
    const like = await service.search('books', { filters: { title: 'DUNE' }, sortCriteria: [{ name: 'id' }] }, {});
    expect(ids(like)).toEqual([1, 2, 11]);
    expect(like.maxRows).toBe(3);
    const literal = await service.search('books', { filters: { title: '100%' } }, {});
    expect(ids(literal)).toEqual([9]);
    const underscore = await service.search('books', { filters: { title: 'e_f' } }, {});
    expect(ids(underscore)).toEqual([9]);
    const noWildcard = await service.search('books', { filters: { title: '%' } }, {});
    expect(ids(noWildcard)).toEqual([9]);
    const contains = await service.search(
      'books',
      { filters: { genre: ['fantasy', 'humour'] }, sortCriteria: [{ name: 'id' }] },
      {},
    );
    expect(ids(contains)).toEqual([4, 6, 9]);
    const between = await service.search(
      'books',
      { filters: { price: ['10', 12], inStock: true }, sortCriteria: [{ name: 'price' }] },
      {},
    );
    expect(ids(between)).toEqual([12, 5]);
    const dates = await service.search(
      'books',
      { filters: { published: ['1968-01-01', '1969-12-31'] }, sortCriteria: [{ name: 'published' }] },
      {},
    );
    expect(ids(dates)).toEqual([12, 4, 3, 2]);
    const exactPrice = await service.search('books', { filters: { price: 9.99 } }, {});
    expect(ids(exactPrice)).toEqual([1]);
  });

  it('treats injection attempts in values as data and refuses them in names', async () => {
    const value = await service.search('books', { filters: { title: "x' or '1'='1" } }, {});
    expect(value.list).toEqual([]);
    const sortErr = await rejection(
      service.search('books', { sortCriteria: [{ name: 'id desc; drop table books' }] }, {}),
    );
    expect(sortErr.subErrorCode).toBe('Q726');
    const filterErr = await rejection(service.search('books', { filters: { '1=1) or (1': 1 } }, {}));
    expect(filterErr.subErrorCode).toBe('Q725');
    const orderbyErr = await rejection(service.search('books', { filters: { orderby: 'id; drop table books' } }, {}));
    expect(orderbyErr.subErrorCode).toBe('Q725');
    // customVariables may not replace the framework's ORDER BY / LIMIT text: those keys are set last.
    const custom = await service.search(
      'books',
      { customVariables: { orderby: 'ORDER BY 1; drop table books', pagination: 'LIMIT 1000' }, numRowsInPage: 2 },
      {},
    );
    expect(custom.numRowsReturned).toBe(2);
    const still = await service.search('books', { countOnly: true }, {});
    expect(still.maxRows).toBe(12);
  });

  it('passes systemFilters and customVariables to the statement', async () => {
    const response = await service.search(
      'books',
      { systemFilters: { minId: 10 }, sortCriteria: [{ name: 'id' }] },
      {},
    );
    expect(ids(response)).toEqual([10, 11, 12]);
    expect(response.maxRows).toBe(3);
  });

  it('wraps statements without ${orderby}/${pagination} and derives their count', async () => {
    const response = await service.search(
      'authors',
      { sortCriteria: [{ name: 'name', ascendingOrder: false }], numRowsInPage: 3 },
      {},
    );
    expect(response.list.map((r) => r.row.name)).toEqual(['Ursula K. Le Guin', 'Stanisław Lem', 'Iain M. Banks']);
    expect(response).toMatchObject({
      maxRows: 4,
      maxPages: 2,
      pagination: { nextPageAvailable: true, countQueryExecuted: true },
    });
    const second = await service.search(
      'authors',
      { sortCriteria: [{ name: 'id' }], numRowsInPage: 3, pageNum: 2, filters: { country: 'UK' } },
      {},
    );
    expect(second).toMatchObject({ numRowsReturned: 0, maxRows: 1, maxPages: 1 });
    const like = await service.search('authors', { filters: { name: 'le' }, sortCriteria: [{ name: 'id' }] }, {});
    expect(ids(like)).toEqual([2, 3]);
  });

  it('countOnly runs only the count (explicit -count statement and derived count)', async () => {
    const explicit = await service.search(
      'books',
      { countOnly: true, filters: { genre: 'scifi' }, numRowsInPage: 3 },
      {},
    );
    expect(explicit).toMatchObject({
      list: [],
      numRowsReturned: 0,
      maxRows: 9,
      maxPages: 3,
      pagination: { nextPageAvailable: true, countQueryExecuted: true, totalCountAvailable: true },
    });
    const derived = await service.search('authors', { countOnly: true, filters: { country: 'US' } }, {});
    expect(derived).toMatchObject({ list: [], maxRows: 2, maxPages: 1 });
    const noCountMode = await service.search('booksNoCount', { countOnly: true }, {});
    expect(noCountMode.maxRows).toBe(12);
  });

  it('returns every row of a non-paginated query, through its resultMap', async () => {
    const response = await service.search('authorsWithBooks', { filters: { country: 'PL' }, numRowsInPage: 1 }, {});
    expect(response.list.map((r) => r.row)).toEqual([
      {
        id: 3,
        name: 'Stanisław Lem',
        books: [
          { id: 5, title: 'Solaris' },
          { id: 6, title: 'The Cyberiad' },
          { id: 12, title: "His Master's Voice" },
        ],
      },
    ]);
    expect(response).toMatchObject({
      numRowsReturned: 1,
      currentPage: 1,
      startRow: 1,
      endRow: 1,
      maxRows: 1,
      maxPages: 1,
    });
    expect(response.pagination).toEqual({
      nextPageAvailable: false,
      countQueryExecuted: false,
      totalCountAvailable: true,
      countMode: 'none',
    });
  });

  it('keeps only the selected fields and echoes hidden columns', async () => {
    const response = await service.search(
      'books',
      {
        fields: ['title', 'price', 'unknownField'],
        hiddenColumns: ['price'],
        sortCriteria: [{ name: 'id' }],
        numRowsInPage: 2,
      },
      {},
    );
    expect(response.list.map((r) => r.row)).toEqual([
      { title: 'Dune', price: 9.99 },
      { title: 'Dune Messiah', price: 8.5 },
    ]);
    expect(response.hiddenColumns).toEqual(['price']);
  });

  it('orders checks: tenant, definition, ACL, request', async () => {
    const unknown = await rejection(service.search('nope', { bad: 1 }, { tenantId: 't1' }));
    expect([unknown.code, unknown.subErrorCode]).toEqual([404, 'Q700']);
    const tenant = await rejection(service.search('nope', {}, { tenantId: 't9' }));
    expect([tenant.code, tenant.subErrorCode, tenant.params]).toEqual([400, 'Q724', ['t9']]);
    const seen: string[][] = [];
    const forbidden = await rejection(
      service.search('books', { bad: 1 }, { authorize: (acls) => (seen.push([...acls]), false) }),
    );
    expect([forbidden.code, forbidden.subErrorCode]).toEqual([403, 'Q728']);
    expect(seen).toEqual([['BOOKS_READ']]);
    const allowed = await service.search('books', { numRowsInPage: 1 }, { authorize: async () => true });
    expect(allowed.numRowsReturned).toBe(1);
    const invalid = await rejection(service.search('books', { bad: 1 }, { authorize: () => true }));
    expect(invalid.subErrorCode).toBe('Q727');
  });

  it('uses the tenant of the @fw/core request context when the context has none', async () => {
    const err = await runWithTenant('t9', () => rejection(service.search('books', {}, {})));
    expect(err.subErrorCode).toBe('Q724');
  });

  it('uses the tenant override definition for t2 only', async () => {
    const t2 = await service.search('books', { sortCriteria: [{ name: 'id' }], numRowsInPage: 2 }, { tenantId: 't2' });
    expect(t2.pagination.countQueryExecuted).toBe(false);
    expect(Object.keys(t2.columnMetadata)).toEqual(['id', 'genre']);
    const refused = await rejection(service.search('books', { filters: { title: 'dune' } }, { tenantId: 't2' }));
    expect(refused.subErrorCode).toBe('Q725');
    const t1 = await service.search('books', { filters: { title: 'dune' } }, { tenantId: 't1' });
    expect(t1.numRowsReturned).toBe(3);
    expect(service.describeQuery('books', { tenantId: 't2' })).toMatchObject({
      tenantSpecific: true,
      acls: ['T2_BOOKS'],
    });
    expect(service.describeQuery('books', { tenantId: 't1' })).toMatchObject({
      tenantSpecific: false,
      acls: ['BOOKS_READ'],
      paginated: true,
    });
    expect(service.listQueries({ tenantId: 't2' }).map((q) => [q.name, q.tenantSpecific])).toEqual([
      ['authors', false],
      ['authorsWithBooks', false],
      ['books', true],
      ['booksNoCount', false],
      ['broken', false],
      ['countBroken', false],
    ]);
    expect(() => service.describeQuery('nope', {})).toThrow(
      expect.objectContaining({ subErrorCode: 'Q700', code: 404 }),
    );
  });

  it('reports a failing statement as Q721 without SQL internals', async () => {
    const err = await rejection(service.search('broken', {}, {}));
    expect([err.code, err.subErrorCode, err.description]).toEqual([500, 'Q721', "Query 'broken' failed"]);
    expect(JSON.stringify(err.details)).not.toMatch(/no_such_table|select/i);
    const count = await rejection(service.search('countBroken', {}, {}));
    expect([count.code, count.subErrorCode, count.description]).toEqual([
      500,
      'Q722',
      "The count for query 'countBroken' failed",
    ]);
  });

  describe.each(['memory', 'database'] as const)('canned reports [query.cannedReports.store %s]', (store) => {
    let cannedService: QueryService;
    beforeAll(async () => {
      const { database } = getDb();
      // The test database is migrated, so it also holds fw_query_canned_report.
      const databases = fixedDatabaseFactory({
        'postgres://db-host/t1': database,
        'postgres://db-host/t2': database,
        'postgres://db-host/reports': database,
      });
      cannedService = await makeQueryService({
        config: libraryConfig(store === 'database' ? { cannedReports: { store, dataSource: 'reports' } } : {}),
        dataSources: { reports: { jdbcUrl: 'postgres://db-host/reports' } },
        baseDir: FIXTURES,
        databaseFactory: databases.factory,
      });
    });
    afterAll(() => cannedService.close());

    it('saves, applies, publishes and lists canned reports per tenant and query', () =>
      savesAppliesPublishesAndListsCannedReports(cannedService));
  });
});
