/**
 * The fair claim of the work-item runner: tenants with due work are served in turn, priorities
 * order each tenant's work (aged), and the concurrency and rate limits of the definitions hold
 * across every runner. A claim walks the (process type, tenant) groups with due work from a
 * round-robin cursor, gives each tenant an equal share of the batch and claims in one statement
 * (see `fair-claim-statements.ts`). Groups with limits are claimed in a transaction that first
 * takes the advisory locks of those groups, so the RUNNING items counted by the claim statement
 * (whose snapshot starts after the locks) cannot change under it: two claimers of a limited group
 * take turns, claimers of other groups never wait.
 *
 * @example
 * const claimer = makeFairClaimer({ limits: workLimitsOfConfigurator(configurator) });
 * const items = await claimer.claim(db, { workerId: 'w1', limit: 50, leaseMillis: 30_000 });
 */
import type { Kysely } from 'kysely';
import type { ClaimedWorkItem, ClaimOptions } from '../repository/work-item-repository';
import { claimedWorkItemOf } from '../repository/work-item-queue';
import type { WorkItemTables } from '../schema/work-item-tables';
import {
  claimGroups,
  lockGroups,
  readBuckets,
  walkGroups,
  writeBuckets,
  type BucketKey,
  type BucketState,
  type GroupPlan,
  type WorkGroup,
} from './fair-claim-statements';
import { makeLimitRecorder, type LimitMetrics } from './limit-metrics';
import { hasLimits, type WorkLimits, type WorkLimitsByType, type WorkLimitsSource } from './work-limits';

export interface FairClaimer {
  /** Claims up to `limit` items (expired leases first, then due items, tenants in turn). */
  claim(db: Kysely<WorkItemTables>, options: ClaimOptions): Promise<ClaimedWorkItem[]>;
  /**
   * Claims up to `limit` items for the tenants WITHOUT a backlog: those that did not fill their
   * share of the last {@link claim} (or were not in it). A runner that waits for a whole batch of
   * free slots calls it with the few slots it has: a tenant with a handful of due items then starts
   * at once instead of waiting for a backlogged tenant's next batch, whose batches stay whole.
   * Answers `[]` without a claim statement when no such tenant has due work.
   */
  claimEarly(db: Kysely<WorkItemTables>, options: ClaimOptions): Promise<ClaimedWorkItem[]>;
}

export interface FairClaimerOptions {
  /** The definitions' limits (none: only fairness and priorities). */
  limits?: WorkLimitsSource;
  /**
   * Where the limits show (an `FwMetrics` of `@fw/telemetry`): the limits applied, as gauges, and
   * the claims that left due work PENDING because of one (counted after a claim of limited groups
   * that may have been held back, by one index probe per such group).
   */
  metrics?: LimitMetrics;
}

/**
 * Groups visited by a claim, at least: a small batch still compares the priorities of a tenant's
 * several types (each type is a group of its own).
 */
const MIN_GROUPS_WALKED = 16;

/** The limits of a claimer without a source (one map, so the gauges are set once). */
const NO_LIMITS: WorkLimitsByType = new Map();

/** The lock of a group's tenant-scoped limits, and of a type's global ones. */
const tenantLock = (g: WorkGroup) => `fw-work:${g.processType}\u0001${g.tenantKey}`;
const typeLock = (processType: string) => `fw-work:${processType}`;

/** What one bucket may still start now: tokens refilled since the last read, at most one second's worth. */
function tokensNow(bucket: BucketState, perSecond: number): number {
  const burst = Math.max(1, perSecond);
  if (bucket.tokens === null || bucket.elapsedSeconds === null) return burst;
  return Math.min(burst, bucket.tokens + perSecond * Math.max(0, bucket.elapsedSeconds));
}

function bucketKeyOf(g: WorkGroup, limits: WorkLimits): BucketKey | undefined {
  const rate = limits.rateLimit;
  if (rate === null || rate === undefined) return undefined;
  return rate.scope === 'tenant'
    ? { processType: g.processType, scope: 'tenant', tenantKey: g.tenantKey }
    : { processType: g.processType, scope: 'global', tenantKey: '' };
}

const groupId = (processType: string, tenantKey: string) => `${processType}\u0001${tenantKey}`;
const bucketId = (k: BucketKey) => `${groupId(k.processType, k.tenantKey)}\u0001${k.scope}`;

