import { type SortSpec } from './search-types';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * Quotes an identifier or dotted identifier for PostgreSQL: `b.title` → `"b"."title"`.
 * Quoted identifiers are case-sensitive. Anything else is refused (it never comes from a request:
 * the definition schema already checks `columnName` and field names).
 */
export function quoteIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Not a safe SQL identifier: ${JSON.stringify(name)}`);
  return name
    .split('.')
    .map((part) => `"${part}"`)
    .join('.');
}

/**
 * `ORDER BY "col" ASC, ...` from validated sort entries, or `''` without any.
 * `target: 'statement'` uses the metadata column as written (may be qualified, for `${orderby}`
 * inside the statement); `'wrapper'` uses its last segment as a column of the derived table `q`.
 */
export function buildOrderBy(sort: readonly SortSpec[], target: 'statement' | 'wrapper' = 'statement'): string {
  if (sort.length === 0) return '';
  const parts = sort.map((s) => {
    const column = target === 'wrapper' ? `q.${s.column.split('.').pop() as string}` : s.column;
    return `${quoteIdentifier(column)} ${s.ascending ? 'ASC' : 'DESC'}`;
  });
  return `ORDER BY ${parts.join(', ')}`;
}

/** A page window: how many rows, after how many. */
export interface PageWindow {
  limit: number;
  offset: number;
}

/** `LIMIT n OFFSET m` from checked integers, or `''` without a page. */
export function buildPagination(page: PageWindow | undefined): string {
  if (!page) return '';
  const { limit, offset } = page;
  if (!Number.isSafeInteger(limit) || limit < 0 || !Number.isSafeInteger(offset) || offset < 0) {
    throw new Error(`Invalid page window ${JSON.stringify(page)}`);
  }
  return `LIMIT ${limit} OFFSET ${offset}`;
}

/** Escapes `\`, `%` and `_` so a user's value matches literally inside LIKE/ILIKE (escape char `\`). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
