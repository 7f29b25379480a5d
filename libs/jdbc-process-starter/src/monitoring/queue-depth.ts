/**
 * Queue depth for autoscalers and dashboards: counts by status and the age of the oldest item
 * waiting to be claimed, in one statement.
 *
 * @example
 * const depth = await queueDepth(database);
 * if (depth.due > 100 || (depth.oldestDueAgeSeconds ?? 0) > 30) scaleOut();
 */
import { sql, type Kysely } from 'kysely';
import { workItemDb } from '../schema/work-item-tables';

export interface QueueDepth {
  /** PENDING items (due now or waiting for a retry's backoff). */
  pending: number;
  /** PENDING items whose `run_at` has passed: claimable now. */
  due: number;
  /** RUNNING items (leased). */
  running: number;
  /** RUNNING items whose lease expired (their runner died): claimable now. */
  expiredLeases: number;
  success: number;
  dead: number;
  /** DEAD items whose failure has not reached the process yet. */
  unreportedDead: number;
  /** Seconds since the oldest due PENDING item became claimable (null when none is due). */
  oldestDueAgeSeconds: number | null;
}

interface DepthRow {
  pending: string | number;
  due: string | number;
  running: string | number;
  expired_leases: string | number;
  success: string | number;
  dead: string | number;
  unreported_dead: string | number;
  oldest_due_age: string | number | null;
}

/** Reads the queue depth (optionally for some process types only). */
export async function queueDepth<DB>(
  database: { db: Kysely<DB> } | Kysely<DB>,
  options: { processTypes?: readonly string[] } = {},
): Promise<QueueDepth> {
  const filter =
    options.processTypes === undefined ? sql`true` : sql`process_type = any(${[...options.processTypes]}::text[])`;
  const { rows } = await sql<DepthRow>`
    select count(*) filter (where status = 'PENDING') as pending,
           count(*) filter (where status = 'PENDING' and run_at <= now()) as due,
           count(*) filter (where status = 'RUNNING') as running,
           count(*) filter (where status = 'RUNNING' and locked_until < now()) as expired_leases,
           count(*) filter (where status = 'SUCCESS') as success,
           count(*) filter (where status = 'DEAD') as dead,
           count(*) filter (where status = 'DEAD' and failure_reported_at is null) as unreported_dead,
           extract(epoch from now() - min(run_at) filter (where status = 'PENDING' and run_at <= now()))::double precision as oldest_due_age
      from fw_process_work_item
     where ${filter}`.execute(workItemDb(database));
  const row = rows[0];
  const n = (v: string | number | undefined) => Number(v ?? 0);
  return {
    pending: n(row?.pending),
    due: n(row?.due),
    running: n(row?.running),
    expiredLeases: n(row?.expired_leases),
    success: n(row?.success),
    dead: n(row?.dead),
    unreportedDead: n(row?.unreported_dead),
    oldestDueAgeSeconds:
      row?.oldest_due_age === null || row?.oldest_due_age === undefined ? null : Number(row.oldest_due_age),
  };
}
