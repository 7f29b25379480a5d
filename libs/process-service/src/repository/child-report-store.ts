/**
 * The child report rows: one per finished child, keyed by the child, so a second report of the
 * same child (a retried command, an HTTP caller after the engine) conflicts and counts nothing.
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
