/**
 * The MyBatis attributes that tune how a statement runs rather than what it selects: the
 * statement's `timeout` (seconds) and the mapper's `<cache>` (honoured as a TTL cache of answers;
 * a statement opts out with `useCache="false"`).
 */
import { MapperLoadError } from './mapper-load-error';
import type { XmlElement } from './xml-tree';

/** The cache a mapper's `<cache>` asks for. */
export interface StatementCache {
  /** `flushInterval` (ms), else {@link DEFAULT_CACHE_TTL_MILLIS}. */
  readonly ttlMillis: number;
  /** `size`: most answers kept per query (least recently used go first); default 1024, as in MyBatis. */
  readonly size: number;
}

/** What a `<select>` says about its execution. */
export interface StatementTuning {
  /** `timeout` in seconds. */
  readonly timeoutSeconds?: number;
  /** Set when the mapper has `<cache>` and the statement does not say `useCache="false"`. */
  readonly cache?: StatementCache;
}

/** TTL of a `<cache>` without `flushInterval`: this service has no writes that would flush it. */
export const DEFAULT_CACHE_TTL_MILLIS = 60_000;

const DEFAULT_CACHE_SIZE = 1024;

function positiveInteger(text: string | undefined, what: string, where: string): number | undefined {
  if (text === undefined) return undefined;
  const value = text.trim();
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new MapperLoadError('invalid', `${where} has ${what}="${text}"; it must be a whole number of 1 or more`);
  }
  return Number(value);
}

/**
 * Reads `timeout` of a select and the mapper's `<cache flushInterval size>`.
 *
 * @param where - `<source>: select '<id>'`, the start of a message.
 * @throws MapperLoadError (`invalid`) when one of the numbers is not a positive integer.
 *
 * @example
 * readStatementTuning(selectElement, cacheElement, "books.xml: select 'find'"); // { timeoutSeconds: 5, cache: { ttlMillis: 30000, size: 1024 } }
 */
export function readStatementTuning(select: XmlElement, cache: XmlElement | undefined, where: string): StatementTuning {
  const timeoutSeconds = positiveInteger(select.attributes.timeout, 'timeout', where);
  const useCache = select.attributes.useCache?.trim().toLowerCase() !== 'false';
  const flushInterval = cache
    ? positiveInteger(cache.attributes.flushInterval, '<cache> flushInterval', where)
    : undefined;
  const size = cache ? positiveInteger(cache.attributes.size, '<cache> size', where) : undefined;
  return {
    ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
    ...(cache && useCache
      ? { cache: { ttlMillis: flushInterval ?? DEFAULT_CACHE_TTL_MILLIS, size: size ?? DEFAULT_CACHE_SIZE } }
      : {}),
  };
}
