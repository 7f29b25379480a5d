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

/** What runs a worker message (`BatchService` of `@fw/process-utils` satisfies it). */
export interface WorkerDispatcher {
  run(worker: WorkerDto): Promise<unknown>;
}

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
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const copy = options.copyMessages ?? true;
  let dispatcher = options.dispatcher;
  let closed = false;
  let queue: WorkerDto[] = [];
  let head = 0;
  let inFlight = 0;
  let scheduled = false;
  let waiters: Array<() => void> = [];
  const counters = { enqueued: 0, dispatched: 0, failed: 0, dropped: 0, maxQueued: 0 };

  const queued = () => queue.length - head;

  function settleIfIdle(): void {
    if (queued() > 0 || inFlight > 0 || scheduled || waiters.length === 0) return;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(pump);
  }

  function take(): WorkerDto | undefined {
    if (head >= queue.length) return undefined;
    const worker = queue[head];
    head += 1;
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
    return worker;
  }

  function pump(): void {
    scheduled = false;
    const target = dispatcher;
    if (target !== undefined) {
      while (inFlight < concurrency) {
        const worker = take();
        if (worker === undefined) break;
        inFlight += 1;
        void dispatch(target, worker);
      }
    }
    settleIfIdle();
  }

  async function dispatch(target: WorkerDispatcher, worker: WorkerDto): Promise<void> {
    try {
      const result = await target.run(worker);
      options.onDispatched?.(worker, result);
    } catch (error) {
      counters.failed += 1;
      logger.error(
        { err: error, processId: worker.processId, workerType: worker.workerType },
        'in-VM worker dispatch failed',
      );
      options.onError?.(error, worker);
    } finally {
      inFlight -= 1;
      counters.dispatched += 1;
      schedule();
    }
  }

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
    counters.maxQueued = Math.max(counters.maxQueued, queued());
    schedule();
  }

  return {
    startWorker(worker, context) {
      context.afterCommit(() => enqueue(worker));
    },
    bind(next) {
      dispatcher = next;
      schedule();
    },
    idle() {
      return new Promise<void>((resolve) => {
        waiters.push(resolve);
        settleIfIdle();
      });
    },
    stats: () => ({ ...counters, queued: queued(), inFlight }),
    async close() {
      closed = true;
      if (dispatcher === undefined) return;
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        settleIfIdle();
      });
    },
  };
}
