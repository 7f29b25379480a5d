/**
 * What records that a child was counted on its parent, so that no child is counted twice:
 *
 * - a report row, one per child, keyed by the child, for the reports that can arrive more than
 *   once (an outbox CHILD_COMPLETED command, an HTTP caller): a second report conflicts and counts
 *   nothing;
 * - or the child's own `counted_inline` mark, set by the update that writes its terminal state
 *   when the engine counts it in that same transaction (no row to write: a fan-out's leaf saves
 *   one row and one index entry).
 *
 * A child has one or the other, never both (see `ChildReportCounter`).
 */
import { jsonRecordset } from '@fw/core';
import { sql } from 'kysely';
import type { ProcessDb } from './process-tables';

/** One finished child's report on its parent. */
export interface ChildReport {
  childId: string;
  parentId: string;
  successful: boolean;
  time: Date;
}

/** `true` when the report is new (the child is counted now), `false` for a repeated report. */
export async function insertChildReport(db: ProcessDb, report: ChildReport): Promise<boolean> {
  const rows = await db
    .insertInto('fw_process_child_report')
    .values({
      child_id: report.childId,
      parent_id: report.parentId,
      successful: report.successful,
      reported_time: report.time,
    })
    .onConflict((oc) => oc.column('child_id').doNothing())
    .returning('child_id')
    .execute();
  return rows.length === 1;
}

/** Inserts many reports in one statement; returns the child ids whose report is new (counted now). */
export async function insertChildReports(db: ProcessDb, reports: readonly ChildReport[]): Promise<Set<string>> {
  const fresh = new Set<string>();
  if (reports.length === 0) return fresh;
  const rows = reports.map((r) => ({
    child_id: r.childId,
    parent_id: r.parentId,
    successful: r.successful,
    reported_time: r.time,
  }));
  const { rows: freshRows } = await sql<{ child_id: string }>`
    insert into fw_process_child_report (child_id, parent_id, successful, reported_time)
    select child_id, parent_id, successful, reported_time
      from ${jsonRecordset(rows, { child_id: 'uuid', parent_id: 'uuid', successful: 'boolean', reported_time: 'timestamptz' })}
    on conflict (child_id) do nothing
    returning child_id`.execute(db);
  for (const r of freshRows) fresh.add(r.child_id);
  return fresh;
}

/** Deletes the reports of these children (reports inserted in the same transaction and then not counted). */
export async function deleteChildReports(db: ProcessDb, childIds: readonly string[]): Promise<void> {
  if (childIds.length === 0) return;
  await db
    .deleteFrom('fw_process_child_report')
    .where('child_id', 'in', [...childIds])
    .execute();
}

/**
 * The children among `childIds` that have a committed report row (counted through a command or
 * an HTTP caller). An HTTP report still running is not seen here, and needs not be: it locks the
 * child first (`lockChildren`), so it either committed before the caller's save of the child, or
 * waits for the caller's commit and then finds the mark.
 */
export async function findReportedChildren(db: ProcessDb, childIds: readonly string[]): Promise<Set<string>> {
  const reported = new Set<string>();
  if (childIds.length === 0) return reported;
  const { rows } = await sql<{ child_id: string }>`
    select child_id from fw_process_child_report where child_id = any(${[...childIds]}::uuid[])`.execute(db);
  for (const r of rows) reported.add(r.child_id);
  return reported;
}

/** Clears the `counted_inline` mark of children whose inline count did not happen after all. */
export async function clearCountedInline(db: ProcessDb, childIds: readonly string[]): Promise<void> {
  if (childIds.length === 0) return;
  await sql`update fw_process set counted_inline = false where id = any(${[...childIds]}::uuid[])`.execute(db);
}

/** A child as an HTTP report sees it, locked. */
export interface LockedChild {
  parentId: string | null;
  countedInline: boolean;
}

/**
 * Locks the processes among `ids` (`for share`: the update that finishes one waits, and a
 * finishing update in progress is waited for) and returns their parent and `counted_inline` mark.
 * Missing ids are absent.
 */
export async function lockChildren(db: ProcessDb, ids: readonly string[]): Promise<Map<string, LockedChild>> {
  const result = new Map<string, LockedChild>();
  if (ids.length === 0) return result;
  const { rows } = await sql<{ id: string; parent_id: string | null; counted_inline: boolean }>`
    select id, parent_id, counted_inline from fw_process
     where id = any(${[...ids]}::uuid[])
     order by id
       for share`.execute(db);
  for (const r of rows) result.set(r.id, { parentId: r.parent_id, countedInline: r.counted_inline });
  return result;
}
