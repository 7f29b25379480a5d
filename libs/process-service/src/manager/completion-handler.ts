/**
 * What follows a process's terminal transition: its completion event, its successors, the
 * in-process listeners and its parent's counting. With the outbox these leave the transaction as
 * commands; without it (or when the caller counts inline) they run here, chaining first so the
 * parents' locks are held only for the counting.
 */
import type { Logger } from '@fw/core';
import { ProcessEvents, ProcessStates, type Process, type ProcessCompletedEvent } from '@fw/process-api';
import type { NewOutboxCommand } from '@fw/process-outbox';
import type { FwMetrics } from '@fw/telemetry';
import type { ProcessBatchRepository } from '../repository/process-batch-repository';
import { traceContextOf } from '../repository/process-trace-context';
import { completedEventOf } from './process-chaining';
import {
  ProcessCommandTypes,
  countsChildrenInline,
  type ChildReportEvent,
  type ChildReportSource,
  type CompletionListener,
  type TxContext,
} from './process-engine-types';
import type { ProcessSpawner } from './process-spawner';

/** Counts children's reports on their parent (see `ChildReportCounter.reportChildren`). */
export interface ChildReportPort {
  reportChildren(
    ctx: TxContext,
    parentId: string,
    reports: readonly ChildReportEvent[],
    source: ChildReportSource,
  ): Promise<Process | undefined>;
}

export interface CompletionHandlerDeps {
  batchRepo: Pick<ProcessBatchRepository, 'insertCompletionEvents'>;
  newId: () => string;
  logger: Logger;
  /** Read at every completion: the manager adds and removes listeners after it is made. */
  listeners: readonly CompletionListener[];
  spawner: Pick<ProcessSpawner, 'chain'>;
  reports: ChildReportPort;
  /** `fw_processes_finished_total` and `fw_process_duration_seconds`, recorded after the commit. */
  metrics?: FwMetrics;
}

interface Completion {
  process: Process;
  event: ProcessCompletedEvent;
}

export class CompletionHandler {
  constructor(private readonly deps: CompletionHandlerDeps) {}

  /**
   * Completion of processes that entered a terminal state: their completion events (one insert),
   * then either outbox commands or, inline, the parents' counting, chaining and listeners. With the
   * outbox a child's chaining and listeners travel in its CHILD_COMPLETED command (one command per
   * leaf instead of two); a root gets PROCESS_COMPLETED. `ctx.countChildrenInline` takes the inline
   * way in outbox mode too.
   */
  async completeMany(ctx: TxContext, processes: readonly Process[]): Promise<void> {
    if (processes.length === 0) return;
    if (this.deps.metrics !== undefined) recordFinished(ctx, this.deps.metrics, processes);
    const completions = processes.map((p) => ({ process: p, event: completedEventOf(p) }));
    await this.deps.batchRepo.insertCompletionEvents(
      ctx.trx,
      completions.map(({ event }) => ({ id: this.deps.newId(), event, time: ctx.now })),
    );
    if (ctx.commands && !countsChildrenInline(ctx)) queueCommands(ctx.commands, completions);
    else await this.completeInline(ctx, completions);
  }

  /** Calls every listener after the commit; a failing listener is logged, never the caller's error. */
  notifyAfterCommit(ctx: TxContext, event: ProcessCompletedEvent): void {
    const failed = (err: unknown): void =>
      this.deps.logger.error(
        { err, processId: event.processId },
        'ProcessCompleted listener failed (best-effort delivery)',
      );
    for (const listener of this.deps.listeners) {
      // A listener that returns no promise is called without making one (thousands per second on a fan-out).
      ctx.afterCommit(() => {
        try {
          const done = listener(event) as unknown;
          if (typeof (done as PromiseLike<void> | undefined)?.then === 'function')
            return Promise.resolve(done).then(undefined, failed);
        } catch (err) {
          failed(err);
        }
        return undefined;
      });
    }
  }

  private async completeInline(ctx: TxContext, completions: readonly Completion[]): Promise<void> {
    // Chaining and listeners first: they do not need the parents, whose locks are then held only
    // for the counting and the commit (many transactions count on one parent).
    for (const { event } of completions) {
      if (ctx.defs.successorsOf(event.processType).length > 0) await this.deps.spawner.chain(ctx, event);
      this.notifyAfterCommit(ctx, event);
    }
    const byParent = new Map<string, ChildReportEvent[]>();
    for (const { process } of completions) {
      if (process.parentId === null) continue;
      const list = byParent.get(process.parentId) ?? [];
      list.push(childReportOf(process));
      byParent.set(process.parentId, list);
    }
    // Parents in id order, so two transactions counting on the same parents lock them alike.
    for (const parentId of [...byParent.keys()].sort())
      await this.deps.reports.reportChildren(ctx, parentId, byParent.get(parentId) ?? [], 'inline');
  }
}

/** Counts the processes' terminal states once the transaction has committed (a rollback counts nothing). */
function recordFinished(ctx: TxContext, metrics: FwMetrics, processes: readonly Process[]): void {
  const now = ctx.now.getTime();
  // The children of one split batch were created at one time and finish in the same batches: one
  // parse per run of equal creation times instead of one per process.
  let createdText: string | undefined;
  let createdMillis = 0;
  const createdAt = (p: Process) =>
    p.createdTime === createdText
      ? createdMillis
      : ((createdText = p.createdTime), (createdMillis = Date.parse(p.createdTime)));
  const finished = processes.map((p) => ({
    series: metrics.processSeries(p),
    outcome: p.state.stateId === ProcessStates.PROCESSED ? ('success' as const) : ('errors' as const),
    durationSeconds: Math.max(0, (now - createdAt(p)) / 1000),
  }));
  ctx.afterCommit(() => {
    for (const f of finished) f.series.finished(f.outcome, f.durationSeconds);
  });
}

/** Outbox mode: a child's completion becomes its CHILD_COMPLETED command, a root's a PROCESS_COMPLETED. */
function queueCommands(commands: NewOutboxCommand[], completions: readonly Completion[]): void {
  for (const { process, event } of completions) {
    if (process.parentId !== null) {
      commands.push({
        commandType: ProcessCommandTypes.CHILD_COMPLETED,
        groupKey: process.parentId,
        processId: process.parentId,
        tenant: process.tenant,
        payload: { parentId: process.parentId, ...childReportOf(process), event },
        traceContext: traceContextOf(process),
      });
    } else {
      commands.push({
        commandType: ProcessCommandTypes.PROCESS_COMPLETED,
        processId: process.id,
        tenant: process.tenant,
        payload: { event },
        traceContext: traceContextOf(process),
      });
    }
  }
}

/** The event a finished child sends its parent. */
export function childReportOf(child: Process): ChildReportEvent {
  if (child.state.stateId === ProcessStates.PROCESSED) {
    return {
      eventId: ProcessEvents.subProcessDoneSuccessfully,
      payload: { childId: child.id, output: child.output },
    };
  }
  const last = child.errors[child.errors.length - 1];
  return {
    eventId: ProcessEvents.subProcessDoneWithErrors,
    payload: {
      childId: child.id,
      errors: child.errors.flatMap((e) => e.errors),
      exceptionMessage: last?.exceptionMessage ?? null,
      stackTrace: last?.stackTrace ?? null,
    },
  };
}
