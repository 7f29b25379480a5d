/**
 * Read-only queries of the administration API over the process tables: the tenant-scoped process
 * list (exact filters ANDed, newest first, one page plus its count) and the completion events of
 * a process. Every query filters on `tenant`, so a record of another tenant is never returned.
 *
 * @example
 * const queries = makeProcessQueries(processDb(database));
 * const page = await queries.listProcesses('acme', { status: 'PROCESSED' }, { page: 0, size: 25 });
 */
import { completionEventOf, makeProcessRepository, type ProcessDb } from '@fw/process-service';
import type { Expression, Kysely, Selectable, SqlBool } from 'kysely';
import type { FwProcessTable, ProcessTables } from '@fw/process-service';
import { pageOf, type Page, type PageRequest } from '../http/pagination';
import type { CompletionEventWire, ProcessDetailWire, ProcessSummaryWire } from '../openapi/admin-api-wire-types';
import { boundedCount, DEFAULT_COUNT_EXACT_LIMIT, type ResidualFilter } from './bounded-count';

/** Exact-match filters of GET /processes (ANDed). */
export interface ProcessFilter {
  processType?: string;
  /** The state id (EXECUTING, PROCESSED, ...). */
  status?: string;
  triggerId?: string;
  parentId?: string;
  predecessorId?: string;
  /** Only processes without a parent (roots); their children are listed with `parentId`. */
  rootsOnly?: boolean;
  /**
   * Free text: a process id (exact, when the text is a UUID), or a case-insensitive part of the
   * process type, description or trigger id.
   */
  text?: string;
}

/** One row of GET /processes (input and output are left to GET /processes/{id}): its answer schema's type. */
export type ProcessSummary = ProcessSummaryWire;

/** A stored ProcessCompleted event, as GET /processes/{id} answers it. */
export type CompletionEventRecord = CompletionEventWire;

/** GET /processes/{id}: the process (input, output, errors, status) and its completion events. */
export type ProcessDetail = ProcessDetailWire;

export interface ProcessQueries {
  listProcesses(tenant: string, filter: ProcessFilter, page: PageRequest): Promise<Page<ProcessSummary>>;
  /** The process with its completion events, or undefined when absent or of another tenant. */
  getProcess(tenant: string, id: string): Promise<ProcessDetail | undefined>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID in its usual text form. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export function toSummary(row: Selectable<FwProcessTable>): ProcessSummary {
  return {
    id: row.id,
    processType: row.process_type,
    leaf: row.leaf,
    status: row.state_id,
    parentId: row.parent_id,
    predecessorId: row.predecessor_id,
    triggerId: row.trigger_id,
    tenant: row.tenant,
    completedPercent: row.completed_percent,
    numSubProcesses: row.num_sub_processes,
    numCompletedSubProcesses: row.num_completed_sub_processes,
    description: row.description,
    createdTime: row.created_time.toISOString(),
    lastModifiedTime: row.last_modified_time.toISOString(),
    stateEntryTime: row.state_entry_time.toISOString(),
  };
}

/** Tuning of {@link makeProcessQueries}. */
export interface ProcessQueryOptions {
  /**
   * A total reads at most this many rows (+ 1), chosen by the filters an index serves: exact when
   * that reaches every candidate, else the planner's estimate and `totalElementsEstimated: true`
   * (default 100,000, `FW_COUNT_EXACT_LIMIT` in the admin server).
   */
  countExactLimit?: number;
}

/** The tenant's processes narrowed by the filters an index serves (parent, predecessor, trigger, roots). */
function indexedPart(db: ProcessDb, tenant: string, filter: ProcessFilter) {
  let where = db.selectFrom('fw_process').where('tenant', '=', tenant);
  if (filter.triggerId !== undefined) where = where.where('trigger_id', '=', filter.triggerId);
  if (filter.parentId !== undefined) where = where.where('parent_id', '=', filter.parentId.toLowerCase());
  if (filter.predecessorId !== undefined)
    where = where.where('predecessor_id', '=', filter.predecessorId.toLowerCase());
  if (filter.rootsOnly) where = where.where('parent_id', 'is', null);
  return where;
}

/**
 * The filters no index serves: the state (an index on it would cost every leaf's state change its
 * heap-only update), the type and the free text. Undefined when none is given.
 */
function residualPart(filter: ProcessFilter): ResidualFilter<ProcessTables, 'fw_process'> | undefined {
  const text = filter.text?.trim();
  const { processType, status } = filter;
  if (processType === undefined && status === undefined && !text) return undefined;
  const like = text ? `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : '';
  return (eb) => {
    const conditions: Expression<SqlBool>[] = [];
    if (processType !== undefined) conditions.push(eb('process_type', '=', processType));
    if (status !== undefined) conditions.push(eb('state_id', '=', status));
    if (text)
      conditions.push(
        eb.or([
          ...(isUuid(text) ? [eb('id', '=', text.toLowerCase())] : []),
          eb('process_type', 'ilike', like),
          eb('description', 'ilike', like),
          eb('trigger_id', 'ilike', like),
        ]),
      );
    return eb.and(conditions);
  };
}

/** Makes the queries over `db` (a Kysely handle over the process tables). */
export function makeProcessQueries(db: ProcessDb, options: ProcessQueryOptions = {}): ProcessQueries {
  const countLimit = options.countExactLimit ?? DEFAULT_COUNT_EXACT_LIMIT;
  const repo = makeProcessRepository();
  return {
    async listProcesses(tenant, filter, request) {
      const candidates = indexedPart(db, tenant, filter);
      const residual = residualPart(filter);
      const filtered = residual ? candidates.where(residual) : candidates;
      const [total, rows] = await Promise.all([
        boundedCount(db as Kysely<unknown>, candidates, countLimit, residual),
        filtered
          .selectAll()
          .orderBy('created_time', 'desc')
          .orderBy('seq', 'desc')
          .limit(request.size)
          .offset(request.page * request.size)
          .execute(),
      ]);
      // A page that is not full is the end of the list: the total is known exactly, whatever the count said.
      const offset = request.page * request.size;
      if (rows.length < request.size && (rows.length > 0 || offset === 0))
        return pageOf(rows.map(toSummary), offset + rows.length, request);
      return pageOf(rows.map(toSummary), total.count, request, total.estimated);
    },

    async getProcess(tenant, id) {
      const process = await repo.findById(db, id.toLowerCase());
      if (!process || process.tenant !== tenant) return undefined;
      const events = await db
        .selectFrom('fw_process_completion_event')
        .selectAll()
        .where('process_id', '=', process.id)
        .where('tenant', '=', tenant)
        .orderBy('generated_time', 'desc')
        .execute();
      return {
        ...process,
        status: process.state.stateId,
        completionEvents: events.map((e) => ({
          id: e.id,
          processId: e.process_id,
          processType: e.process_type,
          state: e.state,
          successful: e.successful,
          triggerId: e.trigger_id,
          generatedTime: e.generated_time.toISOString(),
          payload: completionEventOf(e),
        })),
      };
    },
  };
}
