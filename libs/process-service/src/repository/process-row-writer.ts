/**
 * Writes of whole process rows: the set-based insert of new processes and the optimistic update of
 * one. Kept apart from the reads because the insert's shape (one JSON parameter, absent keys for
 * defaults) exists only to keep a split of thousands of children cheap on the wire.
 */
import type { Process } from '@fw/process-api';
import { jsonRecordset } from '@fw/core';
import { sql, type Insertable } from 'kysely';
import type { FwProcessTable, ProcessDb } from './process-tables';
import { toJsonColumn as json } from './process-row-mapper';
import { traceContextOf } from './process-trace-context';

const PROCESS_INSERT_CHUNK = 1000;

const PROCESS_INSERT_COLUMNS = {
  id: 'uuid',
  process_type: 'text',
  leaf: 'boolean',
  parent_id: 'uuid',
  predecessor_id: 'uuid',
  trigger_id: 'text',
  tenant: 'text',
  flow_id: 'text',
  state_id: 'text',
  split_completed: 'boolean',
  num_sub_processes: 'integer',
  num_completed: 'integer',
  completed_percent: 'integer',
  input: 'jsonb',
  output: 'jsonb',
  description: 'text',
  created_time: 'timestamptz',
  last_modified_time: 'timestamptz',
  state_entry_time: 'timestamptz',
  version: 'integer',
  trace_context: 'text',
} as const;

/** Inserts processes; rows whose id (or predecessor/type pair) exists are skipped. Returns the inserted ids. */
export async function insertProcesses(db: ProcessDb, processes: readonly Process[]): Promise<Set<string>> {
  const inserted = new Set<string>();
  for (let i = 0; i < processes.length; i += PROCESS_INSERT_CHUNK) {
    const chunk = processes.slice(i, i + PROCESS_INSERT_CHUNK);
    // The rows as ONE JSON parameter (see jsonRecordset): a split of 1000 children binds a few
    // parameters, not 20 000: the values its children share (parent, tenant, type, state, times)
    // once each, and the rest (each child's id, input, trace context) in the JSON.
    const { rows: insertedRows } = await sql<{ id: string }>`
      insert into fw_process (id, process_type, leaf, parent_id, predecessor_id, trigger_id, tenant, flow_id, state_id,
                              split_completed, num_sub_processes, num_completed_sub_processes, completed_percent,
                              input, output, description, created_time, last_modified_time, state_entry_time, version,
                              trace_context)
      select id, process_type, leaf, parent_id, predecessor_id, trigger_id, tenant, flow_id, state_id,
             coalesce(split_completed, false), coalesce(num_sub_processes, 0), coalesce(num_completed, 0), coalesce(completed_percent, 0),
             input, output, description, created_time, coalesce(last_modified_time, created_time), coalesce(state_entry_time, created_time),
             coalesce(version, 0), trace_context
        from ${jsonRecordset(chunk.map(toInsertRow), PROCESS_INSERT_COLUMNS)}
      on conflict do nothing
      returning id`.execute(db);
    for (const r of insertedRows) inserted.add(r.id);
  }
  return inserted;
}

/** Options of {@link updateProcess}. */
export interface UpdateOptions {
  /** Set the row's `counted_inline` mark: the child is counted on its parent in this transaction. */
  countedInline?: boolean;
}

/**
 * Saves every column but `id` and `created_time`; `false` when the stored version is not
 * `expectedVersion`. `countedInline` sets the row's mark (left as it is otherwise).
 */
export async function updateProcess(
  db: ProcessDb,
  process: Process,
  expectedVersion: number,
  options: UpdateOptions = {},
): Promise<boolean> {
  const { id: _id, created_time: _created, ...columns } = toRow(process);
  const result = await db
    .updateTable('fw_process')
    .set(options.countedInline === true ? { ...columns, counted_inline: true } : columns)
    .where('id', '=', process.id)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Absent keys are SQL NULL: nulls, zeros, `false` and the times equal to created_time are left
 * out (and put back by coalesce), so a split's JSON carries little more than what differs between
 * its children (the bytes are written to the socket and parsed again).
 */
function toInsertRow(p: Process): Record<keyof typeof PROCESS_INSERT_COLUMNS, unknown> {
  return {
    id: p.id,
    process_type: p.processType,
    leaf: p.leaf,
    parent_id: p.parentId ?? undefined,
    predecessor_id: p.predecessorId ?? undefined,
    trigger_id: p.triggerId ?? undefined,
    tenant: p.tenant ?? undefined,
    flow_id: p.state.flowId,
    state_id: p.state.stateId,
    split_completed: p.splitCompleted || undefined,
    num_sub_processes: p.numSubProcesses || undefined,
    num_completed: p.numCompletedSubProcesses || undefined,
    completed_percent: p.completedPercent || undefined,
    input: p.input ?? undefined,
    output: p.output ?? undefined,
    description: p.description ?? undefined,
    created_time: p.createdTime,
    last_modified_time: p.lastModifiedTime === p.createdTime ? undefined : p.lastModifiedTime,
    state_entry_time: p.stateEntryTime === p.createdTime ? undefined : p.stateEntryTime,
    version: p.version || undefined,
    trace_context: traceContextOf(p) ?? undefined,
  };
}

function toRow(p: Process): Insertable<FwProcessTable> {
  return {
    id: p.id,
    process_type: p.processType,
    leaf: p.leaf,
    parent_id: p.parentId,
    predecessor_id: p.predecessorId,
    trigger_id: p.triggerId,
    tenant: p.tenant,
    flow_id: p.state.flowId,
    state_id: p.state.stateId,
    split_completed: p.splitCompleted,
    num_sub_processes: p.numSubProcesses,
    num_completed_sub_processes: p.numCompletedSubProcesses,
    completed_percent: p.completedPercent,
    input: json(p.input),
    output: json(p.output),
    description: p.description,
    created_time: new Date(p.createdTime),
    last_modified_time: new Date(p.lastModifiedTime),
    state_entry_time: new Date(p.stateEntryTime),
    version: p.version,
  };
}
