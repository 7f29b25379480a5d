/**
 * Every statement of the work-item queue. The lease mechanics (claim, heartbeat, complete, retry,
 * DEAD, release, retention) are the shared statements of `@fw/leased-queue` over
 * `fw_process_work_item`; this file adds what is particular to work items (idempotent enqueue,
 * failure reports; see `work-item-enqueue.ts` and `dead-item-reports.ts`). Each write that finishes an attempt is fenced by the claim token, so a runner
 * whose lease expired and whose item was claimed again updates nothing (the call answers `false`).
 *
 * @example
 * const repo = makeWorkItemRepository();
 * const [item] = await repo.claim(db, { workerId: 'w1', limit: 1, leaseMillis: 30_000 });
 * if (item) await repo.complete(db, item.id, item.claimToken);
 */
import type { Claim } from '@fw/leased-queue';
import type { WorkerDto } from '@fw/process-api';
import { sql, type Kysely } from 'kysely';
import type { WorkItemTables } from '../schema/work-item-tables';
import { claimUnreportedItems, markDeadItemReported } from './dead-item-reports';
import { enqueueWorkItem, enqueueWorkItems } from './work-item-enqueue';
import { toItem, workItemQueue } from './work-item-queue';
import type { ClaimedWorkItem, ClaimOptions, EnqueueOptions } from './work-item-types';

export { idempotencyKeyOf } from './work-item-enqueue';
export { claimedWorkItemOf } from './work-item-queue';
export type { ClaimedItemRow, ItemFields } from './work-item-queue';
export type { ClaimedWorkItem, ClaimOptions, EnqueueOptions } from './work-item-types';

export interface WorkItemRepository {
  /** Inserts the item unless its idempotency key exists; true when a row was inserted. */
  enqueue(db: Kysely<WorkItemTables>, worker: WorkerDto, options: EnqueueOptions): Promise<boolean>;
  /** Inserts many items in ONE statement (items whose idempotency key exists are skipped); the number inserted. */
  enqueueMany(db: Kysely<WorkItemTables>, workers: readonly WorkerDto[], options: EnqueueOptions): Promise<number>;
  /** Claims up to `limit` due or lease-expired items in ONE statement (FOR UPDATE SKIP LOCKED). */
  claim(db: Kysely<WorkItemTables>, options: ClaimOptions): Promise<ClaimedWorkItem[]>;
  /** Extends the lease of a running attempt; false when the claim was lost. */
  heartbeat(db: Kysely<WorkItemTables>, id: string, claimToken: string, leaseMillis: number): Promise<boolean>;
  /** Extends the leases of many running attempts in ONE statement; the ids renewed (a lost claim is absent). */
  heartbeatMany(db: Kysely<WorkItemTables>, items: readonly Claim[], leaseMillis: number): Promise<Set<string>>;
  /** RUNNING → SUCCESS; false when the claim was lost (late acknowledgement). */
  complete(db: Kysely<WorkItemTables>, id: string, claimToken: string, note?: string | null): Promise<boolean>;
  /**
   * RUNNING → SUCCESS for many items in ONE statement, each fenced by its own claim token; returns
   * the ids completed (an item whose claim was lost is absent).
   */
  completeMany(
    db: Kysely<WorkItemTables>,
    items: ReadonlyArray<{ id: string; claimToken: string }>,
  ): Promise<Set<string>>;
  /** RUNNING → PENDING, claimable again after `delayMillis`. */
  retry(
    db: Kysely<WorkItemTables>,
    id: string,
    claimToken: string,
    error: string,
    delayMillis: number,
  ): Promise<boolean>;
  /**
   * RUNNING → DEAD. With `reported: false` the lease is kept for `leaseMillis` while this runner
   * reports the failure to the process; {@link markReported} finishes it.
   */
  markDead(
    db: Kysely<WorkItemTables>,
    id: string,
    claimToken: string,
    error: string,
    options: { reported: boolean; leaseMillis: number },
  ): Promise<boolean>;
  /** Records that a DEAD item's failure reached the process. */
  markReported(db: Kysely<WorkItemTables>, id: string, claimToken: string): Promise<boolean>;
  /** Claims DEAD items whose failure was never reported (the reporter crashed or failed). */
  claimUnreported(db: Kysely<WorkItemTables>, options: ClaimOptions): Promise<ClaimedWorkItem[]>;
  /** RUNNING → PENDING now, the interrupted attempt not counted (graceful shutdown). */
  release(db: Kysely<WorkItemTables>, id: string, claimToken: string): Promise<boolean>;
  /**
   * Deletes up to `limit` SUCCESS items finished more than `olderThanMillis` ago in ONE statement
   * (rows another runner is deleting are skipped); the number deleted. DEAD items are kept.
   */
  purgeSucceeded(
    db: Kysely<WorkItemTables>,
    options: { olderThanMillis: number; limit: number; processTypes?: readonly string[] },
  ): Promise<number>;
}

/** Makes the repository (stateless; every call takes the Kysely handle to use). */
export function makeWorkItemRepository(): WorkItemRepository {
  const queue = workItemQueue;
  const one = (id: string, claimToken: string): Claim[] => [{ id, claimToken }];

  return {
    enqueueMany: enqueueWorkItems,

    completeMany: (db, items) => queue.complete(db, items, { lastError: null }),

    enqueue: enqueueWorkItem,

    async claim(db, options) {
      return (
        await queue.claim(db, {
          workerId: options.workerId,
          limit: options.limit,
          leaseMillis: options.leaseMillis,
          partitions: options.processTypes,
        })
      ).map(toItem);
    },

    heartbeat: async (db, id, claimToken, leaseMillis) =>
      (await queue.renew(db, one(id, claimToken), leaseMillis)).size > 0,

    heartbeatMany: (db, items, leaseMillis) => queue.renew(db, items, leaseMillis),

    complete: async (db, id, claimToken, note = null) =>
      (await queue.complete(db, one(id, claimToken), { lastError: note })).size > 0,

    retry: async (db, id, claimToken, error, delayMillis) =>
      (await queue.retry(db, one(id, claimToken), error, delayMillis)).size > 0,

    async markDead(db, id, claimToken, error, options) {
      // Unreported, the lease is kept while this runner reports the failure (then markReported).
      const dead = await queue.dead(db, one(id, claimToken), error, {
        keepLeaseMillis: options.reported ? undefined : options.leaseMillis,
        set: { failure_reported_at: options.reported ? sql`now()` : sql`null` },
      });
      return dead.size > 0;
    },

    markReported: markDeadItemReported,

    claimUnreported: claimUnreportedItems,

    release: async (db, id, claimToken) => (await queue.release(db, one(id, claimToken))).size > 0,

    purgeSucceeded: (db, options) =>
      queue.purgeFinished(db, {
        olderThanMillis: options.olderThanMillis,
        limit: options.limit,
        partitions: options.processTypes,
      }),
  };
}
