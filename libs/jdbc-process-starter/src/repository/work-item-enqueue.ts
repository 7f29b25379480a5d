/**
 * Enqueueing work items: idempotent on `<processId>:<processType>:<workerType>` (an item already
 * enqueued is skipped), one statement per chunk of many.
 */
import { jsonRecordset, timeOrderedUuid } from '@fw/core';
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

/** Rows per insert statement (bounds the size of its one JSON parameter). */
const ENQUEUE_CHUNK = 1000;

const ENQUEUE_COLUMNS = {
  id: 'uuid',
  process_id: 'text',
  process_type: 'text',
  worker_type: 'text',
  tenant: 'text',
  payload: 'jsonb',
  max_attempts: 'integer',
} as const;

/** Inserts many items, one statement per chunk (items whose idempotency key exists are skipped); the number inserted. */
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
    // from the process id as given. Ids are time-ordered (timeOrderedUuid): a run's inserts share
    // the newest pages of the primary key instead of one random page each.
    const rows = chunk.map((w) => ({
      id: timeOrderedUuid(),
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
      select v.id, concat_ws(':', v.process_id, v.process_type, v.worker_type), v.process_id::uuid,
             v.process_type, v.worker_type, v.tenant, v.payload, v.max_attempts, ${runAt},
             coalesce((v.payload->>'priority')::smallint, ${DEFAULT_PRIORITY}), v.payload->>'traceContext'
        from ${jsonRecordset(rows, ENQUEUE_COLUMNS)}
      on conflict (idempotency_key) do nothing`.execute(db);
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
  const result = await db
    .insertInto('fw_process_work_item')
    .values({
      id: timeOrderedUuid(),
      idempotency_key: idempotencyKeyOf(worker),
      process_id: worker.processId,
      process_type: worker.processType,
      worker_type: worker.workerType,
      tenant: worker.tenant,
      payload: JSON.stringify(storedPayloadOf(worker)),
      max_attempts: attemptsOf(worker, options.maxAttempts),
      run_at: options.runAt ?? sql<Date>`now()`,
      priority: worker.priority ?? DEFAULT_PRIORITY,
      trace_context: worker.traceContext ?? null,
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
}
