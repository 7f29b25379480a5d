/**
 * Reads along the parent/child links: a process with its descendants and the parents of given
 * processes (the results an aggregator collects: `child-result-reader`). Tree reads are the
 * administration's and never lock; the event paths read single rows through the batch repository.
 */
import type { Process, ProcessErrorRecord } from '@fw/process-api';
import { sql, type Selectable } from 'kysely';
import type { FwProcessTable, ProcessDb } from './process-tables';
import { toErrorRecord, toProcess } from './process-row-mapper';

/** The process followed by its children (all descendants when `recursive`), or undefined. */
export async function findWithChildren(db: ProcessDb, id: string, recursive: boolean): Promise<Process[] | undefined> {
  const root = await db.selectFrom('fw_process').selectAll().where('id', '=', id).executeTakeFirst();
  if (!root) return undefined;
  let rows: Selectable<FwProcessTable>[];
  if (recursive) {
    const result = await sql<Selectable<FwProcessTable> & { depth: number }>`
      with recursive tree as (
        select p.*, 1 as depth from fw_process p where p.parent_id = ${id}
        union all
        select c.*, t.depth + 1 from fw_process c join tree t on c.parent_id = t.id
      )
      select * from tree order by depth, seq`.execute(db);
    rows = result.rows;
  } else {
    rows = await db.selectFrom('fw_process').selectAll().where('parent_id', '=', id).orderBy('seq').execute();
  }
  const all = [root, ...rows];
  const errors = await errorsByOwner(
    db,
    all.map((r) => r.id),
  );
  return all.map((r) => {
    const { depth: _depth, ...row } = r as Selectable<FwProcessTable> & { depth?: number };
    return toProcess(row, errors.get(row.id) ?? []);
  });
}

/** Parent ids of existing processes among `ids`. */
export async function findParents(db: ProcessDb, ids: readonly string[]): Promise<Map<string, string | null>> {
  const result = new Map<string, string | null>();
  if (ids.length === 0) return result;
  const rows = await db
    .selectFrom('fw_process')
    .select(['id', 'parent_id'])
    .where(sql<boolean>`id = any(${[...ids]}::uuid[])`)
    .execute();
  for (const r of rows) result.set(r.id, r.parent_id);
  return result;
}

async function errorsByOwner(db: ProcessDb, ids: readonly string[]): Promise<Map<string, ProcessErrorRecord[]>> {
  const result = new Map<string, ProcessErrorRecord[]>();
  if (ids.length === 0) return result;
  const rows = await db
    .selectFrom('fw_process_error')
    .selectAll()
    .where(sql<boolean>`owner_id = any(${[...ids]}::uuid[])`)
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = result.get(row.owner_id) ?? [];
    list.push(toErrorRecord(row));
    result.set(row.owner_id, list);
  }
  return result;
}
