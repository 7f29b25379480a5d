/**
 * Pacing of the history sweeper: after each removal transaction it pauses in proportion to the
 * time the transaction took, so removals hold at most a set share of the time (the duty cycle)
 * and the work beside them — fan-outs, workers, the dashboard — keeps most of the database. A
 * slower transaction (a busy database) is followed by a longer pause, so the sweeper backs off
 * exactly when the database has least room.
 *
 * @example
 * const dutyCycle = sweepDutyCycleFromEnv(process.env);  // PROCESS_HISTORY_SWEEP_DUTY_CYCLE, default 0.25
 * pauseAfterTransaction(800, dutyCycle);                  // 2400: 800 ms removing, then 2.4 s pause
 */
import { ConfigError } from '@fw/core';

/**
 * Default share of the time the sweeper spends in removal transactions. Measured with the
 * `history` bench on a shared 2-core machine: unpaced, a fan-out beside a pass kept a median 86 %
 * of its rate (55 % on a larger history); at a quarter, a median 102 % — no measurable loss —
 * while the sweep still removed about 3,300 rows a second (figures in the bench's README).
 */
export const DEFAULT_SWEEP_DUTY_CYCLE = 0.25;

/** How long to pause after a transaction of `transactionMillis` so that removals take `dutyCycle` of the time. */
export function pauseAfterTransaction(transactionMillis: number, dutyCycle: number): number {
  if (dutyCycle >= 1 || transactionMillis <= 0) return 0;
  return Math.round((transactionMillis * (1 - dutyCycle)) / dutyCycle);
}

/**
 * `PROCESS_HISTORY_SWEEP_DUTY_CYCLE`: the share of the time the sweeper may spend removing, a
 * number above 0 and at most 1 (`0.25`, or as a percentage `25%`; `1` never pauses). Default
 * {@link DEFAULT_SWEEP_DUTY_CYCLE}; anything else is a ConfigError.
 */
export function sweepDutyCycleFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.PROCESS_HISTORY_SWEEP_DUTY_CYCLE?.trim();
  if (raw === undefined || raw === '') return DEFAULT_SWEEP_DUTY_CYCLE;
  const percent = raw.endsWith('%');
  const text = percent ? raw.slice(0, -1).trim() : raw;
  const value = /^\d+(\.\d+)?$|^\.\d+$/.test(text) ? Number(text) / (percent ? 100 : 1) : Number.NaN;
  if (!(value > 0 && value <= 1))
    throw new ConfigError(
      `PROCESS_HISTORY_SWEEP_DUTY_CYCLE must be a share of the time above 0 and at most 1 (0.25 or 25%), got '${raw}'`,
    );
  return value;
}

/** Resolves after `millis`, or at once when `signal` is aborted (a stopping sweeper does not sit out its pause). */
export function pause(millis: number, signal: AbortSignal): Promise<void> {
  if (millis <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, millis);
    signal.addEventListener('abort', done, { once: true });
  });
}
