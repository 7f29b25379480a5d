/**
 * The in-process WorkerStarter (the in-process launch mode). `startWorker` registers the
 * worker with the transaction's `afterCommit`, so nothing runs for a state change that rolls
 * back; after the commit the worker is queued and dispatched from a fresh macrotask
 * (`setImmediate`), at most `concurrency` at a time. A fan-out of 10,000 children therefore
 * queues 10,000 entries instead of nesting 10,000 calls: the stack never grows with the tree.
 *
 * @example
 * const starter = makeInVmProcessStarter({ concurrency: 4 });
 * const manager = makeProcessManager({ db, configurator, workerStarter: starter });
 * starter.bind(makeBatchService({ workers, sink: makeManagerEventSink(manager) }));
 * await manager.createProcess({ processDefName: 'import', args: {} });
 * await starter.idle(); // every worker of the tree has run
 */
import { createLogger, type Logger } from '@fw/core';
import type { WorkerDto, WorkerStarter } from '@fw/process-api';
import { makeDispatchPump, type WorkerDispatcher } from './dispatch-pump';
import { makeWorkerQueue } from './worker-queue';

export type { WorkerDispatcher } from './dispatch-pump';

export interface InVmProcessStarterOptions {
  /** The dispatcher; it can also be given later with `bind` (the dispatcher usually needs the manager, which needs the starter). */
  dispatcher?: WorkerDispatcher;
  /** Workers running at the same time (default 1; at least 1). */
  concurrency?: number;
  /** Hand each worker a deep copy of the WorkerDto (default true), as a real transport would. */
  copyMessages?: boolean;
  /** Called with each dispatch's result (for example a `WorkerOutcome`). */
  onDispatched?: (worker: WorkerDto, result: unknown) => void;
  /** Called when a dispatch rejects (it is also logged). */
  onError?: (error: unknown, worker: WorkerDto) => void;
  logger?: Logger;
}

export interface InVmStarterStats {
  /** Workers queued after their transaction committed. */
  enqueued: number;
  /** Dispatches that finished (resolved or rejected). */
  dispatched: number;
  /** Dispatches that rejected. */
  failed: number;
  /** Workers dropped because the starter was closed. */
  dropped: number;
  /** Waiting in the queue now. */
  queued: number;
  /** Running now. */
  inFlight: number;
  /** Longest the queue has been. */
  maxQueued: number;
}

export interface InVmProcessStarter extends WorkerStarter<unknown> {
  /** Sets (or replaces) the dispatcher; queued workers start. */
  bind(dispatcher: WorkerDispatcher): void;
  /**
   * Resolves when nothing is queued or running. Since a dispatch finishes only after the events it
   * raised committed (and queued their workers), this is the quiescence of the whole tree.
   */
  idle(): Promise<void>;
  stats(): InVmStarterStats;
  /** Stops accepting workers (later launches are dropped and logged) and waits for `idle()`. */
  close(): Promise<void>;
}

/** Makes the in-process starter. */
export function makeInVmProcessStarter(options: InVmProcessStarterOptions = {}): InVmProcessStarter {
  const logger = options.logger ?? createLogger({ name: 'invm-process-starter' });
  const copy = options.copyMessages ?? true;
  let dispatcher = options.dispatcher;
  let closed = false;
  const queue = makeWorkerQueue();
  const counters = { enqueued: 0, dispatched: 0, failed: 0, dropped: 0, maxQueued: 0 };
  const pump = makeDispatchPump({
    queue,
    dispatcher: () => dispatcher,
    concurrency: Math.max(1, Math.floor(options.concurrency ?? 1)),
    counters,
    onDispatched: options.onDispatched,
    onError: options.onError,
    logger,
  });

  function enqueue(worker: WorkerDto): void {
    if (closed) {
      counters.dropped += 1;
      logger.warn(
        { processId: worker.processId, workerType: worker.workerType },
        'in-VM starter closed: worker dropped',
      );
      return;
    }
    queue.push(copy ? structuredClone(worker) : worker);
    counters.enqueued += 1;
    counters.maxQueued = Math.max(counters.maxQueued, queue.size);
    pump.schedule();
  }

  return {
    startWorker(worker, context) {
      context.afterCommit(() => enqueue(worker));
    },
    bind(next) {
      dispatcher = next;
      pump.schedule();
    },
    idle: () => pump.idle(),
    stats: () => ({ ...counters, queued: queue.size, inFlight: pump.inFlight }),
    async close() {
      closed = true;
      if (dispatcher === undefined) return;
      await pump.idle();
    },
  };
}
