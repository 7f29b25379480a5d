/**
 * Kysely table types of `fw_process_outbox` and `fw_process_receipt` (`migrations/0004_outbox.sql`).
 *
 * @example
 * const db = outboxDb(database); // Kysely<OutboxTables>
 * const dead = await db.selectFrom('fw_process_outbox').select('id').where('status', '=', 'DEAD').execute();
 */
import type { LeaseColumnsTable } from '@fw/leased-queue';
import { Kysely, type ColumnType, type Generated } from 'kysely';

/** Command statuses. */
export const OutboxStatus = {
  PENDING: 'PENDING',
  RUNNING: 'RUNNING',
  DONE: 'DONE',
  DEAD: 'DEAD',
} as const;

export type OutboxStatus = (typeof OutboxStatus)[keyof typeof OutboxStatus];

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** The lease columns (status … updated_at) are those of `@fw/leased-queue`. */
export interface FwProcessOutboxTable extends LeaseColumnsTable<OutboxStatus> {
  id: Generated<string>;
  command_type: string;
  group_key: string | null;
  process_id: string | null;
  tenant: string | null;
  /** Read parsed, written as JSON text. */
  payload: ColumnType<unknown, string, string>;
  finished_at: Timestamp | null;
  /** W3C `traceparent[,tracestate]` of the command's creation; NULL without a trace (`migrations/0016_outbox_trace_context.sql`). */
  trace_context: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface FwProcessReceiptTable {
  consumer: string;
  command_id: string;
  received_at: Generated<Date>;
}

export interface OutboxTables {
  fw_process_outbox: FwProcessOutboxTable;
  fw_process_receipt: FwProcessReceiptTable;
}

/** The tables the outbox needs (for `assertTablesExist`). */
export const OUTBOX_TABLES: readonly string[] = ['fw_process_outbox', 'fw_process_receipt'];

/** Views any Kysely handle (a `Database` of `@fw/core`, or a transaction) as one over the outbox tables. */
export function outboxDb<DB>(handle: { db: Kysely<DB> } | Kysely<DB>): Kysely<OutboxTables> {
  const db = handle instanceof Kysely ? handle : handle.db;
  return db as unknown as Kysely<OutboxTables>;
}
