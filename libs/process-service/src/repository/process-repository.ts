/**
 * Persistence of processes through Kysely (PostgreSQL and PGlite, same SQL). Every function takes
 * the handle to use, so callers run them inside their own transaction.
 *
 * @example
 * const repo = makeProcessRepository();
 * await db.transaction().execute(async (trx) => {
 *   const process = await repo.findById(trx, id, { forUpdate: true });
 * });
 */
import type { Process, ProcessCompletedEvent, ProcessErrorRecord, SubProcessResult } from '@fw/process-api';
import { isTerminalState, ProcessStates } from '@fw/process-api';
import { jsonRecordset } from '@fw/core';
import { sql, type Insertable, type Selectable } from 'kysely';
import { makeProcessBatchRepository } from './process-batch-repository';
import type { FwProcessTable, ProcessDb } from './process-tables';
import { toErrorRecord, toJsonColumn as json, toProcess } from './process-row-mapper';

export interface FindOptions {
  /** Lock the row (`select … for no key update`: every other writer waits) until the transaction ends. */
  forUpdate?: boolean;
}

export interface ChildReport {
  childId: string;
  parentId: string;
  successful: boolean;
  time: Date;
}

export interface ProcessRepository {
  findById(db: ProcessDb, id: string, options?: FindOptions): Promise<Process | undefined>;
  /** Inserts processes; rows whose id (or predecessor/type pair) exists are skipped. Returns the inserted ids. */
  insertMany(db: ProcessDb, processes: readonly Process[]): Promise<Set<string>>;
  /** Saves every column but `id` and `created_time`; `false` when the stored version is not `expectedVersion`. */
  update(db: ProcessDb, process: Process, expectedVersion: number): Promise<boolean>;
  insertErrors(db: ProcessDb, ownerId: string, errors: readonly ProcessErrorRecord[]): Promise<void>;
  /** `true` when the report is new (the child is counted now), `false` for a repeated report. */
  insertChildReport(db: ProcessDb, report: ChildReport): Promise<boolean>;
  /** Inserts many reports in one statement; returns the child ids whose report is new (counted now). */
  insertChildReports(db: ProcessDb, reports: readonly ChildReport[]): Promise<Set<string>>;
  /** Deletes the reports of these children (reports inserted in the same transaction and then not counted). */
  deleteChildReports(db: ProcessDb, childIds: readonly string[]): Promise<void>;
  /** Parent ids of existing processes among `ids`. */
  findParents(db: ProcessDb, ids: readonly string[]): Promise<Map<string, string | null>>;
  insertCompletionEvent(db: ProcessDb, id: string, event: ProcessCompletedEvent, time: Date): Promise<void>;
  /** The process followed by its children (all descendants when `recursive`), or undefined. */
  findWithChildren(db: ProcessDb, id: string, recursive: boolean): Promise<Process[] | undefined>;
  /** Results of the terminal direct children of `parentId`, in creation order. */
  childResults(db: ProcessDb, parentId: string): Promise<SubProcessResult[]>;
}

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
} as const;

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

async function errorsByOwner(db: ProcessDb, ids: readonly string[]): Promise<Map<string, ProcessErrorRecord[]>> {
  const result = new Map<string, ProcessErrorRecord[]>();
  if (ids.length === 0) return result;
  const rows = await db
    .selectFrom('fw_process_error')
    .selectAll()
    .where(sql<boolean>`owner_id = any(${[...ids]}::uuid[])`)
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = result.get(row.owner_id) ?? [];
    list.push(toErrorRecord(row));
    result.set(row.owner_id, list);
  }
  return result;
}

