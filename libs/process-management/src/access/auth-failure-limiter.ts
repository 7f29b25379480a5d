/**
 * Limits failed authentications per source address: after `maxFailures` refused credentials
 * within `windowMillis`, every request from that address answers 429 (with `Retry-After`) until
 * the window has passed — a valid credential included, so guessing gains nothing. One warning is
 * logged per burst (when the limit is first reached), with the address and the count; never the
 * credential.
 *
 * @example
 * const limiter = makeAuthFailureLimiter({ maxFailures: 20, windowMillis: 60_000, logger });
 * if (limiter.blockedFor(ip) > 0) ... // 429
 * limiter.recordFailure(ip);
 */
import type { Logger } from '@fw/core';

export interface AuthFailureLimitOptions {
  /** Refused credentials tolerated per address and window (default 20). */
  maxFailures?: number;
  /** The window (default 60 s). */
  windowMillis?: number;
  /** The clock (tests). */
  now?: () => number;
}

export interface AuthFailureLimiter {
  /** Milliseconds until `source` may try again; 0 when it is not blocked. */
  blockedFor(source: string): number;
  /** Counts one refused credential from `source`. */
  recordFailure(source: string): void;
}

interface Window {
  startedAt: number;
  failures: number;
  warned: boolean;
}

/** Addresses tracked at most; the oldest windows are dropped first (a flood of addresses cannot grow memory without bound). */
const MAX_TRACKED_SOURCES = 10_000;

export function makeAuthFailureLimiter(options: AuthFailureLimitOptions & { logger: Logger }): AuthFailureLimiter {
  const maxFailures = options.maxFailures ?? 20;
  const windowMillis = options.windowMillis ?? 60_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, Window>();

  const current = (source: string): Window | undefined => {
    const window = windows.get(source);
    if (window !== undefined && now() - window.startedAt >= windowMillis) {
      windows.delete(source);
      return undefined;
    }
    return window;
  };

  return {
    blockedFor(source) {
      const window = current(source);
      if (window === undefined || window.failures < maxFailures) return 0;
      return Math.max(1, window.startedAt + windowMillis - now());
    },
    recordFailure(source) {
      let window = current(source);
      if (window === undefined) {
        if (windows.size >= MAX_TRACKED_SOURCES) windows.delete(windows.keys().next().value as string);
        window = { startedAt: now(), failures: 0, warned: false };
        windows.set(source, window);
      }
      window.failures += 1;
      if (window.failures >= maxFailures && !window.warned) {
        window.warned = true;
        options.logger.warn(
          { source, failures: window.failures, windowMillis },
          'administration API: too many failed authentications from one address; refusing it until the window ends',
        );
      }
    },
  };
}
