import type { QueryDefinition } from '../definition/query-definition-types';
import { queryError, QueryErrorCodes } from '../errors/query-error-codes';
import type { SearchRequest, SortSpec } from '../search/search-types';
import {
  cursorValue,
  decodeKeysetCursor,
  encodeKeysetCursor,
  type KeysetCursor,
  searchFingerprint,
} from './keyset-cursor';

type Row = Record<string, unknown>;

/** How one keyset page is read: the effective sort, where to start and which way. */
export interface KeysetPlan {
  /** The request's sort, then every keyset column it does not already name (ascending). */
  sort: SortSpec[];
  /** Sort-key values of the row to start after (before, when `backward`); absent on the first page. */
  after?: unknown[];
  backward: boolean;
  /** Page number of the page being read (a first keyset read may start at any `pageNum`, by offset). */
  page: number;
  fingerprint: string;
}

/** What a keyset page reports besides its rows. */
export interface KeysetPage {
  rows: Row[];
  currentPage: number;
  nextPageAvailable: boolean;
  nextCursor: string | null;
  prevCursor: string | null;
}

const cursorProblem = (description: string) =>
  queryError(QueryErrorCodes.invalidRequest, description, ['cursor'], 'cursor');

function sameSort(a: readonly SortSpec[], b: readonly [string, boolean][]): boolean {
  return a.length === b.length && a.every((s, i) => s.field === b[i][0] && s.ascending === b[i][1]);
}

/** Appends the keyset columns the sort does not name yet, so every row has one position. */
function withKeysetColumns(sort: readonly SortSpec[], definition: QueryDefinition): SortSpec[] {
  const named = new Set(sort.map((s) => s.field));
  const keys = (definition.keyset?.columns ?? []).filter((field) => !named.has(field));
  return [
    ...sort,
    ...keys.map((field) => ({ field, column: definition.columnMetadata[field].columnName ?? field, ascending: true })),
  ];
}

/** The sort a cursor carries, checked against the definition (only sortable or key columns). */
function sortFromCursor(cursor: KeysetCursor, definition: QueryDefinition): SortSpec[] {
  const keys = new Set(definition.keyset?.columns ?? []);
  return cursor.sort.map(([field, ascending]) => {
    const column = Object.hasOwn(definition.columnMetadata, field) ? definition.columnMetadata[field] : undefined;
    if (!column || !(column.sortable || keys.has(field)))
      throw cursorProblem(`The cursor does not belong to query '${definition.name}'; start again without a cursor`);
    return { field, column: column.columnName ?? field, ascending };
  });
}

/**
 * Plans a keyset page. Without a cursor: the first page in the request's sort. With one: the
 * cursor's sort (a request that sends sortCriteria must send the same ones) from the cursor's row.
 *
 * @throws FwError 400 Q727 (field `cursor`) for a cursor of another query or search, or another sort.
 */
export function planKeysetPage(
  definition: QueryDefinition,
  request: SearchRequest,
  requestSort: readonly SortSpec[],
): KeysetPlan {
  const fingerprint = searchFingerprint(definition.name, [
    request.filters ?? {},
    request.systemFilters ?? {},
    request.customVariables ?? {},
  ]);
  if (request.cursor === undefined)
    return {
      sort: withKeysetColumns(requestSort, definition),
      backward: false,
      page: request.pageNum ?? 1,
      fingerprint,
    };
  const cursor = decodeKeysetCursor(request.cursor);
  if (cursor.search !== fingerprint)
    throw cursorProblem(
      'The cursor belongs to another search (the query or its filters differ); start again without a cursor',
    );
  const sort = sortFromCursor(cursor, definition);
  if (request.sortCriteria !== undefined && !sameSort(withKeysetColumns(requestSort, definition), cursor.sort)) {
    throw cursorProblem('A cursor keeps the sort of the page it came from; send the same sortCriteria or none');
  }
  return { sort, after: cursor.key, backward: cursor.direction === 'prev', page: cursor.page, fingerprint };
}

/** The sort-key values of a row: by API field name, else by the column's last segment. */
export function keyOf(row: Row, sort: readonly SortSpec[]): unknown[] {
  return sort.map((s) => {
    const value = Object.hasOwn(row, s.field) ? row[s.field] : row[s.column.split('.').pop() as string];
    if (value === undefined) throw new Error(`keyset column '${s.field}' is not a column of the statement's rows`);
    return cursorValue(value);
  });
}

/**
 * Builds a keyset page from the rows read for `plan` (one more than `size` when there are, in
 * reading order: reversed when reading backwards).
 */
export function keysetPage(plan: KeysetPlan, fetched: readonly Row[], size: number): KeysetPage {
  const more = fetched.length > size;
  const rows = fetched.slice(0, size);
  if (plan.backward) rows.reverse();
  // Reading back to the start finds the first page, whatever number the cursor guessed.
  const currentPage = plan.backward && !more ? 1 : plan.page;
  const cursor = (direction: 'next' | 'prev', row: Row, page: number) =>
    encodeKeysetCursor({
      direction,
      sort: plan.sort.map((s) => [s.field, s.ascending]),
      key: keyOf(row, plan.sort),
      page,
      search: plan.fingerprint,
    });
  const first = rows[0];
  const last = rows[rows.length - 1];
  const hasNext = plan.backward ? rows.length > 0 : more;
  const hasPrev = plan.backward ? more : rows.length > 0 && plan.page > 1;
  return {
    rows,
    currentPage,
    nextPageAvailable: hasNext,
    nextCursor: hasNext && last ? cursor('next', last, currentPage + 1) : null,
    prevCursor: hasPrev && first && currentPage > 1 ? cursor('prev', first, currentPage - 1) : null,
  };
}
