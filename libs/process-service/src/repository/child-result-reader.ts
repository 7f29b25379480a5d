/**
 * The results an aggregator collects: the terminal direct children of a parent, in creation order,
 * read a page at a time. A page comes from PostgreSQL as one row of a few long texts (one per
 * field of a result) that node splits and parses in bulk, and pages are read two at a time on
 * separate connections while the caller folds the one before.
 */
import type { SubProcessResult } from '@fw/process-api';
import { ProcessStates, TERMINAL_STATES } from '@fw/process-api';
import { sql } from 'kysely';
import type { ProcessDb } from './process-tables';

/**
 * Between the process types of a page: U+001F (unit separator), a control character, which a
 * process definition's type may not hold. Cheaper for PostgreSQL than writing each type as JSON
 * (`to_json`: a fifth of the page's statement).
 */
const TYPE_SEPARATOR = '\x1f';

/** Read once: a name imported from another package is a property read through a getter in CommonJS. */
const PROCESSED = ProcessStates.PROCESSED;

/** Where a page's children lie in creation order: `seq` after `afterSeq`, up to `throughSeq`, at most `limit`. */
interface ChildSeqRange {
  afterSeq?: string;
  throughSeq?: string;
  limit?: number;
}

/** A page as PostgreSQL sends it: the children's fields, each aggregated into one text. */
interface ChildResultColumns {
  count: number;
  /** The last child's `seq` (the next page starts after it). */
  lastSeq: string | null;
  /** Process ids, comma-separated (a uuid's text has no comma). */
  ids: string | null;
  /** Process types, separated by {@link TYPE_SEPARATOR} (a character no process type holds). */
  types: string | null;
  /** State ids, comma-separated (PROCESSED or PROCESSED_WITH_ERRORS only). */
  states: string | null;
  /** Outputs as a JSON array (each `jsonb` written as its JSON text, SQL NULL as `null`). */
  outputs: string | null;
}

/**
 * One statement for the terminal children of `parentId` in `range`, answered as one row of
 * {@link ChildResultColumns}.
 *
 * Why one row and not a row per child: node's driver builds every field of every row through a
 * call into the runtime (`Buffer#toString`) and an object per row; a million children cost ~1 µs
 * each to receive that way, more than everything else of an aggregation. Split and parsed in bulk
 * (`String#split`, `JSON.parse`), the same page costs node about a third of that. PostgreSQL's
 * share grows instead (writing the texts) and is spread over two connections by
 * {@link readAheadChildResultPages}.
 *
 * The aggregates take no ORDER BY of their own: they all read the rows of the one subquery, in the
 * order it returns them (by `seq`), one row at a time, so the n-th entry of every text is the same
 * child's. An ORDER BY per aggregate would sort the page once per aggregate.
 */
function childResultColumns(db: ProcessDb, parentId: string, range: ChildSeqRange): Promise<ChildResultColumns> {
  const { afterSeq, throughSeq, limit } = range;
  const children = db
    .selectFrom('fw_process')
    .select(['id', 'process_type', 'state_id', 'output', 'seq'])
    .where('parent_id', '=', parentId)
    .where('state_id', 'in', TERMINAL_STATES)
    .$if(afterSeq !== undefined, (q) => q.where('seq', '>', afterSeq as string))
    .$if(throughSeq !== undefined, (q) => q.where('seq', '<=', throughSeq as string))
    .orderBy('seq')
    .$if(limit !== undefined, (q) => q.limit(limit as number));
  return db
    .selectFrom(children.as('c'))
    .select([
      sql<number>`count(*)::int`.as('count'),
      sql<string | null>`max(c.seq)::text`.as('lastSeq'),
      sql<string | null>`string_agg(c.id::text, ',')`.as('ids'),
      sql<string | null>`string_agg(c.process_type, ${TYPE_SEPARATOR})`.as('types'),
      sql<string | null>`string_agg(c.state_id, ',')`.as('states'),
      sql<string | null>`'[' || string_agg(coalesce(c.output::text, 'null'), ',') || ']'`.as('outputs'),
    ])
    .executeTakeFirstOrThrow();
}

