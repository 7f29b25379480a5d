/**
 * Interceptors shipped with the package, one per kind of service policy: security (an API key
 * or bearer token checked before the handler; refuses with 401 and never calls it), audit (one
 * log line per call with its outcome), metrics (counts and latency per operation) and caching
 * (answers a repeated input from memory for a time).
 */
import { FwError } from '@fw/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Principal } from '../definition/call-context';
import { ServiceErrorCodes } from '../errors/service-errors';
import type { Interceptor } from './interceptor';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

function unauthorized(description: string): FwError {
  return new FwError({ code: 401, subErrorCode: ServiceErrorCodes.unauthorized, description });
}

export interface ApiKeyInterceptorOptions {
  /** Header carrying the key (default `x-api-key`). */
  header?: string;
  /** Accepted keys and the principal each stands for. */
  keys: ReadonlyArray<{ key: string; principal: Principal }>;
}

/**
 * Security: the call must carry one of `keys` in `header` (constant-time compare); the matching
 * principal is set on the context. Refused: 401 SVC401, the handler never runs.
 */
export function makeApiKeyInterceptor(options: ApiKeyInterceptorOptions): Interceptor {
  const header = (options.header ?? 'x-api-key').toLowerCase();
  const keys = options.keys.map((k) => ({ digest: digest(k.key), principal: k.principal }));
  return {
    name: 'api-key',
    async intercept(call, next) {
      const presented = call.context.headers[header];
      if (presented === undefined || presented === '') throw unauthorized(`Missing ${header} header`);
      const seen = digest(presented);
      const match = keys.find((k) => timingSafeEqual(k.digest, seen));
      if (match === undefined) throw unauthorized(`Invalid ${header}`);
      call.context.principal = match.principal;
      return next();
    },
  };
}

/** Audit: one log line per call — service, operation, tenant, principal, outcome, duration. */
export function makeAuditInterceptor(): Interceptor {
  return {
    name: 'audit',
    async intercept(call, next) {
      const started = Date.now();
      const { service, operation, tenant, logger } = call.context;
      try {
        const result = await next();
        logger.info(
          {
            audit: true,
            service,
            operation,
            tenant,
            principal: call.context.principal?.id,
            outcome: 'ok',
            millis: Date.now() - started,
          },
          'service call',
        );
        return result;
      } catch (err) {
        const code = err instanceof FwError ? err.subErrorCode : 'error';
        logger.info(
          {
            audit: true,
            service,
            operation,
            tenant,
            principal: call.context.principal?.id,
            outcome: code,
            millis: Date.now() - started,
          },
          'service call',
        );
        throw err;
      }
    },
  };
}

export interface OperationMetrics {
  calls: number;
  failures: number;
  totalMillis: number;
  maxMillis: number;
}

/** Metrics: counts, failures and latency per `service.operation`; `snapshot()` reads them. */
export function makeMetricsInterceptor(): Interceptor & { snapshot(): Record<string, OperationMetrics> } {
  const metrics = new Map<string, OperationMetrics>();
  return {
    name: 'metrics',
    async intercept(call, next) {
      const key = `${call.context.service}.${call.context.operation}`;
      const entry = metrics.get(key) ?? { calls: 0, failures: 0, totalMillis: 0, maxMillis: 0 };
      metrics.set(key, entry);
      const started = performance.now();
      entry.calls++;
      try {
        return await next();
      } catch (err) {
        entry.failures++;
        throw err;
      } finally {
        const millis = performance.now() - started;
        entry.totalMillis += millis;
        entry.maxMillis = Math.max(entry.maxMillis, millis);
      }
    },
    snapshot: () => Object.fromEntries([...metrics].map(([k, v]) => [k, { ...v }])),
  };
}

export interface CachingInterceptorOptions {
  /** How long an answer is served from memory (milliseconds). */
  ttlMillis: number;
  /** Most entries kept (default 1000; the oldest goes first). */
  maxEntries?: number;
}

/**
 * Caching: a successful answer is kept for `ttlMillis` per service, operation, tenant and input
 * (JSON), and a repeated call is answered from memory without running later interceptors or the
 * handler. Failures are not cached. For read operations only.
 */
export function makeCachingInterceptor(options: CachingInterceptorOptions): Interceptor {
  const entries = new Map<string, { until: number; value: unknown }>();
  const max = options.maxEntries ?? 1000;
  return {
    name: 'caching',
    async intercept(call, next) {
      const { service, operation, tenant } = call.context;
      const key = JSON.stringify([service, operation, tenant ?? null, call.input]);
      const now = Date.now();
      const hit = entries.get(key);
      if (hit !== undefined && hit.until > now) return hit.value;
      const value = await next();
      entries.delete(key);
      entries.set(key, { until: now + options.ttlMillis, value });
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
      return value;
    },
  };
}
