import type { Database } from '@fw/core';
import { runStatement } from './statement-runner';

type PlanNode = { 'Plan Rows'?: unknown };

function planOf(rows: readonly Record<string, unknown>[]): PlanNode | undefined {
  const raw = rows[0]?.['QUERY PLAN'];
  const document = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
  return Array.isArray(document) ? (document[0] as { Plan?: PlanNode } | undefined)?.Plan : undefined;
}

/**
 * The planner's estimate of how many rows `sql` returns: `EXPLAIN (FORMAT JSON)` of the statement
 * without ORDER BY and LIMIT, its top node's `Plan Rows`. Costs a planning, not a scan: constant
 * time however large the table, as good as the table's statistics (ANALYZE).
 *
 * @example
 * await plannedRowCount(database, 'select * from book where author_id = $1', [42]); // 1013
 */
export async function plannedRowCount(
  database: Database,
  sql: string,
  values: readonly unknown[],
  timeoutMillis?: number,
): Promise<number> {
  const rows = await runStatement(database, `EXPLAIN (FORMAT JSON) ${sql}`, values, timeoutMillis);
  const estimate = Number(planOf(rows)?.['Plan Rows']);
  if (!Number.isFinite(estimate) || estimate < 0) throw new Error('EXPLAIN gave no row estimate');
  return Math.round(estimate);
}
