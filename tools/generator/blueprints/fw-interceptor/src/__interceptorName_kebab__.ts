// {{interceptorName}}: a service policy for @fw/service — a per-caller rate limit. Each caller (the
// authenticated principal, else the tenant, else everyone anonymous together) has a bucket of
// `limit` calls that refills evenly over `windowMillis`. A call finding its bucket empty is refused
// with 429 {{interceptorNameConstant}}_429 and the operation never runs (the interceptor does not call
// `next()`: a short-circuit); the answer says when to retry. Plug it into a service (every
// operation) or into one operation; see the README.
//
// The buckets live in this process: behind a load balancer each instance limits on its own, so
// give each instance its share of the limit, or replace `Buckets` with a shared store.
import { FwError } from '@fw/core';
import type { InterceptedCall, Interceptor } from '@fw/service';

/** The sub-error code of a refused call (status 429). */
export const {{interceptorNameConstant}}_REFUSED = '{{interceptorNameConstant}}_429';

/** Attribute set on the call for later interceptors and the handler: calls left in the bucket. */
export const REMAINING_ATTRIBUTE = '{{interceptorNameCamel}}.remaining';

export interface {{interceptorNamePascal}}Options {
  /** Calls a caller may make in a burst (the bucket's size); at least 1. */
  limit: number;
  /** Time in which an empty bucket refills completely (ms); at least 1. */
  windowMillis: number;
  /** Who a call counts against. Default: principal id, else tenant, else `anonymous`. */
  keyOf?: (call: InterceptedCall) => string;
  /** Callers tracked at most; the least recently seen are forgotten first (default 10 000). */
  maxCallers?: number;
  /** The clock, in ms (tests pass their own). */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** The default caller key: the most specific identity the call carries. */
export function defaultKeyOf(call: InterceptedCall): string {
  const { principal, tenant } = call.context;
  if (principal !== undefined) return `principal:${principal.id}`;
  if (tenant !== undefined) return `tenant:${tenant}`;
  return 'anonymous';
}

function checkOptions(options: {{interceptorNamePascal}}Options): void {
  if (!Number.isInteger(options.limit) || options.limit < 1) throw new Error(`{{interceptorName}}: 'limit' must be an integer of at least 1 (got ${options.limit})`);
  if (!Number.isFinite(options.windowMillis) || options.windowMillis < 1) throw new Error(`{{interceptorName}}: 'windowMillis' must be at least 1 (got ${options.windowMillis})`);
  if (options.maxCallers !== undefined && (!Number.isInteger(options.maxCallers) || options.maxCallers < 1)) throw new Error(`{{interceptorName}}: 'maxCallers' must be an integer of at least 1`);
}

/**
 * The rate-limit interceptor.
 * @throws Error when an option is out of range (at startup, not on the first call).
 */
export function make{{interceptorNamePascal}}Interceptor(options: {{interceptorNamePascal}}Options): Interceptor {
  checkOptions(options);
  const { limit, windowMillis } = options;
  const keyOf = options.keyOf ?? defaultKeyOf;
  const now = options.now ?? Date.now;
  const maxCallers = options.maxCallers ?? 10_000;
  const refillPerMilli = limit / windowMillis;
  // A Map keeps insertion order: re-inserting a caller on each call makes the first entry the
  // least recently seen, which is the one to forget when the map is full.
  const buckets = new Map<string, Bucket>();

  const take = (key: string): { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number } => {
    const at = now();
    const previous = buckets.get(key);
    const bucket: Bucket = previous === undefined
      ? { tokens: limit, updatedAt: at }
      : { tokens: Math.min(limit, previous.tokens + Math.max(0, at - previous.updatedAt) * refillPerMilli), updatedAt: at };
    buckets.delete(key);
    if (buckets.size >= maxCallers) buckets.delete(buckets.keys().next().value as string);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    buckets.set(key, bucket);
    if (allowed) return { allowed: true, remaining: Math.floor(bucket.tokens) };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMilli / 1000)) };
  };

  return {
    name: '{{interceptorNameKebab}}',
    async intercept(call, next) {
      const outcome = take(keyOf(call));
      if (!outcome.allowed) {
        throw new FwError({
          code: 429,
          subErrorCode: {{interceptorNameConstant}}_REFUSED,
          description: `Too many calls to ${call.context.service}.${call.context.operation}: at most ${limit} per ${windowMillis} ms; retry in ${outcome.retryAfterSeconds} s`,
          params: [outcome.retryAfterSeconds],
        });
      }
      call.context.attributes.set(REMAINING_ATTRIBUTE, outcome.remaining);
      return next();
    },
  };
}
