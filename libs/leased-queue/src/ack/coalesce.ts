/**
 * Coalesces calls made during one turn of the event loop into one batched call: a consumer's
 * items finish together (their events are delivered in one batch), so their acknowledgements
 * become one statement instead of one round trip each (each still fenced by its own claim token).
 *
 * @example
 * const complete = coalesce((claims: Claim[]) => queue.complete(db, claims).then((done) => claims.map((c) => done.has(c.id))));
 * const ok = await complete(claim); // one `update … where id = any(…)` for every claim completed this turn
 */

/** Makes a function whose calls of one event-loop turn are flushed together through `flush`. */
export function coalesce<I, O>(flush: (inputs: I[]) => Promise<O[]>): (input: I) => Promise<O> {
  let pending: Array<{ input: I; resolve(value: O): void; reject(error: unknown): void }> = [];
  let scheduled = false;

  async function run(): Promise<void> {
    scheduled = false;
    const batch = pending;
    pending = [];
    try {
      const outputs = await flush(batch.map((p) => p.input));
      batch.forEach((p, i) => p.resolve(outputs[i]));
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }

  return (input) =>
    new Promise<O>((resolve, reject) => {
      pending.push({ input, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => void run());
      }
    });
}
