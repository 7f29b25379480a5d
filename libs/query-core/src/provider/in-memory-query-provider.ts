import { queryError, QueryErrorCodes } from '../errors/query-error-codes';
import type { FilterCondition, SortSpec } from '../search/search-types';
import { type QueryExecutionProvider, type QueryExecutionResult } from './query-provider-types';

type Row = Record<string, unknown>;

export interface InMemoryQueryProviderOptions {
  /** Provider name (what `query.provider` selects); default `memory`. */
  name?: string;
  /** Rows per statement id, shared by every tenant. */
  datasets?: Record<string, Row[]>;
  /** Rows per tenant, then statement id; wins over `datasets` for that tenant. */
  tenantDatasets?: Record<string, Record<string, Row[]>>;
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b));
}

function equal(a: unknown, b: unknown): boolean {
  return compare(a, b) === 0;
}

function matches(row: Row, filter: FilterCondition): boolean {
  const cell = row[filter.field];
  switch (filter.operator) {
    case 'equals':
      return equal(cell, filter.raw);
    case 'like':
      return (
        cell !== null && cell !== undefined && String(cell).toLowerCase().includes(String(filter.raw).toLowerCase())
      );
    case 'contains':
      return (filter.raw as unknown[]).some((v) => equal(cell, v));
    case 'between': {
      const [from, to] = filter.raw as unknown[];
      return cell !== null && cell !== undefined && compare(cell, from) >= 0 && compare(cell, to) <= 0;
    }
  }
}

function sortRows(rows: Row[], sort: readonly SortSpec[]): Row[] {
  if (sort.length === 0) return rows;
  return [...rows].sort((a, b) => {
    for (const s of sort) {
      const c = compare(a[s.field], b[s.field]);
      if (c !== 0) return s.ascending ? c : -c;
    }
    return 0;
  });
}

/** Where a row sorts relative to the sort-key values `key` (the position a keyset cursor remembers). */
function compareKey(row: Row, sort: readonly SortSpec[], key: readonly unknown[]): number {
  for (let i = 0; i < sort.length; i++) {
    const c = compare(row[sort[i].field], key[i]);
    if (c !== 0) return sort[i].ascending ? c : -c;
  }
  return 0;
}

/**
 * A non-SQL provider over rows held in memory (demos, tests, and the reference for writing other
 * providers). Rows are matched by API field name: equality; like = case-insensitive substring;
 * contains = value in the list; between = inclusive range. Then sorted (stable) and paged (by
 * offset, or by keyset position). A planned count is the exact count here.
 * `systemFilters`/`customVariables` are ignored (they only have a meaning inside SQL).
 *
 * @example
 * const memory = makeInMemoryQueryProvider({ datasets: { 'library.findBooks': [{ id: 1, title: 'Dune' }] } });
 * const service = await makeQueryService({ config: { ...config, provider: 'memory' }, providers: [memory], baseDir });
 */
export function makeInMemoryQueryProvider(options: InMemoryQueryProviderOptions): QueryExecutionProvider {
  const datasetOf = (tenantId: string, id: string): Row[] | undefined =>
    options.tenantDatasets?.[tenantId]?.[id] ?? options.datasets?.[id];
  return {
    name: options.name ?? 'memory',
    supportsStatement(id) {
      return (
        options.datasets?.[id] !== undefined ||
        Object.values(options.tenantDatasets ?? {}).some((d) => d[id] !== undefined)
      );
    },
    async execute(request): Promise<QueryExecutionResult> {
      const data = datasetOf(request.tenantId, request.definition.id);
      if (!data)
        throw queryError(QueryErrorCodes.queryFailed, `Query '${request.definition.name}' failed`, [
          request.definition.name,
        ]);
      const filtered = data.filter((row) => request.filters.every((f) => matches(row, f)));
      const totalCount = request.mode === 'rows' ? undefined : filtered.length;
      if (request.mode === 'count') return { rows: [], totalCount };
      const keyset = request.keyset;
      const sort = keyset?.backward ? request.sort.map((s) => ({ ...s, ascending: !s.ascending })) : request.sort;
      const sorted = sortRows(filtered, sort);
      const after = keyset?.after;
      // Keyset: the rows past the cursor's row in the (possibly reversed) sort.
      const positioned = after ? sorted.filter((row) => compareKey(row, sort, after) > 0) : sorted;
      const page = request.page
        ? positioned.slice(request.page.offset, request.page.offset + request.page.limit)
        : positioned;
      const rows = page.map((r) => ({ ...r }));
      return totalCount === undefined ? { rows } : { rows, totalCount };
    },
  };
}
