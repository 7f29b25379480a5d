/**
 * Retry delays of failed attempts: the exponential policy of `@fw/leased-queue`, re-exported
 * under this package's names.
 *
 * @example
 * const delay = exponentialBackoff({ baseMillis: 1000, maxMillis: 60_000 });
 * delay(1); // 1000 (after the first failed attempt)
 * delay(3); // 4000
 */
export { exponentialBackoff } from '@fw/leased-queue';
export type { BackoffPolicy, ExponentialBackoffOptions } from '@fw/leased-queue';