/** Creates the Kysely-backed {@link ProcessRepository}. */
export function makeProcessRepository(): ProcessRepository {
  const batch = makeProcessBatchRepository();
  return {
    async findById(db, id, options = {}) {
      // The row and its errors in one statement (one round trip on every event's path).
      const [process] = (await batch.findMany(db, [id], options.forUpdate === true)).values();
      return process;
    },

    async insertMany(db, processes) {
      const inserted = new Set<string>();
      for (let i = 0; i < processes.length; i += PROCESS_INSERT_CHUNK) {
        const chunk = processes.slice(i, i + PROCESS_INSERT_CHUNK);
        // Absent keys are SQL NULL: nulls, zeros, `false` and the times equal to created_time are
        // left out (and put back by coalesce), so a split's JSON carries little more than what
        // differs between its children (the bytes are written to the socket and parsed again).
        const rows = chunk.map((p) => ({
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
        }));
        // The rows as ONE JSON parameter (see jsonRecordset): a split of 1000 children binds one
        // parameter, not 20 000, and the statement text is the same for every batch size.
        const { rows: insertedRows } = await sql<{ id: string }>`
          insert into fw_process (id, process_type, leaf, parent_id, predecessor_id, trigger_id, tenant, flow_id, state_id,
                                  split_completed, num_sub_processes, num_completed_sub_processes, completed_percent,
                                  input, output, description, created_time, last_modified_time, state_entry_time, version)
          select id, process_type, leaf, parent_id, predecessor_id, trigger_id, tenant, flow_id, state_id,
                 coalesce(split_completed, false), coalesce(num_sub_processes, 0), coalesce(num_completed, 0), coalesce(completed_percent, 0),
                 input, output, description, created_time, coalesce(last_modified_time, created_time), coalesce(state_entry_time, created_time),
                 coalesce(version, 0)
            from ${jsonRecordset(rows, PROCESS_INSERT_COLUMNS)}
          on conflict do nothing
          returning id`.execute(db);
        for (const r of insertedRows) inserted.add(r.id);
      }
      return inserted;
    },

    async update(db, process, expectedVersion) {
      const { id: _id, created_time: _created, ...columns } = toRow(process);
      const result = await db
        .updateTable('fw_process')
        .set(columns)
        .where('id', '=', process.id)
        .where('version', '=', expectedVersion)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    // One column mapping for both paths: the single-owner write is the set-based one with one owner.
    insertErrors: (db, ownerId, errors) =>
      batch.insertErrors(
        db,
        errors.map((error) => ({ ownerId, error })),
      ),

    async insertChildReport(db, report) {
      const rows = await db
        .insertInto('fw_process_child_report')
        .values({
          child_id: report.childId,
          parent_id: report.parentId,
          successful: report.successful,
          reported_time: report.time,
        })
        .onConflict((oc) => oc.column('child_id').doNothing())
        .returning('child_id')
        .execute();
      return rows.length === 1;
    },

    async insertChildReports(db, reports) {
      const fresh = new Set<string>();
      if (reports.length === 0) return fresh;
      const rows = reports.map((r) => ({
        child_id: r.childId,
        parent_id: r.parentId,
        successful: r.successful,
        reported_time: r.time,
      }));
      const { rows: freshRows } = await sql<{ child_id: string }>`
        insert into fw_process_child_report (child_id, parent_id, successful, reported_time)
        select child_id, parent_id, successful, reported_time
          from ${jsonRecordset(rows, { child_id: 'uuid', parent_id: 'uuid', successful: 'boolean', reported_time: 'timestamptz' })}
        on conflict (child_id) do nothing
        returning child_id`.execute(db);
      for (const r of freshRows) fresh.add(r.child_id);
      return fresh;
    },

    async deleteChildReports(db, childIds) {
      if (childIds.length === 0) return;
      await db
        .deleteFrom('fw_process_child_report')
        .where('child_id', 'in', [...childIds])
        .execute();
    },

    async findParents(db, ids) {
      const result = new Map<string, string | null>();
      if (ids.length === 0) return result;
      const rows = await db
        .selectFrom('fw_process')
        .select(['id', 'parent_id'])
        .where(sql<boolean>`id = any(${[...ids]}::uuid[])`)
        .execute();
      for (const r of rows) result.set(r.id, r.parent_id);
      return result;
    },

    insertCompletionEvent: (db, id, event, time) => batch.insertCompletionEvents(db, [{ id, event, time }]),

    async findWithChildren(db, id, recursive) {
      const root = await db.selectFrom('fw_process').selectAll().where('id', '=', id).executeTakeFirst();
      if (!root) return undefined;
      let rows: Selectable<FwProcessTable>[];
      if (recursive) {
        const result = await sql<Selectable<FwProcessTable> & { depth: number }>`
          with recursive tree as (
            select p.*, 1 as depth from fw_process p where p.parent_id = ${id}
            union all
            select c.*, t.depth + 1 from fw_process c join tree t on c.parent_id = t.id
          )
          select * from tree order by depth, seq`.execute(db);
        rows = result.rows;
      } else {
        rows = await db.selectFrom('fw_process').selectAll().where('parent_id', '=', id).orderBy('seq').execute();
      }
      const all = [root, ...rows];
      const errors = await errorsByOwner(
        db,
        all.map((r) => r.id),
      );
      return all.map((r) => {
        const { depth: _depth, ...row } = r as Selectable<FwProcessTable> & { depth?: number };
        return toProcess(row, errors.get(row.id) ?? []);
      });
    },

    async childResults(db, parentId) {
      const rows = await db
        .selectFrom('fw_process')
        .select(['id', 'process_type', 'state_id', 'output'])
        .where('parent_id', '=', parentId)
        .orderBy('seq')
        .execute();
      return rows
        .filter((r) => isTerminalState(r.state_id))
        .map((r) => ({
          processId: r.id,
          processType: r.process_type,
          stateId: r.state_id,
          successful: r.state_id === ProcessStates.PROCESSED,
          output: r.output ?? null,
        }));
    },
  };
}
