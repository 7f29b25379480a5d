/**
 * Set-based statements for many processes at once (the batched event path of
 * `manager.sendEvents`): one statement locks and loads N processes with their errors, one saves
 * their state, one inserts their errors and one their completion events. The client is the
 * bottleneck of a fan-out (PostgreSQL waits on it), so statements per batch matter, rows hardly.
 *
 * @example
 * const batch = makeProcessBatchRepository();
 * const processes = await batch.lockMany(trx, ids);           // select … for update, errors included
 * const saved = await batch.saveStates(trx, changed);          // one update … from unnest(…)
 */
import type { Process, ProcessCompletedEvent, ProcessErrorRecord } from '@fw/process-api';
import { jsonRecordset } from '@fw/core';
import { sql } from 'kysely';
import { completionEventColumnsOf } from './completion-event-payload';
import type { ProcessDb } from './process-tables';
import { ISO_TIME_FORMAT, toErrorRecord, toProcess, type ProcessErrorRow, type ProcessRow } from './process-row-mapper';

const SAVE_COLUMNS = {
  id: 'uuid',
  expected_version: 'integer',
  state_id: 'text',
  split_completed: 'boolean',
  num_sub_processes: 'integer',
  num_completed: 'integer',
  completed_percent: 'integer',
  output: 'jsonb',
  last_modified_time: 'timestamptz',
  state_entry_time: 'timestamptz',
  version: 'integer',
  counted_inline: 'boolean',
} as const;

const COMPLETION_COLUMNS = {
  id: 'uuid',
  process_id: 'uuid',
  process_type: 'text',
  tenant: 'text',
  trigger_id: 'text',
  state: 'text',
  successful: 'boolean',
  payload: 'jsonb',
  generated_time: 'timestamptz',
} as const;

/** A process to save with the version it was loaded with (optimistic check). */
export interface ProcessStateWrite {
  process: Process;
  expectedVersion: number;
  /** Set the row's `counted_inline` mark: a finishing child counted on its parent in this transaction. */
  countedInline?: boolean;
}

export interface CompletionEventWrite {
  id: string;
  event: ProcessCompletedEvent;
  time: Date;
}

export interface ProcessBatchRepository {
  /**
   * Locks (`for no key update`, in id order so concurrent batches cannot deadlock on each other)
   * and loads the processes of `ids` with their errors, in ONE statement. Missing ids are absent
   * from the map. `no key update` excludes every other writer of the row (engine writes never change
   * its key) but not the foreign-key checks of rows that reference it: children inserted under a
   * parent, errors and reports of a process, do not wait for the parent's lock.
   */
  lockMany(db: ProcessDb, ids: readonly string[]): Promise<Map<string, Process>>;
  /** As {@link lockMany}, locking only when `forUpdate` (one statement either way). */
  findMany(db: ProcessDb, ids: readonly string[], forUpdate: boolean): Promise<Map<string, Process>>;
  /**
   * Saves the columns an event can change (state, counters, percent, output, times, version, the
   * `counted_inline` mark when a write sets it) of
   * every process in ONE statement; `input` and the identity columns are left alone. Returns the
   * ids saved (a process whose stored version is not the expected one is absent).
   */
  saveStates(db: ProcessDb, writes: readonly ProcessStateWrite[]): Promise<Set<string>>;
  /** Inserts the errors of many owners in one statement. */
  insertErrors(db: ProcessDb, errors: ReadonlyArray<{ ownerId: string; error: ProcessErrorRecord }>): Promise<void>;
  /** Inserts many completion events in one statement. */
  insertCompletionEvents(db: ProcessDb, events: readonly CompletionEventWrite[]): Promise<void>;
}

interface LockedRow extends ProcessRow {
  errors: readonly ProcessErrorRow[] | string | null;
}

