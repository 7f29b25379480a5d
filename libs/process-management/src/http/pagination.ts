/**
 * Pagination of the administration API: query `page` (0-based, default 0) and `size` (default 25,
 * 1..100); every list answers a {@link Page}, newest first.
 *
 * @example
 * const request = parsePageRequest(req.query);   // { page: 0, size: 25 }; 400 for page=-1 or size=101
 * res.json(pageOf(rows, total, request));        // { content, totalElements, page, size, totalPages }
 */
import { badRequest } from './management-errors';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
/** Highest page number accepted (deeper pages are not a real use, and the offset stays small). */
export const MAX_PAGE_NUMBER = 1_000_000;

/** A requested page. */
export interface PageRequest {
  /** 0-based page number. */
  page: number;
  /** Rows per page, 1..100. */
  size: number;
}

/** One page of a list. */
export interface Page<T> {
  content: T[];
  totalElements: number;
  page: number;
  size: number;
  totalPages: number;
  /**
   * Present (true) when `totalElements` is the planner's estimate, not a count: lists above the
   * exact-count limit answer fast with "about N".
   */
  totalElementsEstimated?: true;
}

function integerParam(
  query: Record<string, unknown>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = query[name];
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw))
    throw badRequest(`Query parameter '${name}' must be an integer between ${min} and ${max}`);
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw badRequest(`Query parameter '${name}' must be an integer between ${min} and ${max}`);
  return value;
}

/** Reads `page` and `size`; throws a 400 for anything outside the limits. */
export function parsePageRequest(query: Record<string, unknown>): PageRequest {
  return {
    page: integerParam(query, 'page', 0, 0, MAX_PAGE_NUMBER),
    size: integerParam(query, 'size', DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
  };
}

/** Builds the page body; `estimated` marks an estimated total. */
export function pageOf<T>(content: T[], totalElements: number, request: PageRequest, estimated = false): Page<T> {
  const page: Page<T> = {
    content,
    totalElements,
    page: request.page,
    size: request.size,
    totalPages: Math.ceil(totalElements / request.size),
  };
  return estimated ? { ...page, totalElementsEstimated: true } : page;
}

/** Slices an in-memory list (definitions). */
export function pageOfList<T>(items: readonly T[], request: PageRequest): Page<T> {
  const start = request.page * request.size;
  return pageOf(items.slice(start, start + request.size), items.length, request);
}
