/**
 * The internals shared by the manager's calls and the outbox command handlers: new processes,
 * events applied to locked processes, children, completion, parent counting and chaining, all
 * inside one {@link TxContext}. With the outbox the consequences that leave the process row
 * (worker launches, parent signals, completion delivery) become outbox commands written in the
 * same transaction; without it they run inline, as before.
 *
 * The parts call each other in a cycle (an event completes a child, whose parent counts it by
 * applying an event), so each gets the others as small ports and this factory ties the knot.
 */
import type { Process, ProcessCompletedEvent, ProcessDef, SubProcessRequest, WorkerDto } from '@fw/process-api';
import { makeProcessBatchRepository } from '../repository/process-batch-repository';
import type { ProcessDb } from '../repository/process-tables';
import { ChildReportCounter } from './child-report-counter';
import { CompletionHandler } from './completion-handler';
import { EventApplier } from './event-applier';
import type {
  BatchedEvent,
  ChildReportEvent,
  ChildReportSource,
  NewProcessInit,
  ProcessEngineDeps,
  TxContext,
} from './process-engine-types';
import { ProcessSpawner } from './process-spawner';
import { WorkerLauncher } from './worker-launcher';

export { ProcessCommandTypes, notFound, unknownType } from './process-engine-types';
export type {
  BatchedEvent,
  BatchWorkerStarter,
  ChildReportEvent,
  ChildReportSource,
  CompletionListener,
  NewProcessInit,
  ProcessEngineDeps,
  TxContext,
} from './process-engine-types';

/** What the manager, the event batch sender and the outbox handlers call; see the parts for each. */
export interface ProcessEngine {
  newProcess(ctx: TxContext, def: ProcessDef, init: NewProcessInit): Process;
  workerOf(ctx: TxContext, process: Process): WorkerDto | undefined;
  startWorkerNow(ctx: TxContext, worker: WorkerDto): Promise<void>;
  startWorkersNow(ctx: TxContext, workers: readonly WorkerDto[], owned?: boolean): Promise<void>;
  deliverWorkerNow(db: ProcessDb, worker: WorkerDto): Promise<void>;
  startProcesses(ctx: TxContext, processes: Process[]): Promise<Set<string>>;
  insertChildrenEarly(ctx: TxContext, parent: Process, requests: readonly SubProcessRequest[]): Promise<void>;
  applyEvents(
    ctx: TxContext,
    process: Process,
    events: ReadonlyArray<{ eventId: string; payload: unknown }>,
  ): Promise<void>;
  applyEventBatch(ctx: TxContext, batch: readonly BatchedEvent[]): Promise<Map<string, unknown>>;
  reportChildren(
    ctx: TxContext,
    parentId: string,
    given: readonly ChildReportEvent[],
    source: ChildReportSource,
  ): Promise<Process | undefined>;
  chain(ctx: TxContext, event: ProcessCompletedEvent): Promise<Process[]>;
  notifyAfterCommit(ctx: TxContext, event: ProcessCompletedEvent): void;
}

export function makeProcessEngine(deps: ProcessEngineDeps): ProcessEngine {
  const { repo, logger, newId } = deps;
  const batchRepo = makeProcessBatchRepository();
  const launcher = new WorkerLauncher({ repo, workerStarter: deps.workerStarter });
  const spawner = new ProcessSpawner({ repo, newId, launcher, metrics: deps.metrics });
  // `reports` is made below: the completion handler reaches it only once a call runs.
  const completion: CompletionHandler = new CompletionHandler({
    batchRepo,
    newId,
    logger,
    listeners: deps.listeners,
    metrics: deps.metrics,
    spawner,
    reports: {
      reportChildren: (ctx, parentId, given, source) => reports.reportChildren(ctx, parentId, given, source),
    },
  });
  const applier = new EventApplier({ repo, batchRepo, steps: spawner, launcher, completion });
  const reports: ChildReportCounter = new ChildReportCounter({ repo, logger, applier });

  return {
    newProcess: (ctx, def, init) => spawner.newProcess(ctx, def, init),
    workerOf: (ctx, process) => launcher.workerOf(ctx, process),
    startWorkerNow: (ctx, worker) => launcher.startWorkerNow(ctx, worker),
    startWorkersNow: (ctx, workers, owned) => launcher.startWorkersNow(ctx, workers, owned),
    deliverWorkerNow: (db, worker) => launcher.deliverWorkerNow(db, worker),
    startProcesses: (ctx, processes) => spawner.startProcesses(ctx, processes),
    insertChildrenEarly: (ctx, parent, requests) => spawner.insertChildrenEarly(ctx, parent, requests),
    applyEvents: (ctx, process, events) => applier.applyEvents(ctx, process, events),
    applyEventBatch: (ctx, batch) => applier.applyEventBatch(ctx, batch),
    reportChildren: (ctx, parentId, given, source) => reports.reportChildren(ctx, parentId, given, source),
    chain: (ctx, event) => spawner.chain(ctx, event),
    notifyAfterCommit: (ctx, event) => completion.notifyAfterCommit(ctx, event),
  };
}
