import type { CountMode, QueryDefinition } from '../definition/query-definition-types';
import { queryError, QueryErrorCodes } from '../errors/query-error-codes';
import { keysetPage, type KeysetPlan, planKeysetPage } from '../keyset/keyset-paging';
import type { ExecutionMode, QueryExecutionResult } from '../provider/query-provider-types';
import type { SearchRequest, SortSpec } from '../search/search-types';
import { type PageWindow } from '../search/sql-fragments';
import type { ResponseShape } from './search-response-builder';

/** How one search runs: what the provider is asked for, and how its answer becomes a response. */
export interface ExecutionPlan {
  mode: ExecutionMode;
  page?: PageWindow;
  countMode: CountMode;
  /** The sort the provider applies (a keyset page's includes the keyset columns). */
  sort: SortSpec[];
  keyset?: KeysetPlan;
  /** Unpaginated: the most rows a JSON answer may hold (one more is read to notice). */
  streamAbove?: number;
  pageNum: number;
  numRowsInPage: number;
}

/**
 * Decides how a validated request runs: count only, all rows (capped at `streamAbove`), an offset
 * page (with a count, an estimate or a look-ahead row) or a keyset page.
 */
export function planExecution(
  definition: QueryDefinition,
  request: SearchRequest,
  sort: SortSpec[],
  countMode: CountMode,
  streamAbove: number,
): ExecutionPlan {
  const pageNum = request.pageNum ?? 1;
  const numRowsInPage = request.numRowsInPage ?? 10;
  const base = { countMode, sort, pageNum, numRowsInPage };
  if (request.countOnly) return { ...base, mode: 'count' };
  if (request.cursor !== undefined && !(definition.paginated && definition.keyset)) {
    throw queryError(
      QueryErrorCodes.invalidRequest,
      `Query '${definition.name}' has no cursor paging; use pageNum`,
      ['cursor'],
      'cursor',
    );
  }
  if (!definition.paginated)
    return { ...base, countMode: 'none', mode: 'rows', page: { limit: streamAbove + 1, offset: 0 }, streamAbove };
  const mode: ExecutionMode = countMode === 'none' ? 'rows' : 'both';
  if (definition.keyset) {
    const keyset = planKeysetPage(definition, request, sort);
    // A first keyset read may start at any page by offset; a cursor continues from its row.
    const offset = keyset.after === undefined ? (pageNum - 1) * numRowsInPage : 0;
    return {
      ...base,
      mode,
      sort: keyset.sort,
      keyset,
      page: { limit: numRowsInPage + 1, offset },
      pageNum: keyset.page,
    };
  }
  const offset = (pageNum - 1) * numRowsInPage;
  return { ...base, mode, page: { limit: countMode === 'exact' ? numRowsInPage : numRowsInPage + 1, offset } };
}

/**
 * How the provider's answer is shown.
 *
 * @throws FwError 413 Q731 when an unpaginated answer holds more than `streamAbove` rows.
 */
export function responseShape(
  plan: ExecutionPlan,
  result: QueryExecutionResult,
  definition: QueryDefinition,
): ResponseShape {
  const total = result.totalCount ?? 0;
  if (plan.mode === 'count') return { kind: 'countOnly', total };
  if (plan.streamAbove !== undefined) {
    if (result.rows.length > plan.streamAbove) {
      throw queryError(
        QueryErrorCodes.tooManyRows,
        `Query '${definition.name}' has more than ${plan.streamAbove} rows, too many for one JSON answer: narrow the filters, or ask for a stream with 'Accept: application/x-ndjson'`,
        [definition.name, plan.streamAbove],
      );
    }
    return { kind: 'all', rows: result.rows };
  }
  if (plan.keyset)
    return {
      kind: 'keyset',
      page: keysetPage(plan.keyset, result.rows, plan.numRowsInPage),
      ...(plan.mode === 'both' ? { total } : {}),
    };
  if (plan.countMode === 'exact') return { kind: 'counted', rows: result.rows, total };
  if (plan.countMode === 'planned') return { kind: 'estimated', rows: result.rows, total };
  return { kind: 'lookahead', rows: result.rows };
}
