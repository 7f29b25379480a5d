/**
 * Retry delays of failed attempts (exponential, capped).
 *
 * @example
 * const delay = exponentialBackoff({ baseMillis: 1000, maxMillis: 60_000 });
 * delay(1); // 1000 (after the first failed attempt)
 * delay(3); // 4000
 */

/** Delay before the next attempt, given the number of attempts made so far (1 after the first). */
export type BackoffPolicy = (attempts: number) => number;

export interface ExponentialBackoffOptions {
  /** Delay after the first failed attempt (default 1000 ms). */
  baseMillis?: number;
  /** Upper bound of any delay (default 300 000 ms). */
  maxMillis?: number;
}

/** `min(base * 2^(attempts - 1), max)`. */
export function exponentialBackoff(options: ExponentialBackoffOptions = {}): BackoffPolicy {
  const base = Math.max(0, options.baseMillis ?? 1000);
  const max = Math.max(base, options.maxMillis ?? 300_000);
  return (attempts) => Math.min(max, base * 2 ** Math.max(0, Math.min(attempts - 1, 52)));
}
