/**
 * Every statement of the work-item queue. The lease mechanics (claim, heartbeat, complete, retry,
 * DEAD, release, retention) are the shared statements of `@fw/leased-queue` over
 * `fw_process_work_item`; this file adds what is particular to work items (idempotent enqueue,
 * failure reports). Each write that finishes an attempt is fenced by the claim token, so a runner
 * whose lease expired and whose item was claimed again updates nothing (the call answers `false`).
 *
 * @example
 * const repo = makeWorkItemRepository();
 * const [item] = await repo.claim(db, { workerId: 'w1', limit: 1, leaseMillis: 30_000 });
 * if (item) await repo.complete(db, item.id, item.claimToken);
 */
import { jsonRecordset } from '@fw/core';
import {
  leasedClaimOf,
  makeLeasedQueue,
  nowPlusMillis,
  type Claim,
  type LeasedClaim,
  type LeaseFields,
} from '@fw/leased-queue';
import { DEFAULT_PRIORITY, type WorkerDto } from '@fw/process-api';
import { sql, type Kysely } from 'kysely';
import { WorkItemStatus, type WorkItemTables } from '../schema/work-item-tables';

/** A claimed item as the runner sees it. */
export interface ClaimedWorkItem {
  id: string;
  idempotencyKey: string;
  processId: string;
  processType: string;
  workerType: string;
  tenant: string | null;
  /** The WorkerDto as enqueued. */
  payload: unknown;
  /** Attempts made, this one included. */
  attempts: number;
  maxAttempts: number;
  lockedBy: string;
  lockedUntil: Date;
  /** Fences every write of this attempt. */
  claimToken: string;
  lastError: string | null;
}

export interface ClaimOptions {
  workerId: string;
  limit: number;
  leaseMillis: number;
  /** Only these process types (default: all). */
  processTypes?: readonly string[];
}

export interface EnqueueOptions {
  maxAttempts: number;
  /** Earliest claim (default now). */
  runAt?: Date;
}

/** `<processId>:<processType>:<workerType>`: the item's key. */
export function idempotencyKeyOf(worker: Pick<WorkerDto, 'processId' | 'processType' | 'workerType'>): string {
  return `${worker.processId}:${worker.processType}:${worker.workerType}`;
}

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

/** The work-item columns a claim returns besides the lease fields. */
export interface ItemFields {
  idempotency_key: string;
  process_id: string;
  process_type: string;
  worker_type: string;
  tenant: string | null;
  payload: unknown;
}

/** A row as `claimUnreported` returns it (its claim is particular to work items). */
interface ItemRow extends ItemFields {
  id: string;
  attempts: number | string;
  max_attempts: number | string;
  locked_by: string;
  locked_until: Date | string;
  claim_token: string;
  last_error: string | null;
}

/** A row of a claim statement: the lease fields under their `lq_*` names and the item's columns. */
export type ClaimedItemRow = LeaseFields & ItemFields;

/** `fw_process_work_item` as a leased queue: a token per item, oldest due first, by process type. */
const queue = makeLeasedQueue<ItemFields>({
  table: 'fw_process_work_item',
  statuses: {
    pending: WorkItemStatus.PENDING,
    running: WorkItemStatus.RUNNING,
    done: WorkItemStatus.SUCCESS,
    dead: WorkItemStatus.DEAD,
  },
  returning: ['idempotency_key', 'process_id', 'process_type', 'worker_type', 'tenant', 'payload'],
  claimOrder: ['run_at', 'created_at'],
  partitionColumn: 'process_type',
});

/**
 * A row claimed by a statement that names the lease fields `lq_*` (as `@fw/leased-queue` and the
 * fair claim do) as a {@link ClaimedWorkItem}.
 */
export function claimedWorkItemOf(row: ClaimedItemRow): ClaimedWorkItem {
  return toItem(leasedClaimOf(row));
}

/** The lease fields as claimed, and the work item's own columns. */
function toItem({ row, ...lease }: LeasedClaim<ItemFields>): ClaimedWorkItem {
  return {
    ...lease,
    idempotencyKey: row.idempotency_key,
    processId: row.process_id,
    processType: row.process_type,
    workerType: row.worker_type,
    tenant: row.tenant,
    payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload,
  };
}

function typeFilter(processTypes: readonly string[] | undefined) {
  return processTypes === undefined ? sql`true` : sql`process_type = any(${[...processTypes]}::text[])`;
}

/** Attempts of an item: the definition's `retry.attempts` when it sets one, else the starter's default. */
function attemptsOf(worker: WorkerDto, fallback: number): number {
  return worker.retry?.attempts ?? fallback;
}

