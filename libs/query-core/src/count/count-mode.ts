import type { CountMode, QueryDefinition } from '../definition/query-definition-types';
import { queryError, QueryErrorCodes } from '../errors/query-error-codes';
import type { SearchRequest } from '../search/search-types';

const RANK: Readonly<Record<CountMode, number>> = { none: 0, planned: 1, exact: 2 };

/** A definition's highest count mode: its `countMode`, else `countQueryEnabled` (or the global setting) as exact or none. */
export function definitionCountMode(definition: QueryDefinition, globalCountQueryEnabled: boolean): CountMode {
  if (definition.countMode) return definition.countMode;
  return (definition.countQueryEnabled ?? globalCountQueryEnabled) ? 'exact' : 'none';
}

/**
 * The count mode a request runs with: the request's `countMode` when it is not above the
 * definition's, else the definition's. `countOnly` always counts: `planned` when that is the mode,
 * else `exact` — unless the definition or the request explicitly says `none`.
 *
 * @throws FwError 400 Q727 (field `countMode`) for a mode above the definition's, or `countOnly` with `none`.
 *
 * @example
 * requestCountMode({ ...books, countMode: 'planned' }, { countMode: 'none' }, true); // 'none'
 */
export function requestCountMode(
  definition: QueryDefinition,
  request: SearchRequest,
  globalCountQueryEnabled: boolean,
): CountMode {
  const allowed = definitionCountMode(definition, globalCountQueryEnabled);
  const asked = request.countMode;
  if (asked !== undefined && RANK[asked] > RANK[allowed]) {
    throw queryError(
      QueryErrorCodes.invalidRequest,
      `Query '${definition.name}' counts at most '${allowed}'; countMode '${asked}' is not allowed`,
      ['countMode', asked, allowed],
      'countMode',
    );
  }
  const mode = asked ?? allowed;
  if (!request.countOnly || mode !== 'none') return mode;
  if (asked === 'none' || definition.countMode === 'none') {
    throw queryError(
      QueryErrorCodes.invalidRequest,
      `countOnly needs a count, but query '${definition.name}' runs with countMode 'none'`,
      ['countOnly'],
      'countOnly',
    );
  }
  return 'exact';
}