/** The plan of each group: its tenant's share of the batch and its limits (rate budgets filled in later). */
function planOf(groups: readonly WorkGroup[], limit: number, byType: WorkLimitsByType): GroupPlan[] {
  const tenants = new Set(groups.map((g) => g.tenantKey)).size;
  const share = Math.max(1, Math.ceil(limit / Math.max(1, tenants)));
  return groups.map((g) => {
    const c = byType.get(g.processType)?.concurrency;
    return {
      ...g,
      share,
      tenantCap: c?.perTenant ?? null,
      globalCap: c?.global ?? null,
      tenantRate: null,
      globalRate: null,
    };
  });
}

/**
 * The groups that took their whole share (they may have more) with the shares of what is left of
 * the batch, and their rate budgets less what they took; empty when nothing is left to take.
 */
function refillPlan(plan: readonly GroupPlan[], claimed: readonly ClaimedWorkItem[], left: number): GroupPlan[] {
  if (left <= 0) return [];
  const byGroup = new Map<string, number>();
  const byType = new Map<string, number>();
  for (const item of claimed) {
    const id = groupId(item.processType, item.tenant ?? '');
    byGroup.set(id, (byGroup.get(id) ?? 0) + 1);
    byType.set(item.processType, (byType.get(item.processType) ?? 0) + 1);
  }
  const full = plan.filter((g) => (byGroup.get(groupId(g.processType, g.tenantKey)) ?? 0) >= g.share);
  const share = Math.max(1, Math.ceil(left / Math.max(1, new Set(full.map((g) => g.tenantKey)).size)));
  return full.map((g) => {
    const took = byGroup.get(groupId(g.processType, g.tenantKey)) ?? 0;
    const typeTook = byType.get(g.processType) ?? 0;
    return {
      ...g,
      share,
      tenantRate: g.tenantRate === null ? null : g.tenantRate - took,
      globalRate: g.globalRate === null ? null : g.globalRate - typeTook,
    };
  });
}

/**
 * The claim statement, and once more for what is left of the batch when some tenants had less
 * than their share and others may have more (two tenants and a batch of 10: 3 + 5, then 2 more
 * of the second). The second statement sees the first's claims in its RUNNING counts.
 */
async function claimInRounds(
  db: Kysely<WorkItemTables>,
  options: ClaimOptions,
  plan: readonly GroupPlan[],
): Promise<ClaimedWorkItem[]> {
  const claim = (groups: readonly GroupPlan[], limit: number) =>
    claimGroups(db, {
      groups,
      limit,
      workerId: options.workerId,
      leaseMillis: options.leaseMillis,
      partitions: options.processTypes,
    }).then((rows) => rows.map(claimedWorkItemOf));
  const first = await claim(plan, options.limit);
  const more = refillPlan(plan, first, options.limit - first.length);
  return more.length === 0 ? first : [...first, ...(await claim(more, options.limit - first.length))];
}

/**
 * The round-robin cursor after a claim: the last group of the walk that was served, so that the
 * next walk starts with the groups this batch had no room for (undefined: start at the first).
 */
function lastServed(groups: readonly WorkGroup[], items: readonly ClaimedWorkItem[]): WorkGroup | undefined {
  const served = new Set(items.map((i) => groupId(i.processType, i.tenant ?? '')));
  for (let i = groups.length - 1; i >= 0; i--)
    if (served.has(groupId(groups[i]!.processType, groups[i]!.tenantKey))) return groups[i];
  return undefined;
}

/**
 * The tenants that took at least their share of a claim (leases taken over not counted): they had
 * more due work than the batch gave them.
 */
function backloggedTenants(plan: readonly GroupPlan[], items: readonly ClaimedWorkItem[]): Set<string> {
  const share = plan[0]?.share ?? Number.POSITIVE_INFINITY;
  const took = new Map<string, number>();
  for (const item of items) {
    if (item.leaseExpired) continue;
    const tenant = item.tenant ?? '';
    took.set(tenant, (took.get(tenant) ?? 0) + 1);
  }
  return new Set([...took].filter(([, n]) => n >= share).map(([tenant]) => tenant));
}

