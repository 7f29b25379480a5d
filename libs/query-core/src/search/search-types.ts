import type { ColumnMetadata, CountMode } from '../definition/query-definition-types';

/** One entry of `sortCriteria`. `ascendingOrder` defaults to true. */
export interface SortCriterion {
  name: string;
  ascendingOrder?: boolean;
}

/**
 * The body of `POST /q/{queryName}` after schema validation. Every field is
 * optional; defaults: `pageNum` 1, `numRowsInPage` 10.
 *
 * @example
 * const request: SearchRequest = { pageNum: 2, numRowsInPage: 20, filters: { title: 'dune' },
 *   sortCriteria: [{ name: 'price', ascendingOrder: false }] };
 */
export interface SearchRequest {
  pageNum?: number;
  numRowsInPage?: number;
  filters?: Record<string, unknown>;
  sortCriteria?: SortCriterion[];
  systemFilters?: Record<string, unknown>;
  customVariables?: Record<string, unknown>;
  countOnly?: boolean;
  fields?: string[];
  hiddenColumns?: string[];
  cannedReportName?: string;
  saveChangesToCannedReport?: boolean;
  publishCannedReportToEveryone?: boolean;
  /** An opaque cursor from a previous answer's `pagination.nextCursor`/`prevCursor`, instead of `pageNum`. */
  cursor?: string;
  /** Count mode of this request; may only lower the definition's. */
  countMode?: CountMode;
}

/** How a filter is applied, decided from the column metadata and the value's shape. */
export type FilterOperator = 'equals' | 'like' | 'contains' | 'between';

/** A validated filter. `value` is what the statement receives; `raw` the typed value before wrapping. */
export interface FilterCondition {
  field: string;
  column: string;
  operator: FilterOperator;
  /** Statement parameter value: scalar, `%v%` (like), list (contains) or `[from, to]` (between). */
  value: unknown;
  /** Typed value without like-wrapping/escaping (what a non-SQL provider compares with). */
  raw: unknown;
}

/** A validated sort entry: the API field, the SQL column from metadata and the direction. */
export interface SortSpec {
  field: string;
  column: string;
  ascending: boolean;
}

/** A column's metadata as a SearchResponse shows it: every flag, but not the SQL `columnName`. */
export type PublicColumnMetadata = Readonly<Omit<ColumnMetadata, 'columnName'>>;

/** `pagination` object of a SearchResponse. */
export interface PaginationInfo {
  nextPageAvailable: boolean;
  countQueryExecuted: boolean;
  totalCountAvailable: boolean;
  /** How the total was found: `exact`, `planned` (an estimate) or `none`. */
  countMode: CountMode;
  /** Keyset queries: the cursor of the next page (null on the last page). */
  nextCursor?: string | null;
  /** Keyset queries: the cursor of the previous page (null on the first page). */
  prevCursor?: string | null;
}

/** One row of a SearchResponse. `allowedActions` is always `[]` in this service. */
export interface SearchResultRow {
  row: Record<string, unknown>;
  allowedActions: string[];
}

/**
 * The payload of a successful search.
 *
 * `startRow`/`endRow` are 1-based positions of the first/last returned row (both 0 when the page
 * is empty). `maxRows`/`maxPages` are null when no count ran (no-count mode).
 */
export interface SearchResponse {
  list: SearchResultRow[];
  numRowsReturned: number;
  currentPage: number;
  numRowsInPage: number;
  startRow: number;
  endRow: number;
  maxRows: number | null;
  maxPages: number | null;
  pagination: PaginationInfo;
  /**
   * The definition's column metadata, keyed by API field name (as in the definition), without
   * `columnName`: SQL column names are internal and never leave the service.
   */
  columnMetadata: Readonly<Record<string, PublicColumnMetadata>>;
  hiddenColumns: string[];
  cannedReportName: string | null;
  availableCannedReports: string[];
}
