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
  /** Releases the provider's resources on service close. */
  close?(): Promise<void>;
}
