import type { QueryDefinition } from '../definition/query-definition-types';
import type { PaginationInfo, PublicColumnMetadata, SearchResponse } from '../search/search-types';

type Row = Record<string, unknown>;

/** How a search was run, for building the response. */
export type ResponseShape =
  | { kind: 'countOnly'; total: number }
  | { kind: 'all'; rows: Row[] }
  | { kind: 'counted'; rows: Row[]; total: number }
  | { kind: 'lookahead'; rows: Row[] };

export interface ResponseInput {
  definition: QueryDefinition;
  pageNum: number;
  numRowsInPage: number;
  fields?: string[];
  hiddenColumns: string[];
  cannedReportName: string | null;
  availableCannedReports: string[];
}

/** Per definition, built on its first response: the metadata every response of it carries. */
const publicMetadata = new WeakMap<QueryDefinition, Readonly<Record<string, PublicColumnMetadata>>>();

/**
 * The response's `columnMetadata` of a definition: `columnName` removed (internal SQL), frozen
 * and shared by all its responses, so a search neither copies nor re-filters it.
 */
export function publicColumnMetadata(definition: QueryDefinition): Readonly<Record<string, PublicColumnMetadata>> {
  let metadata = publicMetadata.get(definition);
  if (!metadata) {
    const entries: Record<string, PublicColumnMetadata> = {};
    for (const [field, column] of Object.entries(definition.columnMetadata)) {
      const { columnName: _internal, ...shown } = column;
      entries[field] = Object.freeze(shown);
    }
    metadata = Object.freeze(entries);
    publicMetadata.set(definition, metadata);
  }
  return metadata;
}

function project(row: Row, fields: string[] | undefined): Row {
  if (!fields) return row;
  return Object.fromEntries(fields.filter((f) => Object.hasOwn(row, f)).map((f) => [f, row[f]]));
}

/**
 * Builds the SearchResponse payload. `startRow`/`endRow` are 1-based (0 for an empty page);
 * a non-paginated query reports itself as one page holding every row.
 */
export function buildSearchResponse(input: ResponseInput, shape: ResponseShape): SearchResponse {
  const size = input.numRowsInPage;
  const offset = (input.pageNum - 1) * size;
  let rows: Row[] = [];
  let currentPage = input.pageNum;
  let numRowsInPage = size;
  let maxRows: number | null = null;
  let maxPages: number | null = null;
  let pagination: PaginationInfo;
  let first = offset;
  switch (shape.kind) {
    case 'countOnly':
      maxRows = shape.total;
      maxPages = Math.ceil(shape.total / size);
      pagination = { nextPageAvailable: input.pageNum < maxPages, countQueryExecuted: true, totalCountAvailable: true };
      break;
    case 'all':
      rows = shape.rows;
      currentPage = 1;
      numRowsInPage = rows.length;
      first = 0;
      maxRows = rows.length;
      maxPages = rows.length === 0 ? 0 : 1;
      pagination = { nextPageAvailable: false, countQueryExecuted: false, totalCountAvailable: true };
      break;
    case 'counted':
      rows = shape.rows;
      maxRows = shape.total;
      maxPages = Math.ceil(shape.total / size);
      pagination = { nextPageAvailable: offset + rows.length < shape.total, countQueryExecuted: true, totalCountAvailable: true };
      break;
    case 'lookahead':
      rows = shape.rows.slice(0, size);
      pagination = { nextPageAvailable: shape.rows.length > size, countQueryExecuted: false, totalCountAvailable: false };
      break;
  }
  return {
    list: rows.map((row) => ({ row: project(row, input.fields), allowedActions: [] })),
    numRowsReturned: rows.length,
    currentPage,
    numRowsInPage,
    startRow: rows.length === 0 ? 0 : first + 1,
    endRow: rows.length === 0 ? 0 : first + rows.length,
    maxRows,
    maxPages,
    pagination,
    columnMetadata: publicColumnMetadata(input.definition),
    hiddenColumns: input.hiddenColumns,
    cannedReportName: input.cannedReportName,
    availableCannedReports: input.availableCannedReports,
  };
}
