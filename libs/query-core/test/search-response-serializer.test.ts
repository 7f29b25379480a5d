import {
  buildSearchResponse,
  type QueryDefinition,
  type ResponseShape,
  type SearchResponse,
  serializeSearchResponse,
} from '../src';

const definition: QueryDefinition = {
  name: 'books',
  id: 'library.findBooks',
  paginated: true,
  acls: [],
  columnMetadata: {
    title: {
      name: 'title',
      columnName: 'b.title',
      columnType: 'Text',
      filterable: true,
      likeQuery: true,
      containsQuery: false,
      betweenQuery: false,
      sortable: true,
    },
    price: {
      name: 'price',
      columnName: 'b.price',
      columnType: 'Number',
      filterable: true,
      likeQuery: false,
      containsQuery: false,
      betweenQuery: true,
      sortable: true,
    },
  },
};
const rows = [
  { id: 1, title: 'Dune "the first"', price: 9.99, published: '1965-08-01', tags: ['a', 'b'], note: null },
  { id: 2, title: 'Ubik \u2028 ü', price: 12, published: '1969-01-01', tags: [], note: 'x' },
];

function build(shape: ResponseShape, extra: Partial<Parameters<typeof buildSearchResponse>[0]> = {}): SearchResponse {
  return buildSearchResponse(
    {
      definition,
      pageNum: 1,
      numRowsInPage: 2,
      hiddenColumns: [],
      cannedReportName: null,
      availableCannedReports: [],
      ...extra,
    },
    shape,
  );
}

describe('serializeSearchResponse', () => {
  it('writes exactly JSON.stringify of every response shape the service builds', () => {
    const responses = [
      build({ kind: 'counted', rows, total: 7 }),
      build({ kind: 'lookahead', rows: [...rows, rows[0]] }),
      build({ kind: 'all', rows }),
      build({ kind: 'countOnly', total: 0 }),
      build(
        { kind: 'counted', rows, total: 2 },
        {
          fields: ['title', 'nope'],
          hiddenColumns: ['price'],
          cannedReportName: 'mine',
          availableCannedReports: ['mine', 'theirs'],
        },
      ),
    ];
    for (const response of responses) {
      expect(serializeSearchResponse(response)).toBe(JSON.stringify(response));
      // Twice: the second time the metadata comes from the per-definition cache.
      expect(serializeSearchResponse(response)).toBe(JSON.stringify(response));
    }
    expect(serializeSearchResponse(responses[0])).not.toContain('b.title');
  });

  it('writes the same JSON for any other object: other key order, extra keys, undefined values, unfrozen metadata', () => {
    const built = build({ kind: 'counted', rows, total: 7 });
    const reordered = {
      extra: { deep: [1, 'two'] },
      ...built,
      maxRows: undefined,
      columnMetadata: { title: { ...built.columnMetadata.title } },
      skipped: () => 1,
    } as unknown as SearchResponse;
    expect(JSON.parse(serializeSearchResponse(reordered))).toEqual(JSON.parse(JSON.stringify(reordered)));
    const withToJson = { ...built, toJSON: () => ({ replaced: true }) } as unknown as SearchResponse;
    expect(serializeSearchResponse(withToJson)).toBe('{"replaced":true}');
  });
});
