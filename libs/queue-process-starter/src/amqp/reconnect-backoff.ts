/**
 * The wait before the next try to reach the broker, shared by the consumer's reconnect loop and the
 * publisher's retries: capped exponential backoff with jitter. Attempt n waits a random time between
 * half and all of `min(base · 2^(n−1), max)`, so consumers and publishers that lost the same broker
 * do not all come back in the same millisecond.
 *
 * @example
 * const delay = normalizeBackoff({ baseMillis: 100, maxMillis: 5_000 });
 * backoffMillis(1, delay); // 50..100
 * backoffMillis(9, delay); // 2 500..5 000
 */

/** Capped exponential backoff: `baseMillis` doubling per attempt up to `maxMillis`. */
export interface BackoffDelay {
  baseMillis?: number;
  maxMillis?: number;
}

/** 100 ms doubling to 5 s. */
export const DEFAULT_RECONNECT_DELAY: Readonly<Required<BackoffDelay>> = { baseMillis: 100, maxMillis: 5_000 };

/** The delay with defaults filled in; at least 1 ms (a zero delay would spin against a broker that is down). */
export function normalizeBackoff(
  delay: BackoffDelay | undefined,
  defaults: Required<BackoffDelay> = DEFAULT_RECONNECT_DELAY,
): Required<BackoffDelay> {
  const baseMillis = Math.max(1, delay?.baseMillis ?? defaults.baseMillis);
  return { baseMillis, maxMillis: Math.max(baseMillis, delay?.maxMillis ?? defaults.maxMillis) };
}

/** The wait before attempt `attempt` (1 for the first retry), jittered into its upper half. */
export function backoffMillis(
  attempt: number,
  delay: Required<BackoffDelay>,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(delay.maxMillis, delay.baseMillis * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
