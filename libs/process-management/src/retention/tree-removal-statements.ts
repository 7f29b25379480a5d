/**
 * The SQL that removes whole finished process trees, owned here with the retention that uses it.
 * A tree is walked from its roots through the parent index; every table holding rows of the run
 * is reached through an index it has anyway (see migrations/0012_history_retention.sql), and
 * everything goes in ONE statement, so a tree is removed completely or not at all.
 *
 * @example
 * await db.transaction().execute(async (trx) => {
 *   const locked = await lockFinishedRoots(trx, ids);
 *   const busy = await busyRoots(trx, locked);
 *   const removed = await removeTrees(trx, locked.filter((id) => !busy.has(id)));
 * });
 */
import { TERMINAL_STATES } from '@fw/process-api';
import { sql, type Kysely, type RawBuilder } from 'kysely';

/** Rows removed, per table. */
export interface RemovedRows {
  processes: number;
  completionEvents: number;
  childReports: number;
  errors: number;
  workItems: number;
  triggerExecutions: number;
  triggerLogs: number;
}

/** The sum of the rows of `removed` (for rates). */
export function totalRows(removed: RemovedRows): number {
  return Object.values(removed).reduce((sum, n) => sum + n, 0);
}

/** Zero rows of every table. */
export function noRowsRemoved(): RemovedRows {
  return { processes: 0, completionEvents: 0, childReports: 0, errors: 0, workItems: 0, triggerExecutions: 0, triggerLogs: 0 };
}

/** Adds `more` to `into`. */
export function addRemoved(into: RemovedRows, more: RemovedRows): void {
  for (const key of Object.keys(into) as Array<keyof RemovedRows>) into[key] += more[key];
}

const terminal = sql.join(TERMINAL_STATES.map((s) => sql.lit(s)));

/** The ids as a set of uuids (one JSON parameter: the same on PostgreSQL and PGlite, whatever the count). */
function idSet(ids: readonly string[]): RawBuilder<unknown> {
  return sql`(select x::uuid from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) as x)`;
}

/** `tree(root_id, id, process_type, state_id)`: every process of the trees of `roots`, for a `with recursive`. */
function treeOf(roots: readonly string[]): RawBuilder<unknown> {
  return sql`tree(root_id, id, process_type, state_id) as (
      select p.id, p.id, p.process_type, p.state_id from fw_process p where p.id in ${idSet(roots)}
      union all
      select t.root_id, c.id, c.process_type, c.state_id from fw_process c join tree t on c.parent_id = t.id)`;
}

/** The three work-item keys a process can have ('<id>:<type>:<worker type>'). */
const workItemKeys = sql`t.id::text || ':' || t.process_type || ':' || k.worker_type
  from tree t cross join (values ('SPLITTER'), ('EXECUTOR'), ('AGGREGATOR')) as k(worker_type)`;

/**
 * Locks the roots among `ids` that are finished roots, skipping any another transaction holds
 * (a worker, a retry, the other sweeper): the sweep never waits for a lock, it comes back later.
 */
export async function lockFinishedRoots(db: Kysely<unknown>, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await sql<{ id: string }>`
    select id from fw_process where id in ${idSet(ids)} and parent_id is null and state_id in (${terminal})
    order by id for update skip locked`.execute(db);
  return rows.rows.map((r) => r.id);
}

/**
 * Roots among `roots` whose run is not over: a process of the tree in a non-terminal state, a work
 * item still PENDING or RUNNING, or an outbox command of the root still to run (its successors
 * are started by it).
 */
export async function busyRoots(db: Kysely<unknown>, roots: readonly string[]): Promise<Set<string>> {
  if (roots.length === 0) return new Set();
  const rows = await sql<{ root_id: string }>`
    with recursive ${treeOf(roots)}
    select t.root_id from tree t where t.state_id not in (${terminal})
    union
    select t.root_id from tree t join fw_process_work_item w on w.idempotency_key in (
        t.id::text || ':' || t.process_type || ':SPLITTER', t.id::text || ':' || t.process_type || ':EXECUTOR', t.id::text || ':' || t.process_type || ':AGGREGATOR')
      where w.status in ('PENDING', 'RUNNING')
    union
    select o.process_id from fw_process_outbox o where o.process_id in ${idSet(roots)} and o.status in ('PENDING', 'RUNNING')`.execute(db);
  return new Set(rows.rows.map((r) => r.root_id));
}

/**
 * Removes the trees of `roots` (already locked and checked) in one statement: trigger executions
 * and their log rows of the run (the execution that created the root), work items, completion
 * events, child reports, errors, then the processes.
 */
export async function removeTrees(db: Kysely<unknown>, roots: readonly string[]): Promise<RemovedRows> {
  if (roots.length === 0) return noRowsRemoved();
  const rows = await sql<Record<string, string>>`
    with recursive ${treeOf(roots)},
    ex as (delete from fw_trigger_execution e using fw_process r
           where r.id in ${idSet(roots)} and e.trigger_id = r.trigger_id and e.process_id = r.id::text returning e.log_id),
    lg as (delete from fw_trigger_log l where l.log_id in (select log_id from ex) returning 1),
    wi as (delete from fw_process_work_item w where w.idempotency_key in (select ${workItemKeys}) returning 1),
    ce as (delete from fw_process_completion_event where process_id in (select id from tree) returning 1),
    cr as (delete from fw_process_child_report where child_id in (select id from tree) returning 1),
    er as (delete from fw_process_error where owner_id in (select id from tree) returning 1),
    pr as (delete from fw_process where id in (select id from tree) returning 1)
    select (select count(*) from pr) as processes, (select count(*) from ce) as completion_events,
      (select count(*) from cr) as child_reports, (select count(*) from er) as errors, (select count(*) from wi) as work_items,
      (select count(*) from ex) as trigger_executions, (select count(*) from lg) as trigger_logs`.execute(db);
  const r = rows.rows[0];
  return {
    processes: Number(r.processes),
    completionEvents: Number(r.completion_events),
    childReports: Number(r.child_reports),
    errors: Number(r.errors),
    workItems: Number(r.work_items),
    triggerExecutions: Number(r.trigger_executions),
    triggerLogs: Number(r.trigger_logs),
  };
}