/** Rate-limited groups: their budgets from the buckets, and the buckets to write back once the claim is known. */
async function applyRates(trx: Kysely<WorkItemTables>, plan: GroupPlan[], byType: WorkLimitsByType) {
  const keys = new Map<string, BucketKey>();
  for (const g of plan) {
    const key = bucketKeyOf(g, byType.get(g.processType) ?? {});
    if (key !== undefined) keys.set(bucketId(key), key);
  }
  if (keys.size === 0) return async () => undefined;
  const states = await readBuckets(trx, [...keys.values()]);
  const tokens = new Map(
    states.map((s) => [
      bucketId(s),
      { state: s, tokens: tokensNow(s, byType.get(s.processType)?.rateLimit?.perSecond ?? 1) },
    ]),
  );
  for (const g of plan) {
    const key = bucketKeyOf(g, byType.get(g.processType) ?? {});
    const bucket = key === undefined ? undefined : tokens.get(bucketId(key));
    if (key === undefined || bucket === undefined) continue;
    if (key.scope === 'tenant') g.tenantRate = Math.floor(bucket.tokens);
    else g.globalRate = Math.floor(bucket.tokens);
  }
  return async (claimed: readonly ClaimedWorkItem[]) => {
    for (const item of claimed) {
      const key = bucketKeyOf(
        { processType: item.processType, tenantKey: item.tenant ?? '' },
        byType.get(item.processType) ?? {},
      );
      const bucket = key === undefined ? undefined : tokens.get(bucketId(key));
      if (bucket !== undefined) bucket.tokens -= 1;
    }
    await writeBuckets(
      trx,
      [...tokens.values()].map(({ state, tokens: left }) => ({ ...state, tokens: left, refilledAt: state.readAt })),
    );
  };
}

/** The claim of limited groups: locks, budgets, the claim statement, the buckets — one transaction. */
async function claimLimited(
  db: Kysely<WorkItemTables>,
  options: ClaimOptions,
  plan: GroupPlan[],
  byType: WorkLimitsByType,
): Promise<ClaimedWorkItem[]> {
  const locks = new Set<string>();
  for (const g of plan) {
    const limits = byType.get(g.processType);
    if (!hasLimits(limits)) continue;
    if (g.tenantCap !== null || limits.rateLimit?.scope === 'tenant') locks.add(tenantLock(g));
    if (g.globalCap !== null || limits.rateLimit?.scope === 'global') locks.add(typeLock(g.processType));
  }
  return db.transaction().execute(async (trx) => {
    // The locks are taken by a statement of their own: the claim's snapshot then starts after
    // every earlier holder committed, so its RUNNING counts include their claims.
    await lockGroups(trx, [...locks]);
    const spend = await applyRates(trx, plan, byType);
    const items = await claimInRounds(trx, options, plan);
    await spend(items);
    return items;
  });
}

/** Makes a claimer; it keeps the round-robin cursors of its runner and who had a backlog. */
export function makeFairClaimer(settings: FairClaimerOptions = {}): FairClaimer {
  let cursor: WorkGroup | undefined;
  let earlyCursor: WorkGroup | undefined;
  let backlogged = new Set<string>();
  const recorder = settings.metrics === undefined ? undefined : makeLimitRecorder(settings.metrics);

  async function limitsNow(): Promise<WorkLimitsByType> {
    const byType: WorkLimitsByType = (await settings.limits?.current()) ?? NO_LIMITS;
    recorder?.limitsRead(byType);
    return byType;
  }

  /** Claims for `groups` (walked, with due work): in a transaction with their locks when a limit applies. */
  async function claimPlanned(
    db: Kysely<WorkItemTables>,
    options: ClaimOptions,
    plan: GroupPlan[],
    byType: WorkLimitsByType,
  ): Promise<ClaimedWorkItem[]> {
    if (!plan.some((g) => hasLimits(byType.get(g.processType)))) return claimInRounds(db, options, plan);
    const items = await claimLimited(db, options, plan, byType);
    await recorder?.claimed(db, { limit: options.limit, plan, items, byType });
    return items;
  }

  return {
    async claim(db, options) {
      const byType = await limitsNow();
      const walk = Math.max(options.limit, MIN_GROUPS_WALKED);
      const groups = await walkGroups(db, { after: cursor, limit: walk, partitions: options.processTypes });
      const plan = planOf(groups, options.limit, byType);
      const items = await claimPlanned(db, options, plan, byType);
      cursor = lastServed(groups, items);
      backlogged = backloggedTenants(plan, items);
      return items;
    },
    async claimEarly(db, options) {
      const byType = await limitsNow();
      const walk = Math.max(options.limit, MIN_GROUPS_WALKED);
      // Its own cursor: early claims go round the light tenants without moving the batches' turn.
      const walked = await walkGroups(db, { after: earlyCursor, limit: walk, partitions: options.processTypes });
      const groups = walked.filter((g) => !backlogged.has(g.tenantKey));
      if (groups.length === 0) return [];
      const items = await claimPlanned(db, options, planOf(groups, options.limit, byType), byType);
      earlyCursor = lastServed(groups, items);
      return items;
    },
  };
}
