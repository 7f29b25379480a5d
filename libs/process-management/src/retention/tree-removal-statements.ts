/**
 * The SQL that removes whole finished process trees, owned here with the retention that uses it.
 * A tree is walked from its roots through the parent index; every table holding rows of the run
 * is reached through an index it has anyway (see migrations/0012_history_retention.sql), and
 * everything goes in ONE statement, so a tree is removed completely or not at all.
 *
 * @example
 * await db.transaction().execute(async (trx) => {
 *   const locked = await lockFinishedRoots(trx, ids);
 *   const { removed, roots } = await removeIdleTrees(trx, locked);   // busy trees stay whole
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
  return {
    processes: 0,
    completionEvents: 0,
    childReports: 0,
    errors: 0,
    workItems: 0,
    triggerExecutions: 0,
    triggerLogs: 0,
  };
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

/** `tree(root_id, id, process_type, leaf, state_id)`: every process of the trees of `roots`, for a `with recursive`. */
function treeOf(roots: readonly string[]): RawBuilder<unknown> {
  return sql`tree(root_id, id, process_type, leaf, state_id) as (
      select p.id, p.id, p.process_type, p.leaf, p.state_id from fw_process p where p.id in ${idSet(roots)}
      union all
      select t.root_id, c.id, c.process_type, c.leaf, c.state_id from fw_process c join tree t on c.parent_id = t.id)`;
}

/**
 * The work-item keys a process of `alias` can have ('<id>:<type>:<worker type>'): a leaf runs an
 * EXECUTOR, any other process a SPLITTER and an AGGREGATOR.
 */
function workItemKeys(alias: string): RawBuilder<unknown> {
  const t = sql.ref(alias);
  return sql`case when ${t}.leaf then array[${t}.id::text || ':' || ${t}.process_type || ':EXECUTOR']
    else array[${t}.id::text || ':' || ${t}.process_type || ':SPLITTER', ${t}.id::text || ':' || ${t}.process_type || ':AGGREGATOR'] end`;
}

/**
 * The ids those work items have: `fw_work_item_id(process id, key)` (the starter's migration
 * 0025), looked up through the primary key.
 */
function workItemIds(alias: string): RawBuilder<unknown> {
  return sql`array(select fw_work_item_id(${sql.ref(alias)}.id, k) from unnest(${workItemKeys(alias)}) as k)`;
}

/**
 * `w` is a work item written before ids were derived from keys: found by its key through the
 * partial unique index that holds only those rows.
 */
const earlierReleaseItem = sql`not fw_work_item_id_is_derived(w.id)`;

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
 * Removes the trees of `roots` (locked finished roots) whose run is over, in ONE statement that
 * walks each tree once: a tree with a process in a non-terminal state, a work item still PENDING
 * or RUNNING, or an outbox command of its root still to run (its successors are started by it) is
 * left whole. Of the others go the trigger execution that created the root and its log row, work
 * items, completion events, child reports, errors, then the processes.
 */
export async function removeIdleTrees(
  db: Kysely<unknown>,
  roots: readonly string[],
): Promise<{ removed: RemovedRows; roots: number }> {
  if (roots.length === 0) return { removed: noRowsRemoved(), roots: 0 };
  const rows = await sql<Record<string, string>>`
    with recursive ${treeOf(roots)},
    busy as (
      select t.root_id from tree t where t.state_id not in (${terminal})
      union
      select t.root_id from tree t where exists (
        select 1 from fw_process_work_item w where w.id = any(${workItemIds('t')}) and w.status in ('PENDING', 'RUNNING'))
      union
      select t.root_id from tree t where exists (
        select 1 from fw_process_work_item w
         where w.idempotency_key = any(${workItemKeys('t')}) and ${earlierReleaseItem} and w.status in ('PENDING', 'RUNNING'))
      union
      select o.process_id from fw_process_outbox o where o.process_id in ${idSet(roots)} and o.status in ('PENDING', 'RUNNING')),
    gone as (select * from tree where root_id not in (select root_id from busy)),
    ex as (delete from fw_trigger_execution e using fw_process r
           where r.id in (select g.id from gone g where g.id = g.root_id) and e.trigger_id = r.trigger_id and e.process_id = r.id::text returning e.log_id),
    lg as (delete from fw_trigger_log l where l.log_id in (select log_id from ex) returning 1),
    wi as (delete from fw_process_work_item w where w.id in (select unnest(${workItemIds('g')}) from gone g) returning 1),
    wl as (delete from fw_process_work_item w
           where w.idempotency_key in (select unnest(${workItemKeys('g')}) from gone g) and ${earlierReleaseItem} returning 1),
    ce as (delete from fw_process_completion_event where process_id in (select id from gone) returning 1),
    cr as (delete from fw_process_child_report where child_id in (select id from gone) returning 1),
    er as (delete from fw_process_error where owner_id in (select id from gone) returning 1),
    pr as (delete from fw_process where id in (select id from gone) returning 1)
    select (select count(*) from pr) as processes, (select count(*) from ce) as completion_events,
      (select count(*) from cr) as child_reports, (select count(*) from er) as errors, (select count(*) from wi) + (select count(*) from wl) as work_items,
      (select count(*) from ex) as trigger_executions, (select count(*) from lg) as trigger_logs,
      (select count(*) from gone where id = root_id) as roots`.execute(db);
  const r = rows.rows[0];
  return {
    roots: Number(r.roots),
    removed: {
      processes: Number(r.processes),
      completionEvents: Number(r.completion_events),
      childReports: Number(r.child_reports),
      errors: Number(r.errors),
      workItems: Number(r.work_items),
      triggerExecutions: Number(r.trigger_executions),
      triggerLogs: Number(r.trigger_logs),
    },
  };
}
