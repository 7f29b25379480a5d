import { isConfigError } from '@fw/core';
import {
  makeInMemoryQueryProvider,
  makeQueryService,
  type QueryExecutionProvider,
  type QueryExecutionRequest,
  type QueryService,
} from '../src';
import { FIXTURES, libraryConfig } from './support/library-fixture';

const books = [
  { id: 1, title: 'Dune', genre: 'scifi', price: 9.99, published: '1965-08-01', inStock: true },
  { id: 2, title: 'Dune Messiah', genre: 'scifi', price: 8.5, published: '1969-10-15', inStock: true },
  { id: 3, title: 'The Left Hand of Darkness', genre: 'scifi', price: 12, published: '1969-03-01', inStock: false },
  { id: 4, title: 'A Wizard of Earthsea', genre: 'fantasy', price: 7.25, published: '1968-11-01', inStock: true },
  { id: 5, title: 'The Cyberiad', genre: 'humour', price: 10, published: '1965-01-01', inStock: false },
];
const authors = [{ id: 1, name: 'Frank Herbert', country: 'US' }];

describe('in-memory provider through the query service', () => {
  let service: QueryService;
  const memory = makeInMemoryQueryProvider({
    datasets: {
      'library.findBooks': books,
      'library.findAuthors': authors,
      'library.authorsWithBooks': [],
      'library.brokenQuery': [],
      'library.countBroken': [],
    },
    tenantDatasets: { t2: { 'library.findBooks': [{ id: 99, title: 'Tenant two only', genre: 'scifi' }] } },
  });

  beforeAll(async () => {
    // No mapper files: the memory provider serves the statements itself.
    service = await makeQueryService({
      config: libraryConfig({ provider: 'memory', mapperFiles: null }),
      baseDir: FIXTURES,
      providers: [memory],
    });
  });
  afterAll(() => service.close());

  it('filters with like (case-insensitive substring), contains, between and equality', async () => {
    const like = await service.search('books', { filters: { title: 'dUNE' } }, {});
    expect(like.list.map((r) => r.row.id)).toEqual([1, 2]);
    const contains = await service.search('books', { filters: { genre: ['fantasy', 'humour'] } }, {});
    expect(contains.list.map((r) => r.row.id)).toEqual([4, 5]);
    const between = await service.search('books', { filters: { price: [8.5, 10] } }, {});
    expect(between.list.map((r) => r.row.id)).toEqual([1, 2, 5]);
    const dates = await service.search(
      'books',
      { filters: { published: ['1965-01-01', '1968-12-31'], inStock: 'true' } },
      {},
    );
    expect(dates.list.map((r) => r.row.id)).toEqual([1, 4]);
  });

  it('sorts and pages in both pagination modes', async () => {
    const counted = await service.search(
      'books',
      { sortCriteria: [{ name: 'price', ascendingOrder: false }], numRowsInPage: 2, pageNum: 2 },
      {},
    );
    expect(counted.list.map((r) => r.row.id)).toEqual([1, 2]);
    expect(counted).toMatchObject({
      maxRows: 5,
      maxPages: 3,
      startRow: 3,
      endRow: 4,
      pagination: { nextPageAvailable: true, countQueryExecuted: true },
    });
    const lookahead = await service.search(
      'booksNoCount',
      { sortCriteria: [{ name: 'id' }], numRowsInPage: 2, pageNum: 3 },
      {},
    );
    expect(lookahead.list.map((r) => r.row.id)).toEqual([5]);
    expect(lookahead).toMatchObject({
      maxRows: null,
      pagination: { nextPageAvailable: false, countQueryExecuted: false },
    });
    const countOnly = await service.search('books', { countOnly: true, filters: { genre: 'scifi' } }, {});
    expect(countOnly).toMatchObject({ list: [], maxRows: 3 });
  });

  it('keeps metadata validation and per-tenant data', async () => {
    await expect(service.search('books', { filters: { isbn: 'x' } }, {})).rejects.toMatchObject({
      subErrorCode: 'Q725',
    });
    const t2 = await service.search('booksNoCount', {}, { tenantId: 't2' });
    expect(t2.list.map((r) => r.row.id)).toEqual([99]);
  });

  it('reports an unexpected provider error as Q721 and passes the validated request', async () => {
    const seen: QueryExecutionRequest[] = [];
    const failing: QueryExecutionProvider = {
      name: 'flaky',
      async execute(request) {
        seen.push(request);
        throw new Error('socket hang up at 10.0.0.7');
      },
    };
    const flaky = await makeQueryService({
      config: libraryConfig({ provider: 'flaky', mapperFiles: null }),
      baseDir: FIXTURES,
      providers: [failing],
    });
    const err = await flaky
      .search('books', { filters: { title: 'a' }, sortCriteria: [{ name: 'price' }], numRowsInPage: 3, pageNum: 2 }, {})
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 500, subErrorCode: 'Q721', description: "Query 'books' failed" });
    expect(seen[0]).toMatchObject({
      tenantId: 't1',
      mode: 'both',
      page: { limit: 3, offset: 3 },
      sort: [{ field: 'price', column: 'b.price', ascending: true }],
      parameters: { title: '%a%', orderby: 'ORDER BY "b"."price" ASC', pagination: 'LIMIT 3 OFFSET 3' },
    });
    await flaky.close();
  });

  it('fails startup for an unknown provider or a statement the provider lacks', async () => {
    const error = await makeQueryService({ config: libraryConfig({ provider: 'elastic' }), baseDir: FIXTURES }).catch(
      (e: unknown) => e,
    );
    expect(isConfigError(error) && error.message).toBe(
      "query.provider 'elastic' is not a registered QueryExecutionProvider (registered: sql)",
    );
    const partial = makeInMemoryQueryProvider({ datasets: { 'library.findBooks': [] } });
    const missing = await makeQueryService({
      config: libraryConfig({ provider: 'memory', mapperFiles: null }),
      baseDir: FIXTURES,
      providers: [partial],
    }).catch((e: unknown) => e);
    expect(isConfigError(missing) && missing.message).toBe(
      "definitions/library.json: query 'authors' references statement 'library.findAuthors', which is not defined by any loaded mapper",
    );
    const twice = await makeQueryService({
      config: libraryConfig({ provider: 'memory' }),
      baseDir: FIXTURES,
      providers: [partial, partial],
    }).catch((e: unknown) => e);
    expect(isConfigError(twice) && twice.message).toBe("Two QueryExecutionProviders are named 'memory'");
  });
});
