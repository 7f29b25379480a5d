/**
 * Row → model mapping shared by the single-row and the set-based repositories, so a `Process`
 * looks the same whichever statement loaded it.
 */
import type { Process, ProcessErrorRecord } from '@fw/process-api';
import type { Selectable } from 'kysely';
import type { FwProcessTable } from './process-tables';
import { rememberTraceContext } from './process-trace-context';

/** The times of a process row, which a statement may select as ISO text (see {@link ISO_TIME_FORMAT}). */
type ProcessTimeColumn = 'created_time' | 'last_modified_time' | 'state_entry_time';

/** The `fw_process` columns a `Process` is built from (`seq` is internal ordering only). */
export type ProcessRow = Omit<Selectable<FwProcessTable>, 'seq' | 'trace_context' | ProcessTimeColumn> & {
  trace_context?: string | null;
} & Record<ProcessTimeColumn, Date | string>;

/**
 * The `to_char` pattern of a UTC time as `Date.prototype.toISOString` writes it, to the
 * millisecond (`2026-11-28T01:50:08.452Z`). A statement that loads processes by the thousand
 * selects their times through it (`to_char(t at time zone 'UTC', <this>)`): the model keeps ISO
 * text, and pg would otherwise parse each time into a `Date` (a regular expression and a few
 * allocations, about half a microsecond) only for it to be written back as text.
 */
export const ISO_TIME_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"';

/** A time of `ISO_TIME_FORMAT`'s shape. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The ISO text of a row's time: as selected when it already has that shape, else through `Date`. */
function isoTimeOf(value: Date | string): string {
  return typeof value === 'string' && value.length === 24 && ISO_TIME.test(value)
    ? value
    : new Date(value).toISOString();
}

/** An `fw_process_error` row; `time_of_completion` is text when it comes through `json_agg`. */
export interface ProcessErrorRow {
  process_id: string;
  time_of_completion: Date | string;
  errors: unknown;
  exception_message: string | null;
  stack_trace: string | null;
}

/** JSON text for a json column; null for absent values. */
export function toJsonColumn(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export function toErrorRecord(row: ProcessErrorRow): ProcessErrorRecord {
  return {
    processId: row.process_id,
    timeOfCompletion: new Date(row.time_of_completion).toISOString(),
    errors: Array.isArray(row.errors) ? row.errors.map(String) : [],
    exceptionMessage: row.exception_message,
    stackTrace: row.stack_trace,
  };
}

export function toProcess(row: ProcessRow, errors: ProcessErrorRecord[]): Process {
  const process: Process = {
    id: row.id,
    processType: row.process_type,
    leaf: row.leaf,
    parentId: row.parent_id,
    predecessorId: row.predecessor_id,
    triggerId: row.trigger_id,
    tenant: row.tenant,
    state: { flowId: row.flow_id, stateId: row.state_id },
    splitCompleted: row.split_completed,
    numSubProcesses: row.num_sub_processes,
    numCompletedSubProcesses: row.num_completed_sub_processes,
    completedPercent: row.completed_percent,
    input: row.input ?? null,
    output: row.output ?? null,
    errors,
    description: row.description,
    createdTime: isoTimeOf(row.created_time),
    lastModifiedTime: isoTimeOf(row.last_modified_time),
    stateEntryTime: isoTimeOf(row.state_entry_time),
    version: row.version,
  };
  rememberTraceContext(process, row.trace_context);
  return process;
}
