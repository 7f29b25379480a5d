/**
 * Totals that stay fast at any size: at most limit + 1 rows are read to count them; when that
 * reaches every row the filter can match the count is exact, otherwise the planner's estimate for
 * the filter is answered and marked as such. A page of ten million rows then costs a bounded scan
 * instead of a full count, with or without a filter no index serves.
 *
 * @example
 * const total = await boundedCount(db, tenantRows, 100_000);                     // { count: 100000, estimated: false } or { count: 9_870_000, estimated: true }
 * const failed = await boundedCount(db, tenantRows, 100_000, (eb) => eb('state_id', '=', 'PROCESSED_WITH_ERRORS'));
 */
import {
  CompiledQuery,
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';

/** Default of `FW_COUNT_EXACT_LIMIT`: totals above it may be estimates. */
export const DEFAULT_COUNT_EXACT_LIMIT = 100_000;

/** A total and whether it is the planner's estimate. */
export interface BoundedCount {
  count: number;
  estimated: boolean;
}

/**
 * The part of a filter no index serves (a state, a type, a free text): it is evaluated on the rows
 * the indexed part selects, never used to find them.
 */
export type ResidualFilter<DB, TB extends keyof DB> = (eb: ExpressionBuilder<DB, TB>) => Expression<SqlBool>;

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
 * the bounded count would only confirm, at the price of reading limit + 1 rows.
 */
const CLEARLY_ABOVE = 4;

/** Rows read (at most limit + 1) and how many of them the residual filter kept. */
async function sampleCount<DB, TB extends keyof DB & string, O>(
  db: Kysely<unknown>,
  candidates: SelectQueryBuilder<DB, TB, O>,
  limit: number,
  residual: ResidualFilter<DB, TB> | undefined,
): Promise<{ read: number; hits: number }> {
  // The residual is a column of the limited read, not a condition of it: a condition would let the
  // scan go on past limit + 1 rows looking for matches (the whole tenant for a rare state).
  const bounded = candidates
    .select((eb) => (residual ? sql<boolean>`${residual(eb)}` : sql<boolean>`true`).as('hit'))
    .limit(limit + 1)
    .compile();
  const result = await db.executeQuery<{ n: string | number; hits: string | number }>(
    CompiledQuery.raw(`select count(*) as n, count(*) filter (where hit) as hits from (${bounded.sql}) as bounded`, [
      ...bounded.parameters,
    ]),
  );
  return { read: Number(result.rows[0].n), hits: Number(result.rows[0].hits) };
}

/**
 * Counts the rows `candidates` selects and `residual` keeps, reading at most `limit` + 1 of the
 * candidates. `candidates` is the list's query with the filters an index serves (no order, limit
 * or select); `residual` is the rest of the filter, or undefined when an index serves all of it.
 *
 * The planner's estimate of the candidates is asked first (EXPLAIN, well under a millisecond): far
 * above the limit, the estimate of the whole filter is the answer. Otherwise up to limit + 1
 * candidates are read: when that is all of them the count of those the residual keeps is exact,
 * else the planner's estimate of the whole filter is answered (at least the matches seen).
 */
export async function boundedCount<DB, TB extends keyof DB & string, O>(
  db: Kysely<unknown>,
  candidates: SelectQueryBuilder<DB, TB, O>,
  limit: number,
  residual?: ResidualFilter<DB, TB>,
): Promise<BoundedCount> {
  const one = sql<number>`1`.as('one');
  const plannedCandidates = await plannedRows(db, candidates.select(one).compile());
  const plannedFiltered = async () =>
    residual ? plannedRows(db, candidates.where(residual).select(one).compile()) : plannedCandidates;
  if (plannedCandidates > CLEARLY_ABOVE * limit) return { count: await plannedFiltered(), estimated: true };
  const { read, hits } = await sampleCount(db, candidates, limit, residual);
  if (read <= limit) return { count: hits, estimated: false };
  return { count: Math.max(hits, await plannedFiltered()), estimated: true };
}
