/**
 * Kysely table type of `fw_process_work_item` (`migrations/0003_work_item.sql`).
 *
 * @example
 * const db = workItemDb(database); // Kysely<WorkItemTables>
 * const pending = await db.selectFrom('fw_process_work_item').select('id').where('status', '=', 'PENDING').execute();
 */
import type { LeaseColumnsTable } from '@fw/leased-queue';
import { Kysely, type ColumnType, type Generated } from 'kysely';

/** Item statuses. */
export const WorkItemStatus = {
  PENDING: 'PENDING',
  RUNNING: 'RUNNING',
  SUCCESS: 'SUCCESS',
  DEAD: 'DEAD',
} as const;

export type WorkItemStatus = (typeof WorkItemStatus)[keyof typeof WorkItemStatus];

/** The lease columns (status … updated_at) are those of `@fw/leased-queue`. */
export interface FwProcessWorkItemTable extends LeaseColumnsTable<WorkItemStatus> {
  id: Generated<string>;
  idempotency_key: string;
  process_id: string;
  process_type: string;
  worker_type: string;
  tenant: string | null;
  /** The WorkerDto: read parsed, written as JSON text. */
  payload: ColumnType<unknown, string, string>;
  failure_reported_at: Date | null;
  finished_at: Date | null;
  /** 0..9, higher first (`migrations/0010_fair_claims.sql`; default 5). */
  priority: Generated<number>;
  /**
   * W3C `traceparent[,tracestate]` of the item's launch, the payload's `traceContext`; NULL
   * without a trace (`migrations/0015_work_item_trace_context.sql`).
   */
  trace_context: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the item was last claimed, set by the claim (`migrations/0020_work_item_claimed_at.sql`); NULL before its first claim. */
  claimed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** One token bucket of a rate-limited definition (`migrations/0010_fair_claims.sql`). */
export interface FwProcessWorkRateTable {
  process_type: string;
  scope: 'tenant' | 'global';
  /** The tenant ('' for items without one) of a `tenant` bucket; '' for a `global` one. */
  tenant_key: string;
  tokens: number;
  refilled_at: Date;
}

export interface WorkItemTables {
  fw_process_work_item: FwProcessWorkItemTable;
  fw_process_work_rate: FwProcessWorkRateTable;
}

/** The table the package needs (for `assertTablesExist`). */
export const WORK_ITEM_TABLES: readonly string[] = ['fw_process_work_item'];

/**
 * Views any Kysely handle (a `Database` of `@fw/core`, or a transaction) as one over the
 * work-item table.
 */
export function workItemDb<DB>(handle: { db: Kysely<DB> } | Kysely<DB>): Kysely<WorkItemTables> {
  const db = handle instanceof Kysely ? handle : handle.db;
  return db as unknown as Kysely<WorkItemTables>;
}