/** The results of a {@link ChildResultColumns} row, in the order of its texts. */
function resultsOf(columns: ChildResultColumns): SubProcessResult[] {
  const { count } = columns;
  if (count === 0) return [];
  const ids = (columns.ids as string).split(',');
  const states = (columns.states as string).split(',');
  const types = (columns.types as string).split(TYPE_SEPARATOR);
  if (types.length !== count)
    throw new Error(
      `a child among processes ${ids[0]} … ${ids[count - 1]} has a process type holding the control character U+001F, which no process definition may hold`,
    );
  const outputs = JSON.parse(columns.outputs as string) as unknown[];
  const results = new Array<SubProcessResult>(count);
  for (let i = 0; i < count; i++) {
    const stateId = states[i];
    results[i] = {
      processId: ids[i],
      processType: types[i],
      stateId,
      successful: stateId === PROCESSED,
      output: outputs[i],
    };
  }
  return results;
}

/** One page of {@link childResultPage}: the results, and where the next page starts (undefined: none). */
export interface ChildResultPage {
  results: SubProcessResult[];
  /** The `seq` of the page's last child when the page is full: the next page is of the children after it. */
  nextAfterSeq: string | undefined;
}

/**
 * The first `limit` results of the terminal direct children of `parentId` (creation order), read
 * with the planner held to the parent index ({@link readInIndexOrder}); `db` may be the caller's
 * transaction: an aggregator's launch reads here whether its children's results fit its message.
 */
export async function childResultPage(db: ProcessDb, parentId: string, limit: number): Promise<ChildResultPage> {
  const columns = await readInIndexOrder(db, (reader) => childResultColumns(reader, parentId, { limit }));
  return {
    results: resultsOf(columns),
    nextAfterSeq: columns.count === limit ? (columns.lastSeq as string) : undefined,
  };
}

/** Results of the terminal direct children of `parentId`, in creation order. */
export async function childResults(db: ProcessDb, parentId: string): Promise<SubProcessResult[]> {
  return resultsOf(await childResultColumns(db, parentId, {}));
}

/** Pages read ahead of the one the caller folds, each on a connection of its own. */
const PAGES_IN_FLIGHT = 2;

/** Page bounds found per statement by {@link pageRangesOf}. */
const BOUNDS_PER_READ = 16;

/**
 * The `seq` of every `pageSize`-th child of `parentId` after `afterSeq` (all children, finished or
 * not, so no page holds more than `pageSize`), for the next `pages` pages at most: each bound found
 * from the one before by skipping `pageSize` entries of the parent index (`seq` is an identity
 * from 1, so the first page starts after 0).
 */
async function pageBounds(
  db: ProcessDb,
  parentId: string,
  afterSeq: string | undefined,
  pageSize: number,
  pages: number,
): Promise<string[]> {
  const { rows } = await readInIndexOrder(db, (reader) =>
    sql<{ seq: string }>`
      with recursive bound (seq, n) as (
        select ${afterSeq ?? '0'}::bigint, 0
        union all
        select (select c.seq from fw_process c
                where c.parent_id = ${parentId} and c.seq > bound.seq
                order by c.seq offset ${pageSize - 1} limit 1),
               bound.n + 1
        from bound
        where bound.n < ${pages} and bound.seq is not null
      )
      select seq::text as seq from bound where n > 0 and seq is not null order by n`.execute(reader),
  );
  return rows.map((r) => r.seq);
}

/**
 * The ranges of `seq` of the pages of `parentId`'s children: each bounded on both sides but the
 * last, which holds the children after the last bound (fewer than `pageSize` when the bounds were
 * read; more only if children were created since, which never happens to an aggregator, whose
 * children have all finished). The bounds are read {@link BOUNDS_PER_READ} at a time, the next
 * ones while the pages of these are read.
 */
