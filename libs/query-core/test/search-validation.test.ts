import { type FwError, isFwError } from '@fw/core';
import {
  buildOrderBy,
  buildPagination,
  escapeLike,
  makeSearchRequestParser,
  planSearch,
  type QueryDefinition,
  quoteIdentifier,
  type SearchRequest,
} from '../src';

function fwError(fn: () => unknown): FwError {
  try {
    fn();
  } catch (err) {
    if (isFwError(err)) return err;
    throw err;
  }
  throw new Error('expected an FwError');
}

const column = (name: string, flags: Partial<QueryDefinition['columnMetadata'][string]>) => ({
  name,
  filterable: false,
  likeQuery: false,
  containsQuery: false,
  betweenQuery: false,
  sortable: false,
  ...flags,
});

const books: QueryDefinition = {
  name: 'books',
  id: 'library.findBooks',
  paginated: true,
  acls: [],
  columnMetadata: {
    title: column('title', {
      columnName: 'b.title',
      columnType: 'Text',
      filterable: true,
      likeQuery: true,
      sortable: true,
    }),
    genre: column('genre', { columnType: 'Text', filterable: true, containsQuery: true }),
    price: column('price', {
      columnName: 'b.price',
      columnType: 'Number',
      filterable: true,
      betweenQuery: true,
      sortable: true,
    }),
    published: column('published', { columnType: 'Date', filterable: true, betweenQuery: true }),
    inStock: column('inStock', { columnType: 'Boolean', filterable: true }),
    isbn: column('isbn', { columnType: 'Text', filterable: false, sortable: false }),
    anything: column('anything', { filterable: true }),
  },
};

describe('SearchRequest schema', () => {
  const parser = makeSearchRequestParser(100);

  it('accepts every documented field and an empty body', () => {
    const request = {
      pageNum: 2,
      numRowsInPage: 100,
      filters: {},
      sortCriteria: [{ name: 'title', ascendingOrder: false }, { name: 'price' }],
      systemFilters: {},
      customVariables: {},
      countOnly: false,
      fields: ['title'],
      hiddenColumns: ['price'],
      cannedReportName: 'mine',
      saveChangesToCannedReport: false,
      publishCannedReportToEveryone: false,
    };
    expect(parser.parse(request)).toEqual(request);
    expect(parser.parse(undefined)).toEqual({});
    expect(parser.parse(null)).toEqual({});
  });

  it('reports every problem as Q727 with its field', () => {
    const err = fwError(() =>
      parser.parse({ pageNum: 0, numRowsInPage: 101, color: 'red', sortCriteria: [{ name: 1 }], filters: [] }),
    );
    expect(err.code).toBe(400);
    expect(err.subErrorCode).toBe('Q727');
    const fields = err.details.map((d) => d.field).sort();
    expect(fields).toEqual(['color', 'filters', 'numRowsInPage', 'pageNum', 'sortCriteria[0].name']);
    expect(err.details.every((d) => d.subErrorCode === 'Q727')).toBe(true);
    expect(err.details.find((d) => d.field === 'color')?.description).toBe("Unknown request field 'color'");
    expect(err.details.find((d) => d.field === 'numRowsInPage')?.description).toBe(
      'Invalid request: numRowsInPage must be an integer from 1 to 100',
    );
  });

  it('refuses non-object bodies and fractional pages', () => {
    expect(fwError(() => parser.parse('x')).subErrorCode).toBe('Q727');
    expect(fwError(() => parser.parse({ pageNum: 1.5 })).field).toBe('pageNum');
  });
});

