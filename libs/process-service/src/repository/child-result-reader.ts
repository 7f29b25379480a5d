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

/** A range of `seq`: after `after`, through `through`. */
interface SeqRange {
  after: bigint;
  through: bigint;
}

/** Where a page's children lie in creation order: a range of `seq`, open on a side left out, and at most `limit` of them. */
type ChildSeqRange = Partial<SeqRange> & { limit?: number };

/** A page as PostgreSQL sends it: the children's fields, each aggregated into one text. */
interface ChildResultColumns {
  count: number;
  /** The last child's `seq` (the rest of a full page's range follows it). */
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
 * The terminal children of `parentId` in `range` as one row of {@link ChildResultColumns}, read by
 * `fw_child_result_page` (migration 0022: the statement, held to the parent index by the
 * function's planner settings, which end with the call).
 *
 * Why one row and not a row per child: node's driver builds every field of every row through a
 * call into the runtime (`Buffer#toString`) and an object per row; a million children cost ~1 µs
 * each to receive that way, more than everything else of an aggregation. Split and parsed in bulk
 * (`String#split`, `JSON.parse`), the same page costs node about a third of that. PostgreSQL's
 * share grows instead (writing the texts) and is spread over two connections by
 * {@link readAheadChildResultPages}.
 */
async function childResultColumns(db: ProcessDb, parentId: string, range: ChildSeqRange): Promise<ChildResultColumns> {
  const { rows } = await sql<ChildResultColumns>`
    select child_count as count, last_seq as "lastSeq", ids, types, states, outputs
    from fw_child_result_page(${parentId}::uuid, ${range.after?.toString() ?? '0'}::bigint, ${range.through?.toString() ?? null}::bigint,
                              ${range.limit ?? null}::integer, ${[...TERMINAL_STATES]}::text[], ${TYPE_SEPARATOR}::text)`.execute(
    db,
  );
  return rows[0];
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

/** One page of {@link childResultPage}: the results, and whether they are all of them. */
export interface ChildResultPage {
  results: SubProcessResult[];
  /** True when the page is not full: no finished child follows. */
  complete: boolean;
}

/**
 * The first `limit` results of the terminal direct children of `parentId` (creation order); `db`
 * may be the caller's transaction, whose planner settings stay as they were: an aggregator's launch
 * reads here, in the transaction that applies the last child's report, whether its children's
 * results fit its message.
 */
export async function childResultPage(db: ProcessDb, parentId: string, limit: number): Promise<ChildResultPage> {
  const columns = await childResultColumns(db, parentId, { limit });
  return {
    results: resultsOf(columns),
    complete: columns.count < limit,
  };
}

/** Results of the terminal direct children of `parentId`, in creation order. */
export async function childResults(db: ProcessDb, parentId: string): Promise<SubProcessResult[]> {
  return resultsOf(await childResultColumns(db, parentId, {}));
}

/** Pages read ahead of the one the caller folds, each on a connection of its own. */
const PAGES_IN_FLIGHT = 2;

/** How much wider than the last one a range of `seq` may grow after a page with few children. */
const MAX_WIDENING = 8;

/** The first and the last `seq` of the children of `parentId`, or undefined without children. */
async function childSeqSpan(db: ProcessDb, parentId: string): Promise<{ first: bigint; last: bigint } | undefined> {
  const { rows } = await sql<{ first: string | null; last: string | null }>`
    select first_seq::text as first, last_seq::text as last from fw_child_seq_span(${parentId}::uuid)`.execute(db);
  const { first, last } = rows[0];
  return first === null || last === null ? undefined : { first: BigInt(first), last: BigInt(last) };
}

/** A page being read: its range of `seq` and its statement. */
interface PageRead {
  range: SeqRange;
  columns: Promise<ChildResultColumns>;
}

/**
 * Cuts the `seq` span of a parent's children into the ranges of its pages. Children of one split
 * are mostly consecutive in `seq` (other processes created meanwhile take the numbers between), so
 * a range as wide as the page size holds about a page. After a page with few children the next
 * ranges are wider (at most {@link MAX_WIDENING} times the last), after a full one as wide as what
 * held it: the children of a parent that interleaves with others still come a page at a time.
 */
class ChildPageRanges {
  private after: bigint;
  private width: bigint;

  constructor(
    private readonly span: { first: bigint; last: bigint },
    private readonly pageSize: number,
  ) {
    this.after = span.first - 1n;
    this.width = BigInt(pageSize);
  }

  /** The next range, or undefined once the span is covered. */
  next(): SeqRange | undefined {
    if (this.after >= this.span.last) return undefined;
    const after = this.after;
    const through = after + this.width < this.span.last ? after + this.width : this.span.last;
    this.after = through;
    return { after, through };
  }

  /** Adapts the width of the ranges to come to what the page of `range` held. */
  observe({ after, through }: SeqRange, count: number, lastSeq: bigint | undefined): void {
    const size = BigInt(this.pageSize);
    if (count === this.pageSize && lastSeq !== undefined) {
      const held = lastSeq - after;
      this.width = held > size ? held : size;
      return;
    }
    const width = through - after;
    const wider = count === 0 ? width * BigInt(MAX_WIDENING) : (width * size) / BigInt(count);
    const most = width * BigInt(MAX_WIDENING);
    this.width = wider > most ? most : wider < size ? size : wider;
  }
}

/**
 * Every page of the child results of `parentId`, up to `pageSize` results each, in creation order:
 * the children that were there when the read began (all of an aggregator's, which have finished).
 * Pages are read by ranges of `seq` ({@link ChildPageRanges}), {@link PAGES_IN_FLIGHT} of them
 * while the caller folds the one before, so PostgreSQL writes pages on two connections while node
 * parses (three pages in memory at most; an aggregation of a million children reads 200 pages at
 * its end, when nothing else of the run is left to do). A range that held more than a page is
 * finished before the next one is handed on; pages without a finished child are skipped. A caller
 * that stops early lets the reads in flight finish, so their connections are back in the pool.
 */
export async function* readAheadChildResultPages(
  db: ProcessDb,
  parentId: string,
  pageSize: number,
): AsyncGenerator<SubProcessResult[]> {
  const span = await childSeqSpan(db, parentId);
  if (span === undefined) return;
  const ranges = new ChildPageRanges(span, pageSize);
  const read = (range: SeqRange): PageRead => {
    const columns = childResultColumns(db, parentId, { ...range, limit: pageSize });
    // Awaited in turn below; until then a failure is not unhandled.
    columns.catch(() => undefined);
    return { range, columns };
  };
  const inFlight: PageRead[] = [];
  const readMore = () => {
    while (inFlight.length < PAGES_IN_FLIGHT) {
      const range = ranges.next();
      if (range === undefined) return;
      inFlight.push(read(range));
    }
  };
  try {
    readMore();
    for (let page = inFlight.shift(); page !== undefined; page = inFlight.shift()) {
      const columns = await page.columns;
      const lastSeq = columns.lastSeq === null ? undefined : BigInt(columns.lastSeq);
      ranges.observe(page.range, columns.count, lastSeq);
      // A full page may have left children of its range: they come next, before the next range's.
      if (columns.count === pageSize && lastSeq !== undefined && lastSeq < page.range.through)
        inFlight.unshift(read({ after: lastSeq, through: page.range.through }));
      readMore();
      if (columns.count > 0) yield resultsOf(columns);
    }
  } finally {
    await Promise.allSettled(inFlight.map((page) => page.columns));
  }
}
