/**
 * Enqueueing work items: idempotent on `<processId>:<processType>:<workerType>` (an item already
 * enqueued is skipped), one statement per chunk of many.
 */
import { jsonRecordset } from '@fw/core';
import { DEFAULT_PRIORITY, type WorkerDto } from '@fw/process-api';
import { sql, type Kysely } from 'kysely';
import type { WorkItemTables } from '../schema/work-item-tables';
import { storedPayloadOf } from './work-item-payload';
import type { EnqueueOptions } from './work-item-types';

/** `<processId>:<processType>:<workerType>`: the item's key. */
export function idempotencyKeyOf(worker: Pick<WorkerDto, 'processId' | 'processType' | 'workerType'>): string {
  return `${worker.processId}:${worker.processType}:${worker.workerType}`;
}

/** Attempts of an item: the definition's `retry.attempts` when it sets one, else the starter's default. */
function attemptsOf(worker: WorkerDto, fallback: number): number {
  return worker.retry?.attempts ?? fallback;
}

/**
 * True when no row of an earlier release (a random id) is left: one probe of migration 0025's
 * partial index, evaluated once per statement (an init plan), after which the statement skips the
 * per-item lookup of the key among such rows. Written as the index's first key (`order by … limit
 * 1`, not `exists`): PostgreSQL cannot estimate the index's predicate, and for `exists` it planned a
 * scan of the whole table. Without this test the lookup ran for every item, as an index probe each
 * or, on a young table, as a hash join over a scan of it: about 2.5 ms of a 1,024-item enqueue
 * (40 ms) once retention has removed the old rows, which is always, soon after an upgrade.
 */
const LEGACY_ROWS_ABSENT = sql`(select true from fw_process_work_item o where not fw_work_item_id_is_derived(o.id)
                                 order by o.idempotency_key limit 1) is null`;

/** Rows per insert statement (bounds the size of its one JSON parameter). */
const ENQUEUE_CHUNK = 1000;

const ENQUEUE_COLUMNS = {
  process_id: 'text',
  process_type: 'text',
  worker_type: 'text',
  tenant: 'text',
  payload: 'jsonb',
  max_attempts: 'integer',
} as const;

/**
 * Inserts many items, one statement per chunk; an item whose idempotency key exists is skipped.
 * The number inserted.
 *
 * The id is `fw_work_item_id(process_id, key)` (migrations/0025_work_item_keyed_id.sql), so
 * `on conflict (id)` is the idempotency check, and the item of a replayed state change is skipped
 * without a unique index on the key. A key held by a row of an earlier release (random id) is
 * found through that migration's partial index, which only such rows enter; once none is left,
 * the statement does not look ({@link LEGACY_ROWS_ABSENT}).
 */
export async function enqueueWorkItems(
  db: Kysely<WorkItemTables>,
  workers: readonly WorkerDto[],
  options: EnqueueOptions,
): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < workers.length; i += ENQUEUE_CHUNK) {
    const chunk = workers.slice(i, i + ENQUEUE_CHUNK);
    // One JSON parameter (jsonRecordset of @fw/core) with each field once: the columns, the stored
    // payload (work-item-payload), the attempts; the key is built as idempotencyKeyOf builds it,
    // from the process id as given.
    const rows = chunk.map((w) => ({
      process_id: w.processId,
      process_type: w.processType,
      worker_type: w.workerType,
      tenant: w.tenant,
      payload: storedPayloadOf(w),
      max_attempts: attemptsOf(w, options.maxAttempts),
    }));
    const runAt = options.runAt === undefined ? sql<Date>`now()` : sql<Date>`${options.runAt}::timestamptz`;
    const result = await sql`
      insert into fw_process_work_item (id, idempotency_key, process_id, process_type, worker_type, tenant, payload, max_attempts, run_at, priority,
                                        trace_context)
      select fw_work_item_id(k.process_id::uuid, k.key), k.key, k.process_id::uuid, k.process_type, k.worker_type, k.tenant, k.payload,
             k.max_attempts, ${runAt}, coalesce((k.payload->>'priority')::smallint, ${DEFAULT_PRIORITY}), k.payload->>'traceContext'
        from (select v.*, concat_ws(':', v.process_id, v.process_type, v.worker_type) as key
                from ${jsonRecordset(rows, ENQUEUE_COLUMNS)}) as k
       where ${LEGACY_ROWS_ABSENT}
          or not exists (select 1 from fw_process_work_item l
                          where l.idempotency_key = k.key and not fw_work_item_id_is_derived(l.id))
      on conflict (id) do nothing`.execute(db);
    inserted += Number(result.numAffectedRows ?? 0n);
  }
  return inserted;
}

/** Inserts the item unless its idempotency key exists; true when a row was inserted. */
export async function enqueueWorkItem(
  db: Kysely<WorkItemTables>,
  worker: WorkerDto,
  options: EnqueueOptions,
): Promise<boolean> {
  return (await enqueueWorkItems(db, [worker], options)) > 0;
}
