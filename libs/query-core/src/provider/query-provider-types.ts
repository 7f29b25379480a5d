import type { QueryDefinition } from '../definition/query-definition-types';
import type { FilterCondition, SortSpec } from '../search/search-types';
import type { PageWindow } from '../search/sql-fragments';

/** What a provider is asked to run: the page of rows, the total count, or both. */
export type ExecutionMode = 'rows' | 'count' | 'both';

/**
 * One execution, fully validated: everything in it comes from metadata or has been checked.
 */
export interface QueryExecutionRequest {
  definition: QueryDefinition;
  tenantId: string;
  /**
   * The flat statement parameters: transformed filters, systemFilters, customVariables, then
   * `orderby` and `pagination` (SQL text built from metadata; `''` when not used).
   */
  parameters: Readonly<Record<string, unknown>>;
  /** The validated filters with their operators (for providers that do not read `parameters`). */
  filters: readonly FilterCondition[];
  /** Sort order from metadata. */
  sort: readonly SortSpec[];
  /** The rows window (already one extra row in no-count mode); absent: all rows. */
  page?: PageWindow;
  mode: ExecutionMode;
  /**
   * Keyset paging: `sort` is then the full sort (keyset columns last), `page.limit` the rows to read
   * and `after` the sort-key values of the row to start after (before it when `backward`: then
   * rows come in reverse sort order). Absent `after`: from the start.
   */
  keyset?: { after?: readonly unknown[]; backward: boolean };
  /** How `count`/`both` find the total: `exact` (default) or `planned` (the planner's estimate). */
  countMode?: 'exact' | 'planned';
  /** The definition's statement timeout, ms (wins over a statement's own `timeout`). */
  timeoutMillis?: number;
  /** The tenant's default statement timeout, ms (used when neither the definition nor the statement has one). */
  defaultTimeoutMillis?: number;
}

/**
 * Rows of a streamed search, batch by batch, read only when asked for (backpressure). Objects of
 * a nesting result map are complete in the batch that holds them.
 */
export interface RowBatchStream {
  /** The next batch (never empty), or undefined at the end. */
  next(): Promise<Record<string, unknown>[] | undefined>;
  /** Stops reading and frees the connection (cancelling a running statement); safe to call twice. */
  close(): Promise<void>;
}

/** Rows (absent for `count`) and the total (absent for `rows`). */
export interface QueryExecutionResult {
  rows: Record<string, unknown>[];
  totalCount?: number;
}

/**
 * A query backend. The built-in `sql` provider runs mapper statements on the tenant's database;
 * a host registers others (`providers` option) and selects one with `query.provider`.
 *
 * Errors: throw FwError `Q721` (rows) / `Q722` (count) with a message free of internals; any
 * other error is logged and reported as `Q721` by the service.
 *
 * @example
 * const provider: QueryExecutionProvider = {
 *   name: 'search-index',
 *   async execute(request) { return { rows: await index.find(request.filters), totalCount: undefined }; },
 * };
 */
export interface QueryExecutionProvider {
  readonly name: string;
  execute(request: QueryExecutionRequest): Promise<QueryExecutionResult>;
  /**
   * Whether the provider can run a definition's statement id; checked for every definition at
   * startup (unresolved ids fail startup). Without it, every id is accepted.
   */
  supportsStatement?(statementId: string): boolean;
  /**
   * Streams every row of the search (`page` absent) in `sort` order. Resolves once the statement
   * runs, so a failing statement still answers as an ordinary error. Providers without it answer
   * streamed requests from `execute`.
   */
  stream?(request: QueryExecutionRequest): Promise<RowBatchStream>;
  /** Releases the provider's resources on service close. */
  close?(): Promise<void>;
}
