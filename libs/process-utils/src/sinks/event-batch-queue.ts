/**
 * The queue behind the batching event sink: events that wait for company are collected for one
 * turn of the event loop (or `maxDelayMillis`) and sent in batches of at most `maxBatch`, with at
 * most `concurrency` batches in flight; other events are sent at once, alone. Each queued event
 * is settled with its own result of the batch it went out in.
 */
/** One queued event and how to settle its delivery. */
export interface PendingEvent {
  event: { id: string; eventId: string; payload: unknown; tenant: string | null };
  resolve(): void;
  reject(error: unknown): void;
}

export interface EventBatchQueueDeps {
  /** Sends one batch in one call; answers one result per event, in order. */
  sendEvents(
    events: ReadonlyArray<PendingEvent['event']>,
  ): Promise<ReadonlyArray<{ ok: true } | { ok: false; error: unknown }>>;
  /** Most events per batch (at least 1). */
  maxBatch: number;
  /** Milliseconds the first event of a batch waits; 0 waits until the current turn of the event loop has run. */
  maxDelay: number;
  /** Batches sent at the same time (at least 1). */
  concurrency: number;
  /** Event ids that wait for company; others are sent at once, alone. */
  batchedEvents: ReadonlySet<string>;
}

export interface EventBatchQueue {
  /** Queues one event (an event that does not wait for company is sent at once, alone). */
  enqueue(pending: PendingEvent): void;
}

export function makeEventBatchQueue(deps: EventBatchQueueDeps): EventBatchQueue {
  const { maxBatch, maxDelay, concurrency, batchedEvents } = deps;
  let queue: PendingEvent[] = [];
  let scheduled = false;
  let inFlight = 0;

  /** Sends one batch; `counted` batches take one of the `concurrency` slots while they run. */
  async function send(batch: PendingEvent[], counted = true): Promise<void> {
    if (counted) inFlight++;
    try {
      const results = await deps.sendEvents(batch.map((p) => p.event));
      batch.forEach((p, i) => {
        const r = results[i];
        if (r === undefined) p.reject(new Error('sendEvents returned fewer results than events'));
        else if (r.ok) p.resolve();
        else p.reject(r.error);
      });
    } catch (error) {
      for (const p of batch) p.reject(error);
    } finally {
      if (counted) inFlight--;
      pump();
    }
  }

  /** Sends what is queued while fewer than `concurrency` batches are in flight. */
  function pump(): void {
    while (queue.length > 0 && inFlight < concurrency && !scheduled) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      void send(batch);
    }
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    const fire = () => {
      scheduled = false;
      pump();
    };
    if (maxDelay > 0) setTimeout(fire, maxDelay);
    else setImmediate(fire);
  }

  return {
    enqueue(pending) {
      if (!batchedEvents.has(pending.event.eventId)) {
        void send([pending], false);
        return;
      }
      queue.push(pending);
      if (queue.length >= maxBatch && inFlight < concurrency) {
        const batch = queue.slice(0, maxBatch);
        queue = queue.slice(batch.length);
        void send(batch);
      } else {
        schedule();
      }
    },
  };
}
