/**
 * Dispatches queued workers from a fresh macrotask (`setImmediate`), at most `concurrency` at a
 * time, so the stack never grows with the tree; a finished dispatch schedules the next pump.
 * `idle()` resolves when nothing is queued, running or scheduled.
 */
import type { Logger } from '@fw/core';
import type { WorkerDto } from '@fw/process-api';
import { extractTraceContext, inMessagingSpan, parseTraceContext, type MessagingSpanOptions } from '@fw/telemetry';
import type { WorkerQueue } from './worker-queue';

/** `messaging.destination.name` of workers run in this VM (an in-memory queue, no table). */
const INVM_DESTINATION = 'fw_invm_worker_queue';

/** What runs a worker message (`BatchService` of `@fw/process-utils` satisfies it). */
export interface WorkerDispatcher {
  run(worker: WorkerDto): Promise<unknown>;
}

export interface DispatchPumpDeps {
  queue: Pick<WorkerQueue, 'take' | 'size'>;
  /** The dispatcher now (none yet: workers wait). */
  dispatcher(): WorkerDispatcher | undefined;
  concurrency: number;
  counters: { dispatched: number; failed: number };
  onDispatched?: (worker: WorkerDto, result: unknown) => void;
  onError?: (error: unknown, worker: WorkerDto) => void;
  logger: Logger;
}

export interface DispatchPump {
  /** Pumps at the next macrotask (once, however often it is called before). */
  schedule(): void;
  /** Resolves when nothing is queued, running or scheduled. */
  idle(): Promise<void>;
  /** Dispatches running now. */
  readonly inFlight: number;
}

/** The `process` span of running `worker` in this VM, a child of the launch's context. */
function processSpanOptions(worker: WorkerDto): MessagingSpanOptions {
  return {
    destination: INVM_DESTINATION,
    parent: extractTraceContext(parseTraceContext(worker.traceContext)),
    tenant: worker.tenant,
    processId: worker.processId,
    processType: worker.processType,
    workerType: worker.workerType,
    triggerId: worker.triggerId ?? undefined,
  };
}

export function makeDispatchPump(deps: DispatchPumpDeps): DispatchPump {
  const { queue, counters, logger } = deps;
  let inFlight = 0;
  let scheduled = false;
  let waiters: Array<() => void> = [];

  function settleIfIdle(): void {
    if (queue.size > 0 || inFlight > 0 || scheduled || waiters.length === 0) return;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(pump);
  }

  function pump(): void {
    scheduled = false;
    const target = deps.dispatcher();
    if (target !== undefined) {
      while (inFlight < deps.concurrency) {
        const worker = queue.take();
        if (worker === undefined) break;
        inFlight += 1;
        void dispatch(target, worker);
      }
    }
    settleIfIdle();
  }

  async function dispatch(target: WorkerDispatcher, worker: WorkerDto): Promise<void> {
    try {
      // The launch's trace continues in the worker's `process` span (a new trace without one).
      const result = await inMessagingSpan('process', processSpanOptions(worker), () => target.run(worker));
      deps.onDispatched?.(worker, result);
    } catch (error) {
      counters.failed += 1;
      logger.error(
        { err: error, processId: worker.processId, workerType: worker.workerType },
        'in-VM worker dispatch failed',
      );
      deps.onError?.(error, worker);
    } finally {
      inFlight -= 1;
      counters.dispatched += 1;
      schedule();
    }
  }

  return {
    schedule,
    idle: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        settleIfIdle();
      }),
    get inFlight() {
      return inFlight;
    },
  };
}
