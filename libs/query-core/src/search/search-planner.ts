import type { ColumnMetadata, ColumnType, QueryDefinition } from '../definition/query-definition-types';
import { problemsError, QueryErrorCodes, type QueryProblem } from '../errors/query-error-codes';
import { escapeLike } from './sql-fragments';
import { type FilterCondition, type SearchRequest, type SortSpec } from './search-types';

/** What a validated request asks for, in metadata terms. */
export interface SearchPlan {
  filters: FilterCondition[];
  sort: SortSpec[];
  /**
   * Flat statement parameters without `orderby`/`pagination`: transformed filters, then
   * systemFilters, then customVariables (a later key replaces an earlier one).
   */
  parameters: Record<string, unknown>;
}

type Coerced = { ok: true; value: unknown } | { ok: false; expected: string };

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/;

/** Checks and converts one scalar against a column type (see {@link ColumnType}). */
export function coerceScalar(value: unknown, type: ColumnType | undefined): Coerced {
  if (value === null || typeof value === 'object')
    return { ok: false, expected: type === undefined ? 'a string, number or boolean' : expectedText(type) };
  switch (type) {
    case undefined:
      return typeof value === 'string' ||
        typeof value === 'boolean' ||
        (typeof value === 'number' && Number.isFinite(value))
        ? { ok: true, value }
        : { ok: false, expected: 'a string, number or boolean' };
    case 'Text':
      return typeof value === 'string' ? { ok: true, value } : { ok: false, expected: expectedText(type) };
    case 'Number':
      if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value };
      if (typeof value === 'string' && NUMERIC.test(value.trim())) return { ok: true, value: Number(value.trim()) };
      return { ok: false, expected: expectedText(type) };
    case 'Date':
      return typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value.replace(' ', 'T')))
        ? { ok: true, value }
        : { ok: false, expected: expectedText(type) };
    case 'Boolean':
      if (typeof value === 'boolean') return { ok: true, value };
      if (value === 'true' || value === 'false') return { ok: true, value: value === 'true' };
      return { ok: false, expected: expectedText(type) };
  }
}

function expectedText(type: ColumnType): string {
  return { Text: 'a string', Number: 'a number', Date: 'an ISO-8601 date', Boolean: 'a boolean' }[type];
}

function planFilter(
  field: string,
  value: unknown,
  column: ColumnMetadata,
  queryName: string,
  problems: QueryProblem[],
): FilterCondition | undefined {
  const where = `filters.${field}`;
  const invalid = (description: string) =>
    problems.push({
      subErrorCode: QueryErrorCodes.invalidRequest,
      description,
      params: [field, queryName],
      field: where,
    });
  const sqlColumn = column.columnName ?? field;
  const list = Array.isArray(value);
  if (!list && typeof value === 'object') {
    invalid(`Filter '${field}' must be a scalar or a list, not an object`);
    return undefined;
  }
  let operator: FilterCondition['operator'];
  if (list) {
    if (column.containsQuery) operator = 'contains';
    else if (column.betweenQuery) operator = 'between';
    else {
      problems.push({
        subErrorCode: QueryErrorCodes.filterNotAllowed,
        description: `Filter '${field}' of query '${queryName}' does not accept a list`,
        params: [field, queryName],
        field: where,
      });
      return undefined;
    }
  } else if (column.likeQuery) operator = 'like';
  else if (column.containsQuery) operator = 'contains';
  else if (column.betweenQuery) operator = 'between';
  else operator = 'equals';

  const items = list ? (value as unknown[]) : operator === 'between' ? [value, value] : [value];
  if (operator === 'between' && items.length !== 2) {
    invalid(`Filter '${field}' is a range and needs exactly 2 values [from, to], got ${items.length}`);
    return undefined;
  }
  if (operator === 'contains' && items.length === 0) {
    invalid(`Filter '${field}' needs at least one value`);
    return undefined;
  }
  const typed: unknown[] = [];
  for (const item of items) {
    const coerced = coerceScalar(item, column.columnType);
    if (!coerced.ok) {
      invalid(`Filter '${field}' must be ${coerced.expected}${list ? ' in every list item' : ''}`);
      return undefined;
    }
    typed.push(coerced.value);
  }
  switch (operator) {
    case 'like': {
      const text = String(typed[0]);
      return { field, column: sqlColumn, operator, raw: text, value: `%${escapeLike(text)}%` };
    }
    case 'equals':
      return { field, column: sqlColumn, operator, raw: typed[0], value: typed[0] };
    default:
      return { field, column: sqlColumn, operator, raw: typed, value: typed };
  }
}

/**
 * Validates a request against a definition's metadata and builds the statement parameters.
 * Collects every problem before failing.
 *
 * - a filter key not declared, or declared but not filterable → Q725; `null` values are dropped;
 * - a list on a column without containsQuery/betweenQuery → Q725; wrong value types, objects,
 *   a between list without exactly 2 items → Q727;
 * - a sort on an undeclared or non-sortable column → Q726.
 *
 * @throws FwError 400 with one detail per problem (`field` like `filters.price`, `sortCriteria[1].name`).
 *
 * @example
 * const plan = planSearch({ filters: { title: 'dune' } }, booksDefinition);
 * plan.parameters.title; // '%dune%' when title is a likeQuery column
 */
export function planSearch(request: SearchRequest, definition: QueryDefinition): SearchPlan {
  const problems: QueryProblem[] = [];
  const metadata = definition.columnMetadata;
  // Own keys only: a field named like an Object.prototype member must not find anything.
  const columnOf = (field: string): ColumnMetadata | undefined =>
    Object.hasOwn(metadata, field) ? metadata[field] : undefined;
  const filters: FilterCondition[] = [];
  for (const [field, value] of Object.entries(request.filters ?? {})) {
    if (value === null || value === undefined) continue;
    const column = columnOf(field);
    if (!column || !column.filterable) {
      problems.push({
        subErrorCode: QueryErrorCodes.filterNotAllowed,
        description: `Filter '${field}' is not allowed for query '${definition.name}'`,
        params: [field, definition.name],
        field: `filters.${field}`,
      });
      continue;
    }
    const condition = planFilter(field, value, column, definition.name, problems);
    if (condition) filters.push(condition);
  }
  const sort: SortSpec[] = [];
  (request.sortCriteria ?? []).forEach((criterion, i) => {
    const column = columnOf(criterion.name);
    if (!column || !column.sortable) {
      problems.push({
        subErrorCode: QueryErrorCodes.sortNotAllowed,
        description: `Sorting by '${criterion.name}' is not allowed for query '${definition.name}'`,
        params: [criterion.name, definition.name],
        field: `sortCriteria[${i}].name`,
      });
      return;
    }
    sort.push({
      field: criterion.name,
      column: column.columnName ?? criterion.name,
      ascending: criterion.ascendingOrder ?? true,
    });
  });
  if (problems.length > 0) throw problemsError(problems);
  const parameters = Object.fromEntries([
    ...filters.map((f) => [f.field, f.value] as const),
    ...Object.entries(request.systemFilters ?? {}),
    ...Object.entries(request.customVariables ?? {}),
  ]);
  return { filters, sort, parameters };
}
