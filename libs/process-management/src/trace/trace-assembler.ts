/**
 * Turns the processes of a trace into its graph: reads their completion events, looks up the
 * execution history of their trigger ids (at most {@link TRIGGER_LOOKUPS} of them) and hands
 * everything to the trace builder.
 */
import type { ProcessDb } from '@fw/process-service';
import { sql } from 'kysely';
import { executionView } from '../http/answer-views';
import type { ExecutionRecord } from '../ports/management-ports';
import { buildTrace, type TraceCompletionRow, type TraceGraph, type TraceTriggerInfo } from './trace-builder';
import { toTraceProcessRow, traceTooLarge, type TraceRow } from './trace-rows';

/** Trigger ids whose execution history is looked up (more are shown as bare trigger nodes). */
const TRIGGER_LOOKUPS = 20;

export interface TraceAssemblerDeps {
  db: ProcessDb;
  /** Most completion events the graph may hold; more fail with 413. */
  limit: number;
  /** The executions of a trigger id in the tenant, newest first. */
  executionsOf(tenant: string, triggerId: string): Promise<ExecutionRecord[]>;
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

async function completionsOf(
  { db, limit }: TraceAssemblerDeps,
  tenant: string,
  ids: readonly string[],
): Promise<TraceCompletionRow[]> {
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
  if (events.length > limit) throw traceTooLarge(limit);
  return events.map((e) => ({
    id: e.id,
    processId: e.process_id,
    processType: e.process_type,
    state: e.state,
    successful: e.successful,
    generatedTime: e.generated_time.toISOString(),
  }));
}

/** The graph of `rows`; `knownTriggers` are trigger ids whose executions were already read. */
export async function assembleTrace(
  deps: TraceAssemblerDeps,
  tenant: string,
  rows: readonly TraceRow[],
  knownTriggers: ReadonlyMap<string, ExecutionRecord[]>,
): Promise<TraceGraph> {
  const completions = await completionsOf(
    deps,
    tenant,
    rows.map((r) => r.id),
  );
  const triggerIds = new Set<string>(knownTriggers.keys());
  for (const r of rows) if (r.trigger_id !== null) triggerIds.add(r.trigger_id);
  const triggers: TraceTriggerInfo[] = [];
  let lookups = 0;
  for (const triggerId of triggerIds) {
    const given = knownTriggers.get(triggerId);
    const executions = given ?? (lookups++ < TRIGGER_LOOKUPS ? await deps.executionsOf(tenant, triggerId) : []);
    triggers.push(triggerInfo(triggerId, executions));
  }
  return buildTrace({ processes: rows.map(toTraceProcessRow), completions, triggers });
}
