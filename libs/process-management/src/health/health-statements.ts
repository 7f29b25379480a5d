/**
 * The three grouped reads behind `GET /health`, each bounded by an index: completion events of
 * the last hour (BRIN on `generated_time`), work items pending, running and dead now (the partial
 * indexes of each status) and work items finished in the last hour (the partial index on
 * `finished_at` of SUCCESS rows). Every read filters on the tenant; times are on the database
 * clock, given as `now` by the caller so the three reads share one instant.
 */
import { sql, type Kysely } from 'kysely';

/** Processes finished in one bucket (0 = the newest five minutes) of one type, by outcome. */
export interface FinishedRow {
  process_type: string;
  bucket: number | string;
  successful: boolean;
  count: number | string;
}

/** Work items of one type, worker type and status now; `oldest_due` only for PENDING. */
export interface BacklogRow {
  process_type: string;
  worker_type: string;
  status: 'PENDING' | 'RUNNING' | 'DEAD';
  count: number | string;
  oldest_due_age: number | string | null;
}

/** Due-to-claim seconds of the work items of one type finished in the window. */
export interface WaitRow {
  process_type: string;
  p50: number | string | null;
  p95: number | string | null;
  samples: number | string;
}

export async function readNow(db: Kysely<unknown>): Promise<Date> {
  const { rows } = await sql<{ now: Date | string }>`select now() as now`.execute(db);
  return new Date(rows[0].now);
}

export async function readFinished(
  db: Kysely<unknown>,
  tenant: string,
  now: Date,
  windowSeconds: number,
  bucketSeconds: number,
): Promise<FinishedRow[]> {
  const { rows } = await sql<FinishedRow>`
    select process_type,
           floor(extract(epoch from (${now}::timestamptz - generated_time)) / ${bucketSeconds})::int as bucket,
           successful, count(*) as count
      from fw_process_completion_event
     where generated_time > ${now}::timestamptz - make_interval(secs => ${windowSeconds})
       and generated_time <= ${now}::timestamptz
       and tenant = ${tenant}
     group by 1, 2, 3`.execute(db);
  return rows;
}

/** One arm per status, so each reads its own partial index. */
export async function readBacklog(db: Kysely<unknown>, tenant: string, now: Date): Promise<BacklogRow[]> {
  const { rows } = await sql<BacklogRow>`
    select process_type, worker_type, 'PENDING' as status, count(*) as count,
           extract(epoch from ${now}::timestamptz - min(run_at) filter (where run_at <= ${now}::timestamptz))::double precision as oldest_due_age
      from fw_process_work_item
     where status = 'PENDING' and coalesce(tenant, '') = ${tenant}
     group by process_type, worker_type
    union all
    select process_type, worker_type, 'RUNNING', count(*), null
      from fw_process_work_item
     where status = 'RUNNING' and tenant = ${tenant}
     group by process_type, worker_type
    union all
    select process_type, worker_type, 'DEAD', count(*), null
      from fw_process_work_item
     where status = 'DEAD' and coalesce(tenant, '') = ${tenant}
     group by process_type, worker_type`.execute(db);
  return rows;
}

/**
 * The wait of the SUCCESS items finished in the window: from being due (`run_at`) to their last
 * claim (`claimed_at`, set by the claim statement), the wait the `fw_work_item_wait_seconds`
 * histogram records. An item finished before the claim time was kept (no `claimed_at`) counts
 * due → finished, its last attempt's run time included.
 */
export async function readWaits(
  db: Kysely<unknown>,
  tenant: string,
  now: Date,
  windowSeconds: number,
): Promise<WaitRow[]> {
  const { rows } = await sql<WaitRow>`
    select process_type,
           percentile_cont(0.5) within group (order by greatest(0, extract(epoch from coalesce(claimed_at, finished_at) - run_at))) as p50,
           percentile_cont(0.95) within group (order by greatest(0, extract(epoch from coalesce(claimed_at, finished_at) - run_at))) as p95,
           count(*) as samples
      from fw_process_work_item
     where status = 'SUCCESS'
       and finished_at > ${now}::timestamptz - make_interval(secs => ${windowSeconds})
       and coalesce(tenant, '') = ${tenant}
     group by process_type`.execute(db);
  return rows;
}
