/**
 * A time bound on one benchmark run: a peer whose work never finishes (a flow insert that never
 * commits) must end as "did not finish within N s" instead of holding the whole comparison.
 *
 * @example
 * const deadline = startDeadline(600);
 * try {
 *   await deadline.race(producer.add(flow));
 * } catch (err) {
 *   if (err instanceof DidNotFinishError) print(err.message); // did not finish within 600 s
 * } finally {
 *   deadline.clear();
 * }
 */

/** Thrown by {@link RunDeadline.race} once the bound has passed. */
export class DidNotFinishError extends Error {
  constructor(readonly withinSeconds: number) {
    super(`did not finish within ${formatSeconds(withinSeconds)} s`);
    this.name = 'DidNotFinishError';
  }
}

/** `600`, `0.5`: whole seconds without decimals, shorter bounds as given. */
export function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : String(Number(seconds.toPrecision(3)));
}

export interface RunDeadline {
  /** True once the bound has passed. */
  readonly expired: boolean;
  /** Settles like `work`, or rejects with {@link DidNotFinishError} when the bound passes first. */
  race<T>(work: Promise<T>): Promise<T>;
  /** Stops the timer (the run is over either way). */
  clear(): void;
}

/** Starts a bound of `seconds`; `undefined` is no bound (`race` returns `work` as it is). */
export function startDeadline(seconds: number | undefined): RunDeadline {
  if (seconds === undefined) return { expired: false, race: (work) => work, clear: () => undefined };
  let expired = false;
  let reject: (error: Error) => void = () => undefined;
  const passed = new Promise<never>((_resolve, rej) => (reject = rej));
  // Nobody may be racing when the bound passes: that is not an unhandled rejection.
  passed.catch(() => undefined);
  const timer = setTimeout(() => {
    expired = true;
    reject(new DidNotFinishError(seconds));
  }, seconds * 1000);
  return {
    get expired() {
      return expired;
    },
    race<T>(work: Promise<T>): Promise<T> {
      // The losing `work` may still reject later (its connection ended by the cleanup).
      work.catch(() => undefined);
      return Promise.race([work, passed]);
    },
    clear: () => clearTimeout(timer),
  };
}

/** Waits for `work` at most `millis`; resolves either way (for closing what a stuck run left open). */
export async function settleWithin(work: Promise<unknown>, millis: number): Promise<'settled' | 'timed out'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timed out'>((resolve) => (timer = setTimeout(() => resolve('timed out'), millis)));
  try {
    return await Promise.race([
      work.then(
        () => 'settled' as const,
        () => 'settled' as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
