/**
 * History of the `history` bench, written with set-based SQL in chunks: N finished processes in
 * the shape the engine leaves them — trees of one root and nine leaves, a completion event per
 * process, a child report per leaf, a cron trigger execution and its log row for every tenth root,
 * error records and a DEAD work item for every fiftieth (failed) tree, SUCCESS work items for the
 * trees of the last seven days (older ones are gone with the work-item retention). Roots are spread
 * evenly over the last 300 days, so with the default retention (30 days; failed 90) about nine in
 * ten processes have expired. Ids are md5-derived uuids (random order in the indexes, as v4 ids).
 *
 * @example
 * const seeded = await seedHistory(database, 1_000_000, io);   // { processes: 1_000_000, roots: 100_000, rows: 2_950_000, seconds }
 */
import type { Database } from '@fw/core';
import { sql, type Kysely } from 'kysely';
import type { BenchIo } from '../bench-types';

/** Processes per tree: a root and its leaves. */
export const TREE_SIZE = 10;
/** Tenant of the seeded history. */
export const HISTORY_TENANT = 'bench';
/** The seeded roots' process type. */
export const HISTORY_ROOT_TYPE = 'hist-root';
/** Days the seeded roots are spread over. */
export const HISTORY_DAYS = 300;
/** Roots written per chunk of statements. */
const CHUNK_ROOTS = 25_000;

export interface SeededHistory {
  processes: number;
  roots: number;
  /** Rows written in all tables. */
  rows: number;
  seconds: number;
}

/** Writes roots [from, to] (1-based) of `roots`, with everything of their runs; the rows written. */
async function seedChunk(db: Kysely<unknown>, from: number, to: number, roots: number): Promise<number> {
  const leaves = TREE_SIZE - 1;
  // Root g was created (HISTORY_DAYS · (roots − g) / roots) days ago and ran for a few seconds.
  const created = sql`now() - (${HISTORY_DAYS}::float8 * (${roots}::int - g) / ${roots}::int) * interval '1 day'`;
  let rows = 0;
  const count = async (statement: ReturnType<typeof sql>) =>
    (rows += Number((await statement.execute(db)).numAffectedRows ?? 0));
  await count(sql`
    insert into fw_process (id, process_type, leaf, parent_id, trigger_id, tenant, flow_id, state_id, split_completed, num_sub_processes,
      num_completed_sub_processes, completed_percent, input, output, created_time, last_modified_time, state_entry_time)
    select md5('r' || g)::uuid, ${HISTORY_ROOT_TYPE}::text, false, null, case when g % 10 = 0 then 'cron:bench:' || g end, ${HISTORY_TENANT}::text, 'process-flow',
      case when g % 50 = 0 then 'PROCESSED_WITH_ERRORS' else 'PROCESSED' end, true, ${leaves}::int, ${leaves}::int, 100,
      jsonb_build_object('day', g % 365, 'source', 'import'), jsonb_build_object('children', ${leaves}::int),
      ${created}, ${created} + interval '4 seconds', ${created} + interval '4 seconds'
    from generate_series(${from}::int, ${to}::int) g`);
  await count(sql`
    insert into fw_process (id, process_type, leaf, parent_id, trigger_id, tenant, flow_id, state_id, input, output, created_time, last_modified_time, state_entry_time)
    select md5('l' || g || '.' || c)::uuid, 'hist-leaf', true, md5('r' || g)::uuid, case when g % 10 = 0 then 'cron:bench:' || g end, ${HISTORY_TENANT}::text, 'process-flow',
      case when g % 50 = 0 and c = 1 then 'PROCESSED_WITH_ERRORS' else 'PROCESSED' end, jsonb_build_object('part', c), jsonb_build_object('rows', 100 + c),
      ${created} + interval '1 second', ${created} + interval '2 seconds', ${created} + interval '2 seconds'
    from generate_series(${from}::int, ${to}::int) g cross join generate_series(1, ${leaves}::int) c`);
  await count(sql`
    insert into fw_process_completion_event (id, process_id, process_type, tenant, trigger_id, state, successful, payload, generated_time)
    select md5('e' || p.id)::uuid, p.id, p.process_type, p.tenant, p.trigger_id, p.state_id, p.state_id = 'PROCESSED',
      jsonb_build_object('processId', p.id, 'processType', p.process_type, 'tenantId', p.tenant, 'triggerId', p.trigger_id, 'state', p.state_id,
        'successful', p.state_id = 'PROCESSED', 'input', p.input, 'output', p.output), p.last_modified_time
    from fw_process p where p.id in (select md5('r' || g)::uuid from generate_series(${from}::int, ${to}::int) g)
       or p.parent_id in (select md5('r' || g)::uuid from generate_series(${from}::int, ${to}::int) g)`);
  await count(sql`
    insert into fw_process_child_report (child_id, parent_id, successful, reported_time)
    select md5('l' || g || '.' || c)::uuid, md5('r' || g)::uuid, not (g % 50 = 0 and c = 1), ${created} + interval '2 seconds'
    from generate_series(${from}::int, ${to}::int) g cross join generate_series(1, ${leaves}::int) c`);
  await count(sql`
    insert into fw_process_error (owner_id, process_id, time_of_completion, errors, exception_message)
    select o.owner, md5('l' || g || '.1')::uuid, ${created} + interval '2 seconds', '["connection reset by peer"]'::jsonb, 'step failed after 5 attempts'
    from generate_series(${from}::int, ${to}::int) g
    cross join lateral (values (md5('l' || g || '.1')::uuid), (md5('r' || g)::uuid)) as o(owner) where g % 50 = 0`);
  await count(sql`
    with logs as (
      insert into fw_trigger_log (log_id, trigger_id, event_name, tenant, event_id, created_at)
      select md5('log' || g)::uuid, 'cron:bench:' || g, 'ProcessCreate', ${HISTORY_TENANT}::text, md5('ev' || g)::uuid, ${created}
      from generate_series(${from}::int, ${to}::int) g where g % 10 = 0 returning log_id)
    insert into fw_trigger_execution (id, trigger_id, tenant, source, scheduled_time, received_time, start_time, finish_time, event_name, payload, status, process_id, log_id, event_id)
    select md5('x' || g)::uuid, 'cron:bench:' || g, ${HISTORY_TENANT}::text, 'CRON', ${created}, ${created}, ${created}, ${created}, 'ProcessCreate',
      jsonb_build_object('processDefName', ${HISTORY_ROOT_TYPE}::text), 'COMPLETED', md5('r' || g)::uuid::text, md5('log' || g)::uuid, md5('ev' || g)::uuid
    from generate_series(${from}::int, ${to}::int) g where g % 10 = 0`);
  rows += Math.floor(to / 10) - Math.floor((from - 1) / 10);
  await count(sql`
    insert into fw_process_work_item (id, idempotency_key, process_id, process_type, worker_type, tenant, payload, status, attempts, max_attempts, run_at, created_at, updated_at, finished_at, failure_reported_at, last_error)
    select fw_work_item_id(p.id, k.key), k.key, p.id, p.process_type,
      case when p.leaf then 'EXECUTOR' else 'AGGREGATOR' end, p.tenant, jsonb_build_object('processId', p.id, 'processType', p.process_type),
      case when p.state_id = 'PROCESSED_WITH_ERRORS' and p.leaf then 'DEAD' else 'SUCCESS' end, 1, 5, p.created_time, p.created_time, p.last_modified_time, p.last_modified_time,
      case when p.state_id = 'PROCESSED_WITH_ERRORS' and p.leaf then p.last_modified_time end, case when p.state_id = 'PROCESSED_WITH_ERRORS' and p.leaf then 'connection reset by peer' end
    from fw_process p, lateral (select p.id::text || ':' || p.process_type || ':' || case when p.leaf then 'EXECUTOR' else 'AGGREGATOR' end as key) k
    where (p.id in (select md5('r' || g)::uuid from generate_series(${from}::int, ${to}::int) g) or p.parent_id in (select md5('r' || g)::uuid from generate_series(${from}::int, ${to}::int) g))
      and (p.last_modified_time > now() - interval '7 days' or (p.state_id = 'PROCESSED_WITH_ERRORS' and p.leaf))`);
  return rows;
}

