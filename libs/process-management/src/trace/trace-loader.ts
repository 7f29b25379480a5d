/**
 * Loads the connected execution graph of one process or one trigger id, tenant-scoped, from
 * stored ids only: starting from the process (or every process carrying the trigger id), it adds
 * in rounds the parents, children, predecessors, successors and the processes sharing a trigger
 * id, until nothing new is found. More than {@link TRACE_LIMIT} processes or completion events
 * fail with 413 (the caller pages through /processes instead).
 *
 * @example
 * const loader = makeTraceLoader({ db, triggerService });
 * const graph = await loader.byTrigger('acme', 'manual:acme:nightly');
 */
import type { ProcessDb } from '@fw/process-service';
import { sql, type Selectable } from 'kysely';
import type { FwProcessTable } from '@fw/process-service';
import { managementError, ManagementErrorCodes, notFound } from '../http/management-errors';
import { executionView } from '../http/answer-views';
import type { ExecutionRecord, TriggerServicePort } from '../ports/management-ports';
import {
  buildTrace,
  type TraceCompletionRow,
  type TraceGraph,
  type TraceProcessRow,
  type TraceTriggerInfo,
} from './trace-builder';

/** Most processes, and most completion events, one trace may hold. */
export const TRACE_LIMIT = 1000;

/** Trigger ids whose execution history is looked up (more are shown as bare trigger nodes). */
const TRIGGER_LOOKUPS = 20;

export interface TraceLoaderOptions {
  db: ProcessDb;
  triggerService?: TriggerServicePort;
  /** Default {@link TRACE_LIMIT}. */
  limit?: number;
}

export interface TraceLoader {
  /** 404 when the process is absent or of another tenant. */
  byProcess(tenant: string, processId: string): Promise<TraceGraph>;
  /** 404 when neither a process nor an execution carries the trigger id in this tenant. */
  byTrigger(tenant: string, triggerId: string): Promise<TraceGraph>;
}

type Row = Pick<
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

const COLUMNS = [
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

function toRow(r: Row): TraceProcessRow {
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

function tooLarge(limit: number): Error {
  return managementError(
    413,
    ManagementErrorCodes.tooLarge,
    `The execution has more than ${limit} processes or events: page through /processes instead`,
  );
}

function triggerInfo(triggerId: string, executions: readonly ExecutionRecord[]): TraceTriggerInfo {
  const latest = executions[0];
  if (!latest) return { triggerId, status: null, time: null, data: {} };
  return {
    triggerId,
    status: latest.status,
    time: latest.receivedTime,
    data: { executions: executions.length, latestExecution: executionView(latest) },
  };
}

export function makeTraceLoader(options: TraceLoaderOptions): TraceLoader {
  const { db, triggerService } = options;
  const limit = options.limit ?? TRACE_LIMIT;

  async function executionsOf(tenant: string, triggerId: string): Promise<ExecutionRecord[]> {
    if (!triggerService) return [];
    return (await triggerService.listExecutions({ tenant, triggerId }, { page: 0, size: 100 })).content;
  }

  /** Expands `start` to its connected component. */
  async function expand(tenant: string, start: readonly Row[], startTriggers: readonly string[]): Promise<Row[]> {
    const known = new Map<string, Row>();
    const triggers = new Set<string>(startTriggers);
    let frontier: Row[] = [...start];
    for (const r of start) known.set(r.id, r);
    if (known.size > limit) throw tooLarge(limit);
    let newTriggers = new Set<string>();
    for (const r of start) if (r.trigger_id !== null && !triggers.has(r.trigger_id)) newTriggers.add(r.trigger_id);
    for (const t of newTriggers) triggers.add(t);
    while (frontier.length > 0 || newTriggers.size > 0) {
      const frontierIds = frontier.map((r) => r.id);
      const upward = new Set<string>();
      for (const r of frontier) {
        if (r.parent_id !== null && !known.has(r.parent_id)) upward.add(r.parent_id);
        if (r.predecessor_id !== null && !known.has(r.predecessor_id)) upward.add(r.predecessor_id);
      }
      const rows = await db
        .selectFrom('fw_process')
        .select(COLUMNS)
        .where('tenant', '=', tenant)
        .where((eb) =>
          eb.or([
            sql<boolean>`id = any(${[...upward]}::uuid[])`,
            sql<boolean>`parent_id = any(${frontierIds}::uuid[])`,
            sql<boolean>`predecessor_id = any(${frontierIds}::uuid[])`,
            sql<boolean>`trigger_id = any(${[...newTriggers]}::text[])`,
          ]),
        )
        .where(sql<boolean>`not (id = any(${[...known.keys()]}::uuid[]))`)
        .limit(limit - known.size + 1)
        .execute();
      frontier = [];
      newTriggers = new Set<string>();
      for (const r of rows) {
        if (known.has(r.id)) continue;
        known.set(r.id, r);
        frontier.push(r);
        if (r.trigger_id !== null && !triggers.has(r.trigger_id)) {
          triggers.add(r.trigger_id);
          newTriggers.add(r.trigger_id);
        }
      }
      if (known.size > limit) throw tooLarge(limit);
    }
    return [...known.values()];
  }

  async function graphOf(
    tenant: string,
    rows: readonly Row[],
    extraTriggers: ReadonlyMap<string, ExecutionRecord[]>,
  ): Promise<TraceGraph> {
    const ids = rows.map((r) => r.id);
    const events =
      ids.length === 0
        ? []
        : await db
            .selectFrom('fw_process_completion_event')
            .select(['id', 'process_id', 'process_type', 'state', 'successful', 'generated_time'])
            .where('tenant', '=', tenant)
            .where(sql<boolean>`process_id = any(${ids}::uuid[])`)
            .limit(limit + 1)
            .execute();
    if (events.length > limit) throw tooLarge(limit);
    const completions: TraceCompletionRow[] = events.map((e) => ({
      id: e.id,
      processId: e.process_id,
      processType: e.process_type,
      state: e.state,
      successful: e.successful,
      generatedTime: e.generated_time.toISOString(),
    }));
    const triggerIds = new Set<string>(extraTriggers.keys());
    for (const r of rows) if (r.trigger_id !== null) triggerIds.add(r.trigger_id);
    const triggers: TraceTriggerInfo[] = [];
    let lookups = 0;
    for (const triggerId of triggerIds) {
      const given = extraTriggers.get(triggerId);
      const executions = given ?? (lookups++ < TRIGGER_LOOKUPS ? await executionsOf(tenant, triggerId) : []);
      triggers.push(triggerInfo(triggerId, executions));
    }
    return buildTrace({ processes: rows.map(toRow), completions, triggers });
  }

  return {
    async byProcess(tenant, processId) {
      const start = await db
        .selectFrom('fw_process')
        .select(COLUMNS)
        .where('tenant', '=', tenant)
        .where('id', '=', processId.toLowerCase())
        .executeTakeFirst();
      if (!start) throw notFound(`No process ${processId} in tenant ${tenant}`);
      return graphOf(tenant, await expand(tenant, [start], []), new Map());
    },

    async byTrigger(tenant, triggerId) {
      const executions = await executionsOf(tenant, triggerId);
      const start = await db
        .selectFrom('fw_process')
        .select(COLUMNS)
        .where('tenant', '=', tenant)
        .where('trigger_id', '=', triggerId)
        .limit(limit + 1)
        .execute();
      if (start.length === 0 && executions.length === 0)
        throw notFound(`No execution of trigger ${triggerId} in tenant ${tenant}`);
      return graphOf(tenant, await expand(tenant, start, [triggerId]), new Map([[triggerId, executions]]));
    },
  };
}
