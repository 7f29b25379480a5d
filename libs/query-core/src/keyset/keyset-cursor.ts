import { createHash } from 'node:crypto';
import { queryError, QueryErrorCodes } from '../errors/query-error-codes';

/** Which way a cursor leads from the row it remembers. */
export type CursorDirection = 'next' | 'prev';

/**
 * What a keyset cursor carries. Clients see only its opaque text; the service checks every part
 * of it again when it comes back (fields against the metadata, values bound as parameters).
 */
export interface KeysetCursor {
  direction: CursorDirection;
  /** The effective sort of the search that made it: `[field, ascending]`, keyset columns last. */
  sort: [string, boolean][];
  /** The sort-key values of the row it starts after (`next`) or before (`prev`), one per sort entry. */
  key: unknown[];
  /** The page number of the page it leads to (reported as `currentPage`). */
  page: number;
  /** Fingerprint of the query and its filters: a cursor only continues the search that made it. */
  search: string;
}

const VERSION = 1;

/**
 * The opaque text of a cursor: URL-safe base64 of a small JSON document.
 *
 * @example
 * const text = encodeKeysetCursor({ direction: 'next', sort: [['id', true]], key: [42], page: 2, search: 'ab12' });
 */
export function encodeKeysetCursor(cursor: KeysetCursor): string {
  const body = [VERSION, cursor.direction === 'next' ? 1 : -1, cursor.sort, cursor.key, cursor.page, cursor.search];
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

function invalidCursor(why: string) {
  return queryError(
    QueryErrorCodes.invalidRequest,
    `Invalid cursor: ${why}; start again without a cursor`,
    ['cursor'],
    'cursor',
  );
}

function isSort(value: unknown): value is [string, boolean][] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((s) => Array.isArray(s) && s.length === 2 && typeof s[0] === 'string' && typeof s[1] === 'boolean')
  );
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * Reads a cursor's text back.
 *
 * @throws FwError 400 Q727 (field `cursor`) for anything that is not a cursor of this service.
 */
export function decodeKeysetCursor(text: string): KeysetCursor {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor('it is not a cursor of this service');
  }
  if (!Array.isArray(body) || body.length !== 6 || body[0] !== VERSION)
    throw invalidCursor('it is not a cursor of this service');
  const [, direction, sort, key, page, search] = body as unknown[];
  if (
    (direction !== 1 && direction !== -1) ||
    !isSort(sort) ||
    !Array.isArray(key) ||
    key.length !== sort.length ||
    !key.every(isScalar)
  ) {
    throw invalidCursor('it is damaged');
  }
  if (!Number.isSafeInteger(page) || (page as number) < 1 || typeof search !== 'string')
    throw invalidCursor('it is damaged');
  return { direction: direction === 1 ? 'next' : 'prev', sort, key, page: page as number, search };
}

/**
 * A short fingerprint of what a cursor must not outlive: the query and the request's filters,
 * systemFilters and customVariables (the sort is carried by the cursor itself).
 */
export function searchFingerprint(queryName: string, parts: readonly unknown[]): string {
  return createHash('sha256')
    .update(JSON.stringify([queryName, ...parts]))
    .digest('base64url')
    .slice(0, 16);
}

/** A key value as a cursor stores it: dates as ISO text (PostgreSQL casts it back), big integers as text. */
export function cursorValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (value === undefined) return null;
  return value;
}