/** Seeds `processes` finished processes (rounded down to whole trees), printing progress; then VACUUM ANALYZE. */
export async function seedHistory(database: Database, processes: number, io: BenchIo): Promise<SeededHistory> {
  const db = database.db as Kysely<unknown>;
  const roots = Math.max(1, Math.floor(processes / TREE_SIZE));
  const started = performance.now();
  let rows = 0;
  for (let from = 1; from <= roots; from += CHUNK_ROOTS) {
    const to = Math.min(roots, from + CHUNK_ROOTS - 1);
    rows += await seedChunk(db, from, to, roots);
    const seconds = (performance.now() - started) / 1000;
    if (to === roots || Math.floor(from / CHUNK_ROOTS) % 8 === 0)
      io.out(
        `  seeded ${(to * TREE_SIZE).toLocaleString('en')} processes, ${rows.toLocaleString('en')} rows in ${seconds.toFixed(0)} s (${(rows / seconds).toFixed(0)} rows/s)`,
      );
  }
  // What autovacuum would do in time: statistics for the planner, the visibility map for index-only scans.
  const vacuumStarted = performance.now();
  for (const table of [
    'fw_process',
    'fw_process_completion_event',
    'fw_process_child_report',
    'fw_process_error',
    'fw_process_work_item',
    'fw_trigger_execution',
    'fw_trigger_log',
  ]) {
    await sql`vacuum analyze ${sql.table(table)}`.execute(db);
  }
  io.out(`  vacuum analyze of the history tables: ${((performance.now() - vacuumStarted) / 1000).toFixed(1)} s`);
  return { processes: roots * TREE_SIZE, roots, rows, seconds: (performance.now() - started) / 1000 };
}
