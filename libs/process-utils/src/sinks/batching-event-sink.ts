/**
 * A {@link ProcessEventSink} that coalesces the events delivered at about the same time (within
 * one turn of the event loop, or `maxDelayMillis`) into ONE `sendEvents` call of the manager: one
 * transaction and a handful of set-based statements for a whole batch of workers instead of one
 * transaction per event. Each `deliver` still resolves or rejects with its own event's outcome
 * (so the batch service classifies refusals exactly as with {@link makeManagerEventSink}).
 *
 * @example
 * const sink = makeBatchingEventSink(manager, { maxBatch: 500 });
 * const batchService = makeBatchService({ workers, sink });
 * // a runner running 256 items at once now reports their doneSuccessfully in one transaction
 */
import { ProcessEvents } from '@fw/process-api';
import { childResultsLoaderOf, type ProcessEventSink } from '../ports/process-event-sink';
import { makeEventBatchQueue } from './event-batch-queue';

/** What the batching sink needs from the manager (`ProcessManager` of `@fw/process-service` satisfies it). */
export interface BatchProcessEventReceiver {
  sendEvents(
    events: ReadonlyArray<{ id: string; eventId: string; payload?: unknown; tenant?: string | null }>,
  ): Promise<ReadonlyArray<{ ok: true } | { ok: false; error: unknown }>>;
}

export interface BatchingEventSinkOptions {
  /** Most events per `sendEvents` call (default 500); a full batch is sent at once. */
  maxBatch?: number;
  /**
   * How long the first event of a batch waits for company (default 0: until the current turn of
   * the event loop has run, i.e. `setImmediate`). A larger value makes bigger batches of workers
   * that finish at slightly different times, at the cost of latency.
   */
  maxDelayMillis?: number;
  /** Batches sent at the same time (default 2): the next batch fills while one commits. */
  concurrency?: number;
  /**
   * Events that wait for company (default: the step results of executors and aggregators and
   * statusUpdate). Others (a split's batches of children, child reports) are sent at once, alone:
   * they are big, rare and gate the creation of more work, so they never queue behind leaves.
   */
  batchedEvents?: ReadonlySet<string>;
}

const DEFAULT_BATCHED: ReadonlySet<string> = new Set([
  ProcessEvents.doneSuccessfully,
  ProcessEvents.doneWithErrors,
  ProcessEvents.statusUpdate,
  ProcessEvents.aggregationDone,
  ProcessEvents.aggregationDoneWithErrors,
  ProcessEvents.splitDoneWithErrors,
]);

const OK = { ok: true } as const;

/** Makes the batching sink: its deliveries go through one {@link makeEventBatchQueue} queue. */
export function makeBatchingEventSink(
  receiver: BatchProcessEventReceiver,
  options: BatchingEventSinkOptions = {},
): ProcessEventSink {
  const { enqueue } = makeEventBatchQueue({
    sendEvents: (events) => receiver.sendEvents(events),
    maxBatch: Math.max(1, Math.floor(options.maxBatch ?? 500)),
    maxDelay: Math.max(0, options.maxDelayMillis ?? 0),
    concurrency: Math.max(1, Math.floor(options.concurrency ?? 2)),
    batchedEvents: options.batchedEvents ?? DEFAULT_BATCHED,
  });

  const loadChildResults = childResultsLoaderOf(receiver);
  return {
    ...(loadChildResults ? { loadChildResults } : {}),
    deliver(processId, eventId, payload, tenant) {
      return new Promise<void>((resolve, reject) =>
        enqueue({ event: { id: processId, eventId, payload, tenant }, resolve, reject }),
      );
    },
    // The events join the same queue (and batches) as single deliveries; one promise for them all.
    deliverMany(events) {
      return new Promise((resolveAll) => {
        const results = new Array<{ ok: true } | { ok: false; error: unknown }>(events.length);
        let left = events.length;
        const settle = (i: number, result: { ok: true } | { ok: false; error: unknown }) => {
          results[i] = result;
          if (--left === 0) resolveAll(results);
        };
        if (left === 0) resolveAll(results);
        events.forEach((e, i) =>
          enqueue({
            event: { id: e.processId, eventId: e.eventId, payload: e.payload, tenant: e.tenant },
            resolve: () => settle(i, OK),
            reject: (error) => settle(i, { ok: false, error }),
          }),
        );
      });
    },
  };
}
