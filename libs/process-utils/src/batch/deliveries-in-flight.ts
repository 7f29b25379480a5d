/**
 * A bound on event deliveries running at once, used for a splitter's partial batches: while one
 * batch's transaction inserts its children, the next is already on its way.
 */

/**
 * Up to `limit` deliveries at once. `add` waits while `limit` are running; `drain` waits for all.
 * A failure is rethrown (at the next `add`, or at `drain`) only once every delivery still running
 * has settled, so what was delivered is known before the step's failure is handled. `settle` waits
 * for every running delivery without throwing (before another error leaves the splitter).
 */
export interface DeliveriesInFlight {
  add(delivery: Promise<void>): Promise<void>;
  drain(): Promise<void>;
  settle(): Promise<void>;
}

/** Makes an empty set of deliveries in flight, at most `limit` at a time. */
export function deliveriesInFlight(limit: number): DeliveriesInFlight {
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  const settle = async (): Promise<void> => {
    await Promise.all(running);
  };
  const rethrow = async (): Promise<void> => {
    if (failure === undefined) return;
    await settle();
    throw failure.error;
  };
  return {
    async add(delivery) {
      const tracked: Promise<void> = delivery.then(
        () => void running.delete(tracked),
        (error: unknown) => {
          running.delete(tracked);
          failure ??= { error };
        },
      );
      running.add(tracked);
      while (running.size >= limit && failure === undefined) await Promise.race(running);
      await rethrow();
    },
    async drain() {
      await settle();
      await rethrow();
    },
    settle,
  };
}