async function* pageRangesOf(db: ProcessDb, parentId: string, pageSize: number): AsyncGenerator<ChildSeqRange> {
  const boundsAfter = (afterSeq: string | undefined) => {
    const read = pageBounds(db, parentId, afterSeq, pageSize, BOUNDS_PER_READ);
    // Awaited in turn below (or when the caller stops); until then a failure is not unhandled.
    read.catch(() => undefined);
    return read;
  };
  let next = boundsAfter(undefined);
  try {
    let afterSeq: string | undefined;
    for (;;) {
      const bounds = await next;
      const more = bounds.length === BOUNDS_PER_READ;
      if (more) next = boundsAfter(bounds[bounds.length - 1]);
      for (const throughSeq of bounds) {
        yield { afterSeq, throughSeq };
        afterSeq = throughSeq;
      }
      if (!more) {
        yield { afterSeq };
        return;
      }
    }
  } finally {
    await next.catch(() => undefined);
  }
}

/**
 * Every page of the child results of `parentId`, up to `pageSize` results each, from the first:
 * {@link PAGES_IN_FLIGHT} pages are being read while the caller folds the one before, so
 * PostgreSQL writes pages on two connections while node parses (three pages in memory at most; an
 * aggregation of a million children reads 200 pages at its end, when nothing else of the run is
 * left to do). Pages without a finished child are skipped. A caller that stops early lets the reads
 * in flight finish, so their connections are back in the pool.
 */
export async function* readAheadChildResultPages(
  db: ProcessDb,
  parentId: string,
  pageSize: number,
): AsyncGenerator<SubProcessResult[]> {
  const ranges = pageRangesOf(db, parentId, pageSize);
  const inFlight: Promise<SubProcessResult[]>[] = [];
  const readMore = async () => {
    while (inFlight.length < PAGES_IN_FLIGHT) {
      const range = await ranges.next();
      if (range.done) return;
      // Held to the index even though bounded: with the statistics of right after a split, the
      // planner takes a bitmap and a sort for a page, 60 % more work than the ordered index scan.
      const page = readInIndexOrder(db, (reader) => childResultColumns(reader, parentId, range.value)).then(resultsOf);
      // Awaited in turn below; until then a failure is not unhandled.
      page.catch(() => undefined);
      inFlight.push(page);
    }
  };
  try {
    await readMore();
    for (let page = inFlight.shift(); page !== undefined; page = inFlight.shift()) {
      const results = await page;
      await readMore();
      if (results.length > 0) yield results;
    }
  } finally {
    await Promise.allSettled(inFlight);
    await ranges.return(undefined);
  }
}

/** Holds the planner of the current transaction to index scans (`set_config(…, true)`: until it ends). */
const holdToIndexScans = (tx: ProcessDb) =>
  sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`.execute(tx);

/**
 * Runs `read` with the planner taking no bitmap or sequential scans: what is left for a
 * `where parent_id = … and seq > … order by seq limit n` is the index scan that stops after n
 * rows, whatever the statistics say. Right after a split of a million children the statistics
 * still say the parent has a few hundred, and the planner then reads every remaining child of the
 * parent through a bitmap and sorts them to keep the first n: each read costs what is left, and a
 * whole aggregation grows with the square of the children (1,000,000 children took 43 s instead
 * of under 1).
 *
 * Outside a transaction `read` runs in one of its own (the settings end with it, so a pooled
 * connection keeps nothing). Inside the caller's, the settings hold for `read` and are then set
 * back to what they were for the rest of that transaction: an aggregator's launch reads its first
 * page there, in the transaction that applies the last child's report, and with the bitmap plan
 * that read alone took 0.7 s at a million children (the last batch of leaves waited for it).
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
