/**
 * One turn of the runner's poll loop: when enough slots are free, claim a batch and launch it
 * (by tenant batch with `runMany`, else item by item); when the batch came back short, report the
 * DEAD items no runner has reported yet (at most once per poll interval). While fewer than
 * `minClaim` slots are free, the free ones go to tenants without a backlog (an early claim), so
 * their few items do not wait for a whole batch of slots. A failed claim rejects: the lifecycle
 * counts it into the outage or logs it.
 */
import type { OutageTracker } from '@fw/leased-queue';
import type { Kysely } from 'kysely';
import type { ClaimedWorkItem, ClaimOptions, WorkItemRepository } from '../repository/work-item-repository';
import type { WorkItemTables } from '../schema/work-item-tables';
import type { AttemptSettlement } from './attempt-settlement';
import type { RunMany, WorkItemClaimer } from './runner-config';
import type { RunnerEvents } from './runner-events';
import type { RunningItems } from './running-items';

export interface WorkItemClaimTurnDeps {
  db: Kysely<WorkItemTables>;
  claimer: WorkItemClaimer;
  repo: Pick<WorkItemRepository, 'claimUnreported'>;
  running: Pick<RunningItems, 'size' | 'launch' | 'launchBatch'>;
  settlement: Pick<AttemptSettlement, 'report'>;
  outage: Pick<OutageTracker, 'succeeded'>;
  itemEvent: RunnerEvents['itemEvent'];
  counters: { claimed: number };
  claimOptions: Omit<ClaimOptions, 'limit'>;
  runMany: RunMany | undefined;
  concurrency: number;
  batchSize: number;
  minClaim: number;
  pollMillis: number;
  /** Whether DEAD items are reported (an `onDead` reporter is set). */
  reportsDead: boolean;
}

/**
 * A claimed batch as one batch per tenant: a tenant's few items then finish with their own
 * `runMany` call instead of waiting for the end of another tenant's large batch.
 */
export function batchesByTenant(items: readonly ClaimedWorkItem[]): ClaimedWorkItem[][] {
  const byTenant = new Map<string | null, ClaimedWorkItem[]>();
  for (const item of items) {
    const batch = byTenant.get(item.tenant);
    if (batch) batch.push(item);
    else byTenant.set(item.tenant, [item]);
  }
  return [...byTenant.values()];
}

/** Makes the turn; it resolves true when the batch was full (claim again at once). */
export function makeWorkItemClaimTurn(deps: WorkItemClaimTurnDeps): () => Promise<boolean> {
  const { db, running, concurrency, batchSize, minClaim, pollMillis } = deps;
  let lastSweep = 0;

  async function sweepUnreported(): Promise<void> {
    if (!deps.reportsDead || Date.now() - lastSweep < pollMillis) return;
    lastSweep = Date.now();
    for (const item of await deps.repo.claimUnreported(db, { ...deps.claimOptions, limit: batchSize })) {
      await deps.settlement.report(item, item.lastError ?? 'work item is DEAD', null);
    }
  }

  function launch(items: readonly ClaimedWorkItem[]): void {
    deps.outage.succeeded();
    deps.counters.claimed += items.length;
    for (const item of items) deps.itemEvent('claimed', item);
    if (deps.runMany !== undefined && items.length > 0)
      for (const batch of batchesByTenant(items)) running.launchBatch(batch, deps.runMany);
    else for (const item of items) running.launch(item);
  }

  return async function turn(): Promise<boolean> {
    const free = concurrency - running.size;
    if (free <= 0) return false;
    const want = Math.min(batchSize, free);
    if (free < minClaim && running.size > 0) {
      // Not enough for a batch: the free slots, if any tenant without a backlog has due work.
      // Never a claim again at once: the next batch comes when its slots are free (a wake-up).
      if (deps.claimer.claimEarly !== undefined)
        launch(await deps.claimer.claimEarly(db, { ...deps.claimOptions, limit: want }));
      return false;
    }
    const items = await deps.claimer.claim(db, { ...deps.claimOptions, limit: want });
    launch(items);
    const full = items.length === want;
    if (!full) await sweepUnreported();
    return full;
  };
}