/** PGlite may hand `json` columns back as text; pg parses them. */
function parsed<T>(value: T | string | null): T | null {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

/** Creates the set-based repository (stateless; every call takes the handle to use). */
export function makeProcessBatchRepository(): ProcessBatchRepository {
  return {
    lockMany: (db, ids) => findProcesses(db, ids, true),
    findMany: findProcesses,
    saveStates: saveProcessStates,
    insertErrors: insertProcessErrors,
    insertCompletionEvents,
  };
}

/** A time column selected as the ISO text a `Process` keeps (see `ISO_TIME_FORMAT`). */
const isoTime = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', '${ISO_TIME_FORMAT}')`);

async function findProcesses(db: ProcessDb, ids: readonly string[], forUpdate: boolean): Promise<Map<string, Process>> {
  const result = new Map<string, Process>();
  if (ids.length === 0) return result;
  // The errors come as one json array per process, so loading N processes with their errors is one
  // round trip instead of two. They are grouped once for all N (one index scan for the id list),
  // not read by a subquery per process: a correlated subquery rescans the errors' index for every
  // row, and for a batch of 1,024 leaves, which almost never have errors, that was over a third of
  // the statement's time.
  const idList = [...ids];
  const { rows } = await sql<LockedRow>`
      select p.id, p.process_type, p.leaf, p.parent_id, p.predecessor_id, p.trigger_id, p.tenant, p.flow_id,
             p.state_id, p.split_completed, p.num_sub_processes, p.num_completed_sub_processes, p.completed_percent,
             p.input, p.output, p.description, ${isoTime('p.created_time')} as created_time,
             ${isoTime('p.last_modified_time')} as last_modified_time, ${isoTime('p.state_entry_time')} as state_entry_time,
             p.version, p.trace_context, e.errors
        from fw_process p
        left join (select owner_id,
                          json_agg(json_build_object('process_id', process_id, 'time_of_completion', time_of_completion,
                                                     'errors', errors, 'exception_message', exception_message,
                                                     'stack_trace', stack_trace) order by id) as errors
                     from fw_process_error
                    where owner_id = any(${idList}::uuid[])
                    group by owner_id) e on e.owner_id = p.id
       where p.id = any(${idList}::uuid[])
       order by p.id
       ${forUpdate ? sql`for no key update of p` : sql``}`.execute(db);
  for (const row of rows) result.set(row.id, toProcess(row, (parsed(row.errors) ?? []).map(toErrorRecord)));
  return result;
}

async function saveProcessStates(db: ProcessDb, writes: readonly ProcessStateWrite[]): Promise<Set<string>> {
  const saved = new Set<string>();
  if (writes.length === 0) return saved;
  const ids = writes.map((w) => w.process.id);
  const rows = writes.map(({ process: p, expectedVersion, countedInline }) => ({
    id: p.id,
    expected_version: expectedVersion,
    state_id: p.state.stateId,
    split_completed: p.splitCompleted,
    num_sub_processes: p.numSubProcesses,
    num_completed: p.numCompletedSubProcesses,
    completed_percent: p.completedPercent,
    output: p.output ?? undefined,
    last_modified_time: p.lastModifiedTime,
    state_entry_time: p.stateEntryTime,
    version: p.version,
    // Absent (NULL) leaves the mark as it is: only the writes that set it carry the key.
    counted_inline: countedInline === true ? true : undefined,
  }));
  // The rows as one JSON parameter (see jsonRecordset), so the statement text does not grow with
  // the batch. `p.id = any(ids)` lets the planner find the rows through the primary key; joined on
  // `v.id` alone it hashes the whole table for every batch. The join's columns stay in every row:
  // a batch's shared expected version, sent once, would be a constant filter of `p`, and the
  // planner then rescanned the JSON for each process (three times the statement's cost).
  const result = await sql<{ id: string }>`
      update fw_process as p
         set state_id = v.state_id, split_completed = v.split_completed, num_sub_processes = v.num_sub_processes,
             num_completed_sub_processes = v.num_completed, completed_percent = v.completed_percent,
             output = v.output, last_modified_time = v.last_modified_time,
             state_entry_time = v.state_entry_time, version = v.version,
             counted_inline = coalesce(v.counted_inline, p.counted_inline)
        from ${jsonRecordset(rows, SAVE_COLUMNS, 'v', { keepInRows: ['id', 'expected_version'] })}
       where p.id = any(${ids}::uuid[]) and p.id = v.id and p.version = v.expected_version
      returning p.id`.execute(db);
  for (const r of result.rows) saved.add(r.id);
  return saved;
}

async function insertProcessErrors(
  db: ProcessDb,
  errors: ReadonlyArray<{ ownerId: string; error: ProcessErrorRecord }>,
): Promise<void> {
  if (errors.length === 0) return;
  await db
    .insertInto('fw_process_error')
    .values(
      errors.map(({ ownerId, error: e }) => ({
        owner_id: ownerId,
        process_id: e.processId,
        time_of_completion: new Date(e.timeOfCompletion),
        errors: JSON.stringify(e.errors),
        exception_message: e.exceptionMessage,
        stack_trace: e.stackTrace,
      })),
    )
    .execute();
}

async function insertCompletionEvents(db: ProcessDb, events: readonly CompletionEventWrite[]): Promise<void> {
  if (events.length === 0) return;
  // The payload keeps only what the columns do not hold (see completion-event-payload).
  const rows = events.map(({ id, event, time }) => ({ id, ...completionEventColumnsOf(event), generated_time: time }));
  await sql`
      insert into fw_process_completion_event (id, process_id, process_type, tenant, trigger_id, state, successful, payload, generated_time)
      select id, process_id, process_type, tenant, trigger_id, state, successful, payload, generated_time
        from ${jsonRecordset(rows, COMPLETION_COLUMNS)}`.execute(db);
}