describe('planSearch', () => {
  const plan = (request: SearchRequest) => planSearch(request, books);

  it('wraps like values as %v% with %, _ and \\ escaped', () => {
    expect(plan({ filters: { title: 'dune' } }).parameters.title).toBe('%dune%');
    expect(plan({ filters: { title: '100%_a\\b' } }).parameters.title).toBe('%100\\%\\_a\\\\b%');
    expect(plan({ filters: { title: 'x' } }).filters[0]).toMatchObject({
      operator: 'like',
      raw: 'x',
      column: 'b.title',
    });
  });

  it('turns contains scalars into lists and between scalars into [v, v]', () => {
    expect(plan({ filters: { genre: 'scifi' } }).parameters.genre).toEqual(['scifi']);
    expect(plan({ filters: { genre: ['scifi', 'humour'] } }).parameters.genre).toEqual(['scifi', 'humour']);
    expect(plan({ filters: { price: 10 } }).parameters.price).toEqual([10, 10]);
    expect(plan({ filters: { price: ['5', 10.5] } }).parameters.price).toEqual([5, 10.5]);
  });

  it('converts typed values and drops null filters', () => {
    const p = plan({
      filters: { inStock: 'true', published: ['1960-01-01', '1970-12-31T00:00:00Z'], title: null, anything: 3 },
    });
    expect(p.parameters).toEqual({ inStock: true, published: ['1960-01-01', '1970-12-31T00:00:00Z'], anything: 3 });
  });

  it('rejects undeclared and non-filterable filters with Q725 and lists on plain columns', () => {
    const err = fwError(() => plan({ filters: { isbn: 'x', nope: 1, inStock: [true] } }));
    expect(err.subErrorCode).toBe('Q725');
    expect(err.details.map((d) => [d.subErrorCode, d.field])).toEqual([
      ['Q725', 'filters.isbn'],
      ['Q725', 'filters.nope'],
      ['Q725', 'filters.inStock'],
    ]);
    expect(err.description).toBe("Filter 'isbn' is not allowed for query 'books'");
    expect(err.params).toEqual(['isbn', 'books']);
  });

  it('rejects wrong types, objects and between lists of the wrong length with Q727', () => {
    const err = fwError(() =>
      plan({ filters: { price: [1, 2, 3], title: { $ne: 1 }, inStock: 'yes', published: 'yesterday', genre: [1] } }),
    );
    expect(err.details.map((d) => [d.subErrorCode, d.field, d.description])).toEqual([
      ['Q727', 'filters.price', "Filter 'price' is a range and needs exactly 2 values [from, to], got 3"],
      ['Q727', 'filters.title', "Filter 'title' must be a scalar or a list, not an object"],
      ['Q727', 'filters.inStock', "Filter 'inStock' must be a boolean"],
      ['Q727', 'filters.published', "Filter 'published' must be an ISO-8601 date"],
      ['Q727', 'filters.genre', "Filter 'genre' must be a string in every list item"],
    ]);
    expect(fwError(() => plan({ filters: { price: 'cheap' } })).description).toBe("Filter 'price' must be a number");
    expect(fwError(() => plan({ filters: { genre: [] } })).subErrorCode).toBe('Q727');
  });

  it('rejects sorts on undeclared or non-sortable columns with Q726, collected with filter problems', () => {
    const err = fwError(() =>
      plan({
        filters: { nope: 1 },
        sortCriteria: [{ name: 'title' }, { name: 'genre' }, { name: 'title; drop table books' }],
      }),
    );
    expect(err.details.map((d) => [d.subErrorCode, d.field])).toEqual([
      ['Q725', 'filters.nope'],
      ['Q726', 'sortCriteria[1].name'],
      ['Q726', 'sortCriteria[2].name'],
    ]);
  });

  it('builds the flat parameter map: filters, then systemFilters, then customVariables', () => {
    const p = plan({
      filters: { title: 'a' },
      systemFilters: { title: 'sys', region: 'eu' },
      customVariables: { region: 'custom', __proto__x: 1 },
    });
    expect(p.parameters).toEqual({ title: 'sys', region: 'custom', __proto__x: 1 });
    const polluted = plan({
      customVariables: JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>,
    });
    expect(Object.getPrototypeOf(polluted.parameters)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('sorts by metadata columns only', () => {
    const p = plan({ sortCriteria: [{ name: 'price', ascendingOrder: false }, { name: 'title' }] });
    expect(p.sort).toEqual([
      { field: 'price', column: 'b.price', ascending: false },
      { field: 'title', column: 'b.title', ascending: true },
    ]);
    expect(buildOrderBy(p.sort)).toBe('ORDER BY "b"."price" DESC, "b"."title" ASC');
    expect(buildOrderBy(p.sort, 'wrapper')).toBe('ORDER BY "q"."price" DESC, "q"."title" ASC');
  });
});

describe('SQL fragments', () => {
  it('quotes identifiers and refuses anything else', () => {
    expect(quoteIdentifier('b.published_at')).toBe('"b"."published_at"');
    expect(() => quoteIdentifier('a"; drop table x; --')).toThrow(/Not a safe SQL identifier/);
    expect(buildOrderBy([])).toBe('');
  });

  it('builds pagination from checked integers', () => {
    expect(buildPagination({ limit: 11, offset: 20 })).toBe('LIMIT 11 OFFSET 20');
    expect(buildPagination(undefined)).toBe('');
    expect(() => buildPagination({ limit: 1.5, offset: 0 })).toThrow();
    expect(() => buildPagination({ limit: 1, offset: -1 })).toThrow();
  });

  it('escapes like metacharacters', () => {
    expect(escapeLike('a%b_c\\')).toBe('a\\%b\\_c\\\\');
  });
});
