/** The `fw_process` columns a trace reads, their mapping to trace rows, and the trace's errors. */
import type { FwProcessTable } from '@fw/process-service';
import type { Selectable } from 'kysely';
import { managementError, ManagementErrorCodes } from '../http/management-errors';
import type { TraceProcessRow } from './trace-builder';

/** A process row as a trace reads it. */
export type TraceRow = Pick<
  Selectable<FwProcessTable>,
  | 'id'
  | 'process_type'
  | 'leaf'
  | 'parent_id'
  | 'predecessor_id'
  | 'trigger_id'
  | 'state_id'
  | 'completed_percent'
  | 'num_sub_processes'
  | 'num_completed_sub_processes'
  | 'created_time'
  | 'last_modified_time'
>;

/** The columns of {@link TraceRow}, for `select`. */
export const TRACE_COLUMNS = [
  'id',
  'process_type',
  'leaf',
  'parent_id',
  'predecessor_id',
  'trigger_id',
  'state_id',
  'completed_percent',
  'num_sub_processes',
  'num_completed_sub_processes',
  'created_time',
  'last_modified_time',
] as const;

/** The row as the trace builder takes it (times as ISO-8601). */
export function toTraceProcessRow(r: TraceRow): TraceProcessRow {
  return {
    id: r.id,
    processType: r.process_type,
    leaf: r.leaf,
    parentId: r.parent_id,
    predecessorId: r.predecessor_id,
    triggerId: r.trigger_id,
    status: r.state_id,
    completedPercent: r.completed_percent,
    numSubProcesses: r.num_sub_processes,
    numCompletedSubProcesses: r.num_completed_sub_processes,
    createdTime: r.created_time.toISOString(),
    lastModifiedTime: r.last_modified_time.toISOString(),
  };
}

/** The 413 for a trace over `limit` processes or events. */
export function traceTooLarge(limit: number): Error {
  return managementError(
    413,
    ManagementErrorCodes.tooLarge,
    `The execution has more than ${limit} processes or events: page through /processes instead`,
  );
}
