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
import { notFound } from '../http/management-errors';
import type { ExecutionRecord, TriggerServicePort } from '../ports/management-ports';
import { assembleTrace } from './trace-assembler';
import type { TraceGraph } from './trace-builder';
import { expandTrace } from './trace-expander';
import { TRACE_COLUMNS } from './trace-rows';

/** Most processes, and most completion events, one trace may hold. */
export const TRACE_LIMIT = 1000;

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

/**
 * Makes the loader: a start (a process, or the processes and executions of a trigger id) is
 * expanded by {@link expandTrace} and turned into a graph by {@link assembleTrace}.
 */
export function makeTraceLoader(options: TraceLoaderOptions): TraceLoader {
  const { db, triggerService } = options;
  const limit = options.limit ?? TRACE_LIMIT;

  async function executionsOf(tenant: string, triggerId: string): Promise<ExecutionRecord[]> {
    if (!triggerService) return [];
    return (await triggerService.listExecutions({ tenant, triggerId }, { page: 0, size: 100 })).content;
  }
  const expander = { db, limit };
  const assembler = { db, limit, executionsOf };

  return {
    async byProcess(tenant, processId) {
      const start = await db
        .selectFrom('fw_process')
        .select(TRACE_COLUMNS)
        .where('tenant', '=', tenant)
        .where('id', '=', processId.toLowerCase())
        .executeTakeFirst();
      if (!start) throw notFound(`No process ${processId} in tenant ${tenant}`);
      return assembleTrace(assembler, tenant, await expandTrace(expander, tenant, [start], []), new Map());
    },

    async byTrigger(tenant, triggerId) {
      const executions = await executionsOf(tenant, triggerId);
      const start = await db
        .selectFrom('fw_process')
        .select(TRACE_COLUMNS)
        .where('tenant', '=', tenant)
        .where('trigger_id', '=', triggerId)
        .limit(limit + 1)
        .execute();
      if (start.length === 0 && executions.length === 0)
        throw notFound(`No execution of trigger ${triggerId} in tenant ${tenant}`);
      const rows = await expandTrace(expander, tenant, start, [triggerId]);
      return assembleTrace(assembler, tenant, rows, new Map([[triggerId, executions]]));
    },
  };
}
