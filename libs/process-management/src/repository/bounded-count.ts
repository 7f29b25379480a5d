/**
 * Totals that stay fast at any size: rows are counted exactly up to a limit (one index-only scan
 * that stops after limit + 1 rows); above it the planner's estimate for the same filter is
 * answered and marked as such. A page of ten million rows then costs a bounded scan instead of a
 * full count.
 *
 * @example
 * const total = await boundedCount(db, query, 100_000);   // { count: 100000, estimated: false } or { count: 9_870_000, estimated: true }
 */
import { CompiledQuery, sql, type Kysely, type SelectQueryBuilder } from 'kysely';

/** Default of `FW_COUNT_EXACT_LIMIT`: totals above it may be estimates. */
export const DEFAULT_COUNT_EXACT_LIMIT = 100_000;

/** A total and whether it is the planner's estimate. */
export interface BoundedCount {
  count: number;
  estimated: boolean;
}

/** The planner's row estimate of `query` (EXPLAIN without running it). */
async function plannedRows(db: Kysely<unknown>, query: CompiledQuery): Promise<number> {
  const result = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
  );
  const raw = result.rows[0]?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: { 'Plan Rows': number } }>;
  return Math.round(plan[0].Plan['Plan Rows']);
}

/**
 * When the planner expects this many times the limit, its estimate is answered without counting:
 * the bounded count would only confirm, at the price of reading limit + 1 index entries.
 */
const CLEARLY_ABOVE = 4;

/**
 * Counts the rows `filtered` selects, exactly up to `limit`; above it the planner's estimate (at
 * least limit + 1). `filtered` is the list's query with its filters and no order, limit or select.
 * The estimate is asked first (EXPLAIN, well under a millisecond): far above the limit it is the
 * answer, otherwise the rows are counted, at most limit + 1 of them.
 */
export async function boundedCount<DB, TB extends keyof DB & string, O>(
  db: Kysely<unknown>,
  filtered: SelectQueryBuilder<DB, TB, O>,
  limit: number,
): Promise<BoundedCount> {
  const probe = filtered.select(sql<number>`1`.as('one'));
  const planned = await plannedRows(db, probe.compile());
  if (planned > CLEARLY_ABOVE * limit) return { count: planned, estimated: true };
  const bounded = probe.limit(limit + 1).compile();
  const exact = await db.executeQuery<{ n: string | number }>(
    CompiledQuery.raw(`select count(*) as n from (${bounded.sql}) as bounded`, [...bounded.parameters]),
  );
  const n = Number(exact.rows[0].n);
  if (n <= limit) return { count: n, estimated: false };
  return { count: Math.max(limit + 1, planned), estimated: true };
}
