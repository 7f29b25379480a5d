/**
 * Kysely table types of the trigger schema (`migrations/0005_trigger.sql`).
 * JSON columns are read as parsed values and written as JSON text.
 */
import type { ColumnType, Generated, Kysely } from 'kysely';

type Json = ColumnType<unknown, string, string>;
type Timestamp = ColumnType<Date, Date, Date>;
type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;
type DefaultTimestamp = ColumnType<Date, Date | undefined, Date>;

export interface FwTriggerLogTable {
  log_id: string;
  trigger_id: string;
  event_name: string;
  tenant: string;
  event_id: string;
  created_at: DefaultTimestamp;
}

export interface FwTriggerExecutionTable {
  id: string;
  trigger_id: string;
  tenant: string;
  source: string;
  scheduled_time: NullableTimestamp;
  received_time: Timestamp;
  start_time: NullableTimestamp;
  finish_time: NullableTimestamp;
  event_name: string;
  payload: Json;
  status: string;
  failure_message: string | null;
  failure_stack: string | null;
  cron_id: string | null;
  process_id: string | null;
  log_id: string;
  event_id: string;
  seq: Generated<string>;
}

export interface FwCrontabTable {
  id: string;
  tenant: string;
  name: string;
  cron_expression: string;
  timezone: string;
  enabled: boolean;
  payload: Json;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  last_fired_at: NullableTimestamp;
  last_scheduled_time: NullableTimestamp;
  seq: Generated<string>;
}

export interface FwSchedulerLeaseTable {
  name: string;
  owner_id: string;
  lease_until: Timestamp;
  acquired_at: DefaultTimestamp;
  renewed_at: DefaultTimestamp;
}

/** The trigger tables as a Kysely database type. */
export interface TriggerTables {
  fw_trigger_log: FwTriggerLogTable;
  fw_trigger_execution: FwTriggerExecutionTable;
  fw_crontab: FwCrontabTable;
  fw_scheduler_lease: FwSchedulerLeaseTable;
}

/** A Kysely handle over the trigger tables. */
export type TriggerDb = Kysely<TriggerTables>;

/** Tables a host checks before it starts the trigger layer (`assertTablesExist` of `@fw/core`). */
export const TRIGGER_TABLES = ['fw_trigger_log', 'fw_trigger_execution', 'fw_crontab', 'fw_scheduler_lease'] as const;

/**
 * Views any Kysely handle (for example a `Database` of `@fw/core`) as one over the trigger tables.
 *
 * @example
 * const db = triggerDb(createDatabase({ url: 'pglite:memory:' }));
 */
export function triggerDb<DB>(database: { db: Kysely<DB> }): TriggerDb {
  return database.db as unknown as TriggerDb;
}
