/**
 * Row → model mapping shared by the single-row and the set-based repositories, so a `Process`
 * looks the same whichever statement loaded it.
 */
import type { Process, ProcessErrorRecord } from '@fw/process-api';
import type { Selectable } from 'kysely';
import type { FwProcessTable } from './process-tables';
import { rememberTraceContext } from './process-trace-context';

/** The `fw_process` columns a `Process` is built from (`seq` is internal ordering only). */
export type ProcessRow = Omit<Selectable<FwProcessTable>, 'seq' | 'trace_context'> & { trace_context?: string | null };

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
    createdTime: new Date(row.created_time).toISOString(),
    lastModifiedTime: new Date(row.last_modified_time).toISOString(),
    stateEntryTime: new Date(row.state_entry_time).toISOString(),
    version: row.version,
  };
  rememberTraceContext(process, row.trace_context);
  return process;
}
