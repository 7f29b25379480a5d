/**
 * The failure reports of DEAD items: a DEAD item keeps its lease while its runner reports the
 * failure to the process, then is marked reported; items whose report never happened (the
 * reporter crashed or failed) are claimed again for it.
 */
import { nowPlusMillis } from '@fw/leased-queue';
import { sql, type Kysely } from 'kysely';
import { WorkItemStatus, type WorkItemTables } from '../schema/work-item-tables';
import type { ClaimedWorkItem, ClaimOptions } from './work-item-types';
import { toItem, type ItemFields } from './work-item-queue';

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

function typeFilter(processTypes: readonly string[] | undefined) {
  return processTypes === undefined ? sql`true` : sql`process_type = any(${[...processTypes]}::text[])`;
}

/** Records that a DEAD item's failure reached the process (fenced by its claim token). */
export async function markDeadItemReported(
  db: Kysely<WorkItemTables>,
  id: string,
  claimToken: string,
): Promise<boolean> {
  const result = await db
    .updateTable('fw_process_work_item')
    .where('id', '=', id)
    .where('claim_token', '=', claimToken)
    .where('status', '=', WorkItemStatus.DEAD)
    .where('failure_reported_at', 'is', null)
    .set({ failure_reported_at: sql<Date>`now()`, locked_until: null, updated_at: sql<Date>`now()` })
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Claims DEAD items whose failure was never reported (the reporter crashed or failed). */
export async function claimUnreportedItems(
  db: Kysely<WorkItemTables>,
  options: ClaimOptions,
): Promise<ClaimedWorkItem[]> {
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
    returning id, idempotency_key, process_id, process_type, worker_type, tenant, payload, run_at, attempts,
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
      leaseExpired: false,
      row,
    }),
  );
}
