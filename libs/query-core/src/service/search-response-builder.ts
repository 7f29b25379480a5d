import type { CountMode, QueryDefinition } from '../definition/query-definition-types';
import type { KeysetPage } from '../keyset/keyset-paging';
import type { PaginationInfo, PublicColumnMetadata, SearchResponse } from '../search/search-types';

type Row = Record<string, unknown>;

/** How a search was run, for building the response. */
export type ResponseShape =
  | { kind: 'countOnly'; total: number }
  | { kind: 'all'; rows: Row[] }
  | { kind: 'counted'; rows: Row[]; total: number }
  | { kind: 'lookahead'; rows: Row[] }
  /** Rows with one extra (it only sets `nextPageAvailable`) and the planner's estimate of the total. */
  | { kind: 'estimated'; rows: Row[]; total: number }
  /** A keyset page, with the total when one was found (exactly or planned). */
  | { kind: 'keyset'; page: KeysetPage; total?: number };

export interface ResponseInput {
  definition: QueryDefinition;
  pageNum: number;
  numRowsInPage: number;
  fields?: string[];
  hiddenColumns: string[];
  cannedReportName: string | null;
  availableCannedReports: string[];
  /**
   * The count mode the search ran with (reported as `pagination.countMode`); default: what the
   * shape implies (`exact` for a count, `planned` for an estimate, else `none`).
   */
  countMode?: CountMode;
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

export function project(row: Row, fields: readonly string[] | undefined): Row {
  if (!fields) return row;
  return Object.fromEntries(fields.filter((f) => Object.hasOwn(row, f)).map((f) => [f, row[f]]));
}

/**
 * Builds the SearchResponse payload. `startRow`/`endRow` are 1-based (0 for an empty page);
 * a non-paginated query reports itself as one page holding every row.
 */
export function buildSearchResponse(input: ResponseInput, shape: ResponseShape): SearchResponse {
  const size = input.numRowsInPage;
  const counted =
    shape.kind === 'countOnly' ||
    shape.kind === 'counted' ||
    shape.kind === 'estimated' ||
    (shape.kind === 'keyset' && shape.total !== undefined);
  const countMode = input.countMode ?? (shape.kind === 'estimated' ? 'planned' : counted ? 'exact' : 'none');
  const base = { countQueryExecuted: counted && countMode === 'exact', totalCountAvailable: counted, countMode };
  let rows: Row[] = [];
  let currentPage = input.pageNum;
  let numRowsInPage = size;
  let total: number | null = null;
  let pagination: PaginationInfo;
  switch (shape.kind) {
    case 'countOnly':
      total = shape.total;
      pagination = { nextPageAvailable: input.pageNum < Math.ceil(shape.total / size), ...base };
      break;
    case 'all':
      rows = shape.rows;
      currentPage = 1;
      numRowsInPage = rows.length;
      total = rows.length;
      pagination = { nextPageAvailable: false, countQueryExecuted: false, totalCountAvailable: true, countMode };
      break;
    case 'counted':
      rows = shape.rows;
      total = shape.total;
      pagination = { nextPageAvailable: (input.pageNum - 1) * size + rows.length < shape.total, ...base };
      break;
    case 'lookahead':
    case 'estimated':
      rows = shape.rows.slice(0, size);
      total = shape.kind === 'estimated' ? shape.total : null;
      pagination = { nextPageAvailable: shape.rows.length > size, ...base };
      break;
    case 'keyset':
      rows = shape.page.rows;
      currentPage = shape.page.currentPage;
      total = shape.total ?? null;
      pagination = {
        nextPageAvailable: shape.page.nextPageAvailable,
        ...base,
        nextCursor: shape.page.nextCursor,
        prevCursor: shape.page.prevCursor,
      };
      break;
  }
  const first = (currentPage - 1) * numRowsInPage;
  return {
    list: rows.map((row) => ({ row: project(row, input.fields), allowedActions: [] })),
    numRowsReturned: rows.length,
    currentPage,
    numRowsInPage,
    startRow: rows.length === 0 ? 0 : first + 1,
    endRow: rows.length === 0 ? 0 : first + rows.length,
    maxRows: total,
    maxPages: total === null ? null : shape.kind === 'all' ? (total === 0 ? 0 : 1) : Math.ceil(total / size),
    pagination,
    columnMetadata: publicColumnMetadata(input.definition),
    hiddenColumns: input.hiddenColumns,
    cannedReportName: input.cannedReportName,
    availableCannedReports: input.availableCannedReports,
  };
}
