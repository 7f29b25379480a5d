/**
 * Reads along the parent/child links: a process with its descendants, the results an aggregator
 * collects and the parents of given processes. Tree reads are the administration's and the
 * aggregators' and never lock; the event paths read single rows through the batch repository.
 */
import type { Process, ProcessErrorRecord, SubProcessResult } from '@fw/process-api';
import { ProcessStates, TERMINAL_STATES } from '@fw/process-api';
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

/**
 * The terminal direct children of `parentId` as results: columns named as a {@link SubProcessResult}'s
 * fields and `successful` computed by the statement, so the driver's rows are the results.
 */
function terminalChildResults(db: ProcessDb, parentId: string) {
  return db
    .selectFrom('fw_process')
    .select([
      'id as processId',
      'process_type as processType',
      'state_id as stateId',
      sql<boolean>`state_id = ${ProcessStates.PROCESSED}`.as('successful'),
      'output',
    ])
    .where('parent_id', '=', parentId)
    .where('state_id', 'in', TERMINAL_STATES);
}

/** One page of {@link childResultPage}: the results, and where the next page starts (undefined: none). */
export interface ChildResultPage {
  results: SubProcessResult[];
  /** The id of the page's last child: the next page is of the children created after it. */
  nextAfterId: string | undefined;
}

/**
 * The results of the terminal direct children of `parentId` in creation order, `limit` children
 * at a time from after the child `afterId` (keyset over the parent index, so every page costs the
 * same whatever its position; the position `seq` of that child is looked up by its primary key
 * rather than carried in every row, a field less for node to parse per child; that child is there
 * while its parent's results are read, since trees are only removed whole and finished).
 *
 * The children come as plain rows: PostgreSQL only reads the index and writes each column out
 * instead of building each page as one JSON document (`json_build_array` per row and an ordered
 * `json_agg`, about 2 µs a child: 2.9 s of the aggregator's 3.7 s at a million children); node's
 * parsing of the rows is now the larger part of the read. Each row already has the shape of a
 * result (named columns, `successful` computed, children not yet finished left out by the
 * statement), so the driver's row objects are handed on without a copy.
 *
 * Each page is read with the planner held to the ordered scan of `fw_process_parent_id_idx`
 * ({@link readInIndexOrder}). Right after a split of a million children the table's statistics
 * still say the parent has a few hundred, and the planner then reads every remaining child of the
 * parent through a bitmap and sorts them to keep the first page: each page costs what is left,
 * the whole read grows with the square of the children (an aggregation of 1,000,000 children took
 * 43 s instead of under 1).
 */
export async function childResultPage(
  db: ProcessDb,
  parentId: string,
  page: { afterId?: string; limit: number },
): Promise<ChildResultPage> {
  const { afterId } = page;
  const read = (reader: ProcessDb) =>
    terminalChildResults(reader, parentId)
      .$if(afterId !== undefined, (q) =>
        q.where('seq', '>', (eb) =>
          eb
            .selectFrom('fw_process as after')
            .select('after.seq')
            .where('after.id', '=', afterId as string),
        ),
      )
      .orderBy('seq')
      .limit(page.limit)
      .execute();
  const results: SubProcessResult[] = await readInIndexOrder(db, read);
  return { results, nextAfterId: results.length === page.limit ? results[results.length - 1].processId : undefined };
}

/**
 * Every page of the child results of `parentId`, `limit` at a time, from the first: the next page
 * is asked for as soon as this one has come, so PostgreSQL reads it while the caller folds this
 * one (two pages in memory at most; an aggregation of a million children reads 200 pages at its
 * end, when nothing else of the run is left to do). A caller that stops early lets the read in
 * flight finish, so its connection is back in the pool.
 */
export async function* readAheadChildResultPages(
  db: ProcessDb,
  parentId: string,
  limit: number,
): AsyncGenerator<SubProcessResult[]> {
  const read = (afterId: string | undefined) => childResultPage(db, parentId, { afterId, limit });
  let next: Promise<ChildResultPage> | undefined = read(undefined);
  try {
    while (next !== undefined) {
      const page: ChildResultPage = await next;
      next = page.nextAfterId === undefined ? undefined : read(page.nextAfterId);
      if (page.results.length > 0) yield page.results;
    }
  } finally {
    await next?.catch(() => undefined);
  }
}

/** Holds the planner of the current transaction to index scans (`set_config(…, true)`: until it ends). */
const holdToIndexScans = (tx: ProcessDb) =>
  sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`.execute(tx);

/**
 * Runs `read` with the planner taking no bitmap or sequential scans: what is left for a
 * `where parent_id = … and seq > … order by seq limit n` is the index scan that stops after n
 * rows, whatever the statistics say. Outside a transaction `read` runs in one of its own (the
 * settings end with it, so a pooled connection keeps nothing). Inside the caller's, the settings
 * hold for `read` and are then set back to what they were for the rest of that transaction: an
 * aggregator's launch reads its first page there, in the transaction that applies the last
 * child's report, and with the bitmap plan that read alone took 0.7 s at a million children (the
 * last batch of leaves waited for it).
 */
async function readInIndexOrder<T>(db: ProcessDb, read: (tx: ProcessDb) => Promise<T>): Promise<T> {
  if (!db.isTransaction)
    return db.transaction().execute(async (tx) => {
      await holdToIndexScans(tx);
      return read(tx);
    });
  const { rows } = await sql<{
    bitmap: string;
    seq: string;
  }>`select current_setting('enable_bitmapscan') as bitmap, current_setting('enable_seqscan') as seq`.execute(db);
  await holdToIndexScans(db);
  // Not in a finally: after a failed statement the transaction takes no more, and ends anyway.
  const result = await read(db);
  await sql`select set_config('enable_bitmapscan', ${rows[0].bitmap}, true), set_config('enable_seqscan', ${rows[0].seq}, true)`.execute(
    db,
  );
  return result;
}

/** Results of the terminal direct children of `parentId`, in creation order. */
export async function childResults(db: ProcessDb, parentId: string): Promise<SubProcessResult[]> {
  return terminalChildResults(db, parentId).orderBy('seq').execute();
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