/** Rows per insert statement (bounds the size of its one JSON parameter). */
const ENQUEUE_CHUNK = 1000;

const ENQUEUE_COLUMNS = { payload: 'jsonb', max_attempts: 'integer' } as const;

/** Makes the repository (stateless; every call takes the Kysely handle to use). */
export function makeWorkItemRepository(): WorkItemRepository {
  const one = (id: string, claimToken: string): Claim[] => [{ id, claimToken }];

  return {
    async enqueueMany(db, workers, options) {
      let inserted = 0;
      for (let i = 0; i < workers.length; i += ENQUEUE_CHUNK) {
        const chunk = workers.slice(i, i + ENQUEUE_CHUNK);
        // Only the WorkerDto and the attempts travel (one JSON parameter, jsonRecordset of
        // @fw/core): the key and the other columns are read from the payload, as
        // idempotencyKeyOf builds the key.
        const rows = chunk.map((w) => ({ payload: w, max_attempts: attemptsOf(w, options.maxAttempts) }));
        const runAt = options.runAt === undefined ? sql<Date>`now()` : sql<Date>`${options.runAt}::timestamptz`;
        const result = await sql`
          insert into fw_process_work_item (idempotency_key, process_id, process_type, worker_type, tenant, payload, max_attempts, run_at, priority)
          select concat_ws(':', v.payload->>'processId', v.payload->>'processType', v.payload->>'workerType'), (v.payload->>'processId')::uuid,
                 v.payload->>'processType', v.payload->>'workerType', v.payload->>'tenant', v.payload, v.max_attempts, ${runAt},
                 coalesce((v.payload->>'priority')::smallint, ${DEFAULT_PRIORITY})
            from ${jsonRecordset(rows, ENQUEUE_COLUMNS)}
          on conflict (idempotency_key) do nothing`.execute(db);
        inserted += Number(result.numAffectedRows ?? 0n);
      }
      return inserted;
    },

    completeMany: (db, items) => queue.complete(db, items, { lastError: null }),

    async enqueue(db, worker, options) {
      const result = await db
        .insertInto('fw_process_work_item')
        .values({
          idempotency_key: idempotencyKeyOf(worker),
          process_id: worker.processId,
          process_type: worker.processType,
          worker_type: worker.workerType,
          tenant: worker.tenant,
          payload: JSON.stringify(worker),
          max_attempts: attemptsOf(worker, options.maxAttempts),
          run_at: options.runAt ?? sql<Date>`now()`,
          priority: worker.priority ?? DEFAULT_PRIORITY,
          locked_by: null,
          locked_until: null,
          claim_token: null,
          last_error: null,
          failure_reported_at: null,
          finished_at: null,
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .executeTakeFirst();
      return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
    },

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

    async markReported(db, id, claimToken) {
      const result = await db
        .updateTable('fw_process_work_item')
        .where('id', '=', id)
        .where('claim_token', '=', claimToken)
        .where('status', '=', WorkItemStatus.DEAD)
        .where('failure_reported_at', 'is', null)
        .set({ failure_reported_at: sql<Date>`now()`, locked_until: null, updated_at: sql<Date>`now()` })
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async claimUnreported(db, options) {
      const result = await sql<ItemRow>`
        update fw_process_work_item
           set locked_by = ${options.workerId}, locked_until = ${nowPlusMillis(options.leaseMillis)},
               claim_token = gen_random_uuid(), updated_at = now()
         where id in (
           select id from fw_process_work_item
            where status = 'DEAD' and failure_reported_at is null and (locked_until is null or locked_until < now())
              and ${typeFilter(options.processTypes)}
            order by locked_until nulls first
            for update skip locked
            limit ${options.limit})
        returning id, idempotency_key, process_id, process_type, worker_type, tenant, payload, attempts,
                  max_attempts, locked_by, locked_until, claim_token, last_error`.execute(db);
      return result.rows.map((row) =>
        toItem({
          id: row.id,
          claimToken: row.claim_token,
          attempts: Number(row.attempts),
          maxAttempts: Number(row.max_attempts),
          lastError: row.last_error,
          lockedBy: row.locked_by,
          lockedUntil: new Date(row.locked_until),
          row,
        }),
      );
    },

    release: async (db, id, claimToken) => (await queue.release(db, one(id, claimToken))).size > 0,

    purgeSucceeded: (db, options) =>
      queue.purgeFinished(db, {
        olderThanMillis: options.olderThanMillis,
        limit: options.limit,
        partitions: options.processTypes,
      }),
  };
}
