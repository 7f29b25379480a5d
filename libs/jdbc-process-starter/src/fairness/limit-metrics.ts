/**
 * The limits of fair claims in the metrics: the limits a runner applies as gauges
 * (`fw_work_item_concurrency_limit`, `fw_work_item_rate_limit_per_second`), set whenever the
 * limits it reads change, and `fw_work_item_claims_limited_total`, counted when a claim of limited
 * groups left one of them with due work because its concurrency or rate limit was reached.
 *
 * @example
 * const recorder = makeLimitRecorder(metrics);
 * recorder.limitsRead(byType);
 * await recorder.claimed(db, { limit: 50, plan, items, byType });
 */
import type { FwMetrics, WorkLimitKind, WorkLimitSample } from '@fw/telemetry';
import type { Kysely } from 'kysely';
import type { ClaimedWorkItem } from '../repository/work-item-types';
import type { WorkItemTables } from '../schema/work-item-tables';
import { groupsWithDueWork, type GroupPlan, type WorkGroup } from './fair-claim-statements';
import { hasLimits, type WorkLimitsByType } from './work-limits';

/** What the recorder needs of an `FwMetrics`. */
export type LimitMetrics = Pick<FwMetrics, 'workLimitsDeclared' | 'claimLimited'>;

export interface LimitRecorder {
  /** The limits read before a claim: the gauges follow when they changed. */
  limitsRead(byType: WorkLimitsByType): void;
  /** After a claim of limited groups: counts the groups its limits held back (never throws). */
  claimed(db: Kysely<WorkItemTables>, claim: ClaimOfLimitedGroups): Promise<void>;
}

export interface ClaimOfLimitedGroups {
  /** The batch asked for. */
  limit: number;
  /** The groups with their takes and rate budgets as the claim used them. */
  plan: readonly GroupPlan[];
  items: readonly ClaimedWorkItem[];
  byType: WorkLimitsByType;
}

/** The declared limits as samples of the gauges. */
export function limitSamplesOf(byType: WorkLimitsByType): WorkLimitSample[] {
  const samples: WorkLimitSample[] = [];
  for (const [processType, limits] of byType) {
    const c = limits.concurrency;
    if (c?.perTenant !== null && c?.perTenant !== undefined)
      samples.push({ processType, kind: 'concurrency', scope: 'tenant', value: c.perTenant });
    if (c?.global !== null && c?.global !== undefined)
      samples.push({ processType, kind: 'concurrency', scope: 'global', value: c.global });
    if (limits.rateLimit)
      samples.push({ processType, kind: 'rate', scope: limits.rateLimit.scope, value: limits.rateLimit.perSecond });
  }
  return samples;
}

const groupId = (processType: string, tenantKey: string) => `${processType}\u0001${tenantKey}`;

/**
 * The limited groups a claim may have held back, with the limit that bound: `rate` when the group
 * took all its rate budget; `concurrency` when it has a concurrency limit and the batch was not
 * full (in a full batch a group may simply have had no room left). Whether it still has due work
 * decides (`groupsWithDueWork`).
 */
export function heldBackCandidates(claim: ClaimOfLimitedGroups): Array<WorkGroup & { limit: WorkLimitKind }> {
  const byGroup = new Map<string, number>();
  const byType = new Map<string, number>();
  for (const item of claim.items) {
    const id = groupId(item.processType, item.tenant ?? '');
    byGroup.set(id, (byGroup.get(id) ?? 0) + 1);
    byType.set(item.processType, (byType.get(item.processType) ?? 0) + 1);
  }
  const roomLeft = claim.items.length < claim.limit;
  const candidates: Array<WorkGroup & { limit: WorkLimitKind }> = [];
  for (const g of claim.plan) {
    if (!hasLimits(claim.byType.get(g.processType))) continue;
    const took = byGroup.get(groupId(g.processType, g.tenantKey)) ?? 0;
    const typeTook = byType.get(g.processType) ?? 0;
    const rateSpent =
      (g.tenantRate !== null && took >= g.tenantRate) || (g.globalRate !== null && typeTook >= g.globalRate);
    const capped = g.tenantCap !== null || g.globalCap !== null;
    if (rateSpent) candidates.push({ processType: g.processType, tenantKey: g.tenantKey, limit: 'rate' });
    else if (capped && roomLeft)
      candidates.push({ processType: g.processType, tenantKey: g.tenantKey, limit: 'concurrency' });
  }
  return candidates;
}

/** Makes the recorder of `metrics`. */
export function makeLimitRecorder(metrics: LimitMetrics): LimitRecorder {
  let recorded: WorkLimitsByType | undefined;
  return {
    limitsRead(byType) {
      if (byType === recorded) return;
      recorded = byType;
      metrics.workLimitsDeclared(limitSamplesOf(byType));
    },
    async claimed(db, claim) {
      const candidates = heldBackCandidates(claim);
      if (candidates.length === 0) return;
      let due: WorkGroup[];
      try {
        due = await groupsWithDueWork(db, candidates);
      } catch {
        // The claim has committed: a failed count must not fail it (its items would wait for
        // their leases). The next claim counts again.
        return;
      }
      const held = new Set(due.map((g) => groupId(g.processType, g.tenantKey)));
      for (const c of candidates)
        if (held.has(groupId(c.processType, c.tenantKey)))
          metrics.claimLimited({
            tenant: c.tenantKey === '' ? null : c.tenantKey,
            processType: c.processType,
            limit: c.limit,
          });
    },
  };
}
