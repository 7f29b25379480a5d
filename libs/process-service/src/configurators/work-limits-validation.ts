/**
 * Validation of a definition's fairness fields: `concurrency: { perTenant?, global? }`,
 * `priority: 0..9` and `rateLimit: { perSecond, scope }`. Each parser returns the normalised
 * value, or null when the field is absent, and throws a {@link ConfigError} naming the field.
 *
 * @example
 * parseConcurrency({ perTenant: 5 }, 'defs.json[0] (import)'); // { perTenant: 5 }
 */
import { ConfigError } from '@fw/core';
import type { ConcurrencyLimit, RateLimit } from '@fw/process-api';

/** Highest concurrency limit accepted (a bigger one is no limit). */
const MAX_CONCURRENCY = 1_000_000;
/** Highest rate accepted, starts per second. */
const MAX_PER_SECOND = 1_000_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isLimit(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_CONCURRENCY;
}

/** `concurrency: { perTenant?: 1.., global?: 1.. }` with at least one of them, or null. */
export function parseConcurrency(raw: unknown, at: string): ConcurrencyLimit | null {
  if (raw === undefined || raw === null) return null;
  const shape = `'concurrency' must be an object { perTenant?, global? } of whole numbers from 1 to ${MAX_CONCURRENCY}`;
  if (!isRecord(raw)) throw new ConfigError(`${at}: ${shape}`);
  const unknown = Object.keys(raw).filter((k) => k !== 'perTenant' && k !== 'global');
  if (unknown.length > 0) throw new ConfigError(`${at}: ${shape} (unknown '${unknown.join("', '")}')`);
  const limit: ConcurrencyLimit = {};
  for (const key of ['perTenant', 'global'] as const) {
    const value = raw[key];
    if (value === undefined || value === null) continue;
    if (!isLimit(value))
      throw new ConfigError(`${at}: 'concurrency.${key}' must be a whole number from 1 to ${MAX_CONCURRENCY}`);
    limit[key] = value;
  }
  if (limit.perTenant === undefined && limit.global === undefined)
    throw new ConfigError(`${at}: ${shape}, at least one of them`);
  return limit;
}

/** `priority: 0..9` (whole), or null (the default, 5, applies). */
export function parsePriority(raw: unknown, at: string): number | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 0 || raw > 9)
    throw new ConfigError(`${at}: 'priority' must be a whole number from 0 to 9 (higher first; default 5)`);
  return raw;
}

/** `rateLimit: { perSecond: > 0, scope: 'tenant' | 'global' }`, or null. */
export function parseRateLimit(raw: unknown, at: string): RateLimit | null {
  if (raw === undefined || raw === null) return null;
  if (!isRecord(raw)) throw new ConfigError(`${at}: 'rateLimit' must be an object { perSecond, scope }`);
  const { perSecond, scope } = raw;
  if (typeof perSecond !== 'number' || !Number.isFinite(perSecond) || perSecond <= 0 || perSecond > MAX_PER_SECOND) {
    throw new ConfigError(
      `${at}: 'rateLimit.perSecond' must be a number above 0 and at most ${MAX_PER_SECOND} (starts per second)`,
    );
  }
  if (scope !== 'tenant' && scope !== 'global')
    throw new ConfigError(`${at}: 'rateLimit.scope' must be "tenant" or "global"`);
  return { perSecond, scope };
}
