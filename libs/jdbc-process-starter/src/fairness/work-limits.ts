/**
 * The concurrency and rate limits a fair claim applies, per process type, read from the process
 * definitions (`concurrency`, `rateLimit`). Every runner that claims a type must know its limits:
 * `makeJdbcWorkerHost` gives its runner the configurator's definitions through
 * {@link workLimitsOfConfigurator}, re-read now and then so definition changes reach running hosts.
 *
 * @example
 * const runner = makeWorkItemRunner({ database, handler, limits: { 'call-partner': { concurrency: { perTenant: 5 }, rateLimit: { perSecond: 10, scope: 'tenant' } } } });
 */
import type { ConcurrencyLimit, ProcessConfigurator, ProcessDef, RateLimit } from '@fw/process-api';

/** The limits of one process type. */
export interface WorkLimits {
  /** Most RUNNING items per tenant and/or in all. */
  concurrency?: ConcurrencyLimit | null;
  /** Most starts per second, per tenant or in all. */
  rateLimit?: RateLimit | null;
}

/** Limits by process type (types absent have none). */
export type WorkLimitsByType = ReadonlyMap<string, WorkLimits>;

/** Where a runner reads the limits from before each claim (a cheap call: cache inside). */
export interface WorkLimitsSource {
  current(): Promise<WorkLimitsByType>;
}

/** How often {@link workLimitsOfConfigurator} reads the definitions again, by default. */
export const DEFAULT_LIMITS_REFRESH_MILLIS = 10_000;

/** True when `limits` asks anything of a claim. */
export function hasLimits(limits: WorkLimits | undefined): limits is WorkLimits {
  if (limits === undefined) return false;
  const c = limits.concurrency;
  return (
    (c !== null && c !== undefined && (isSet(c.perTenant) || isSet(c.global))) ||
    (limits.rateLimit !== null && limits.rateLimit !== undefined)
  );
}

function isSet(value: number | null | undefined): value is number {
  return value !== null && value !== undefined;
}

/** The limits declared by `defs` (definitions without any are left out). */
export function workLimitsOfDefinitions(defs: readonly ProcessDef[]): WorkLimitsByType {
  const byType = new Map<string, WorkLimits>();
  for (const def of defs) {
    const limits: WorkLimits = { concurrency: def.concurrency ?? null, rateLimit: def.rateLimit ?? null };
    if (hasLimits(limits)) byType.set(def.processType, limits);
  }
  return byType;
}

/** A fixed set of limits (a record or a map) as a source. */
export function fixedWorkLimits(limits: Readonly<Record<string, WorkLimits>> | WorkLimitsByType): WorkLimitsSource {
  const byType: WorkLimitsByType = limits instanceof Map ? limits : new Map(Object.entries(limits));
  const answer = Promise.resolve(byType);
  return { current: () => answer };
}

/**
 * The limits of a configurator's definitions, read again at most every `refreshMillis`. A read
 * that fails keeps the last limits known and is retried at the next claim; before the first
 * success it fails the claim (never a claim without the limits).
 */
export function workLimitsOfConfigurator(
  configurator: Pick<ProcessConfigurator, 'list'>,
  refreshMillis = DEFAULT_LIMITS_REFRESH_MILLIS,
): WorkLimitsSource {
  let known: WorkLimitsByType = new Map();
  let readAt = -Infinity;
  let reading: Promise<WorkLimitsByType> | undefined;
  return {
    current() {
      if (Date.now() - readAt < refreshMillis) return Promise.resolve(known);
      reading ??= configurator
        .list()
        .then((defs) => {
          known = workLimitsOfDefinitions(defs);
          readAt = Date.now();
          return known;
        })
        .catch((err: unknown) => {
          if (readAt === -Infinity) throw err;
          return known;
        })
        .finally(() => {
          reading = undefined;
        });
      return reading;
    },
  };
}
