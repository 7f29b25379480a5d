/**
 * Kysely table types of the process schema (`migrations/0002_process.sql`).
 * JSON columns are read as parsed values and written as JSON text.
 */
import type { ColumnType, Generated, Kysely, Transaction } from 'kysely';

type Json = ColumnType<unknown, string | null, string | null>;
type Timestamp = ColumnType<Date, Date, Date>;

export interface FwProcessTable {
  id: string;
  process_type: string;
  leaf: boolean;
  parent_id: string | null;
  predecessor_id: string | null;
  trigger_id: string | null;
  tenant: string | null;
  flow_id: string;
  state_id: string;
  split_completed: boolean;
  num_sub_processes: number;
  num_completed_sub_processes: number;
  completed_percent: number;
  input: Json;
  output: Json;
  description: string | null;
  created_time: Timestamp;
  last_modified_time: Timestamp;
  state_entry_time: Timestamp;
  version: number;
  /** W3C `traceparent[,tracestate]` of the process's creation; NULL without a trace (`migrations/0014_process_trace_context.sql`). */
  trace_context: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The child was counted on its parent in the transaction that finished it (the engine's inline
   * counting) rather than through a row of `fw_process_child_report`
   * (`migrations/0023_child_counted_inline.sql`).
   */
  counted_inline: Generated<boolean>;
  /** Insertion order; generated. */
  seq: Generated<string>;
}

export interface FwProcessErrorTable {
  id: Generated<string>;
  owner_id: string;
  process_id: string;
  time_of_completion: Timestamp;
  errors: ColumnType<unknown, string, string>;
  exception_message: string | null;
  stack_trace: string | null;
}

export interface FwProcessChildReportTable {
  child_id: string;
  parent_id: string;
  successful: boolean;
  reported_time: Timestamp;
}

export interface FwProcessCompletionEventTable {
  id: string;
  process_id: string;
  process_type: string;
  tenant: string | null;
  trigger_id: string | null;
  state: string;
  successful: boolean;
  payload: ColumnType<unknown, string, string>;
  generated_time: Timestamp;
}

export interface ProcessDefinitionTable {
  process_type: string;
  definition: string;
}

/** The process tables as a Kysely database type. */
export interface ProcessTables {
  fw_process: FwProcessTable;
  fw_process_error: FwProcessErrorTable;
  fw_process_child_report: FwProcessChildReportTable;
  fw_process_completion_event: FwProcessCompletionEventTable;
  process_definition: ProcessDefinitionTable;
}

/** A Kysely handle (database or open transaction) over the process tables. */
export type ProcessDb = Kysely<ProcessTables>;

/** The transaction handed to actions and to {@link WorkerStarter}s as `context.transaction`. */
export type ProcessTransaction = Transaction<ProcessTables>;

/**
 * Views any Kysely handle (for example `database.db` of `@fw/core`) as one over the process tables.
 *
 * @example
 * const db = processDb(createDatabase({ url: 'pglite:memory:' }));
 */
export function processDb<DB>(database: { db: Kysely<DB> }): ProcessDb {
  return database.db as unknown as ProcessDb;
}
