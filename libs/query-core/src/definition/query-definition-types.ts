/**
 * Query metadata: the public name of a query, the statement it runs and the allow-list of what
 * callers may filter and sort.
 */

/**
 * Type of a column's filter values:
 * - `Text`: a string.
 * - `Number`: a JSON number or a numeric string (`"12.5"`), bound as a number.
 * - `Date`: an ISO-8601 date or date-time string (`2024-01-31`, `2024-01-31T10:00:00Z`), bound as text
 *   (PostgreSQL casts it to the column's type).
 * - `Boolean`: `true`/`false` or the strings `"true"`/`"false"`, bound as a boolean.
 * Without `columnType`, any scalar (string, number, boolean) is accepted unchanged.
 */
export type ColumnType = 'Text' | 'Number' | 'Date' | 'Boolean';

export const COLUMN_TYPES: readonly ColumnType[] = ['Text', 'Number', 'Date', 'Boolean'];

/**
 * Allow-list entry of one API field. Every flag defaults to false.
 *
 * @example
 * const price: ColumnMetadata = { name: 'price', columnName: 'b.price', columnType: 'Number',
 *   filterable: true, likeQuery: false, containsQuery: false, betweenQuery: true, sortable: true };
 */
export interface ColumnMetadata {
  /** API field name (the key in `filters`, `sortCriteria[].name` and the statement parameter). */
  name: string;
  /** SQL column (or `alias.column`) used in ORDER BY when it differs from `name`. */
  columnName?: string;
  columnType?: ColumnType;
  /** The field may appear in `filters`. */
  filterable: boolean;
  /** A filter value becomes `%value%` (with `%`, `_`, `\` escaped). */
  likeQuery: boolean;
  /** A filter value is a list (a scalar becomes a one-element list). */
  containsQuery: boolean;
  /** A filter value is `[from, to]` (a scalar becomes `[v, v]`). */
  betweenQuery: boolean;
  /** The field may appear in `sortCriteria`. */
  sortable: boolean;
}

/** How a search counts its rows: `exact` (`count(*)`), `planned` (the planner's estimate) or `none`. */
export type CountMode = 'exact' | 'planned' | 'none';

export const COUNT_MODES: readonly CountMode[] = ['exact', 'planned', 'none'];

/**
 * Keyset (cursor) pagination: the API fields that make a row's position unique, used as the
 * last sort keys and compared as one row value.
 *
 * @example
 * const keyset: KeysetSpec = { columns: ['id'] };
 */
export interface KeysetSpec {
  columns: string[];
}

/** Opt-in result cache of a definition. */
export interface CacheSpec {
  /** How long an answer is served from the cache. */
  ttlSeconds: number;
}

/**
 * One query definition (query metadata).
 *
 * @example
 * const books: QueryDefinition = { name: 'books', id: 'library.findBooks', paginated: true, acls: ['BOOKS_READ'],
 *   columnMetadata: { title: { name: 'title', filterable: true, likeQuery: true, containsQuery: false,
 *     betweenQuery: false, sortable: true, columnType: 'Text' } } };
 */
export interface QueryDefinition {
  /** Public name: `POST /q/{name}`. */
  name: string;
  /** Statement id `<namespace>.<statement id>`. */
  id: string;
  /** Present on a tenant's override; absent on base definitions. */
  tenantId?: string;
  paginated: boolean;
  acls: string[];
  /** Overrides `query.pagination.countQueryEnabled` for this query. */
  countQueryEnabled?: boolean;
  columnMetadata: Record<string, ColumnMetadata>;
  /** Cursor paging; absent: offset paging only. */
  keyset?: KeysetSpec;
  /** Largest unpaginated JSON answer (rows); above it the service answers 413 Q731. */
  streamAbove?: number;
  /** Largest number of rows a stream (or an unpaginated answer) returns; more are cut off (`truncated`). */
  maxRows?: number;
  /** Statement timeout of this query, ms (wins over the mapper's `timeout` and the tenant default). */
  timeoutMillis?: number;
  /** Highest count mode of this query (a request may ask for a lower one); wins over `countQueryEnabled`. */
  countMode?: CountMode;
  /** Opt-in TTL cache of answers (wins over the mapper's `<cache>`). */
  cache?: CacheSpec;
}

/** A definition plus where it came from (file path or catalog row), for messages. */
export interface SourcedDefinition {
  definition: QueryDefinition;
  source: string;
}
