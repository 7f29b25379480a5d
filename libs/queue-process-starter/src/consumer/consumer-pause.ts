/**
 * The waits of the consumer: a pause that `stop()` (or a lost channel) cuts short, and the drain
 * that `stop()` waits for before closing the consuming channel.
 */
import type { ConsumerChannel } from './consumer-channel';

/** Waits `millis`, or less when `signal` aborts. */
export function pause(millis: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', wake);
      resolve();
    };
    const timer = setTimeout(wake, millis);
    signal.addEventListener('abort', wake, { once: true });
  });
}

/** Who waits for channels to drain; re-checked whenever a message finishes or a channel closes. */
export interface DrainWaiters {
  /** A message finished or a channel closed: re-check every waiter. */
  notify(): void;
  /** Resolves when `owner` has no running message, is closed (nothing could be acknowledged any more) or the time is up. */
  drained(owner: ConsumerChannel, timeoutMillis: number): Promise<void>;
}

export function makeDrainWaiters(): DrainWaiters {
  const waiters = new Set<() => void>();
  return {
    notify() {
      for (const check of [...waiters]) check();
    },
    drained(owner, timeoutMillis) {
      const done = () => owner.inFlight === 0 || !owner.open;
      if (done()) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const check = () => {
          if (done()) finish();
        };
        const timer = setTimeout(finish, timeoutMillis);
        waiters.add(check);
      });
    },
  };
}
