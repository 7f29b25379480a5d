/**
 * The registry delegate of a host: registers the host's services with a registry service at
 * startup — retrying with capped, jittered backoff while the registry is away — and refreshes the
 * registration every `refreshMillis`, so a registry that restarted (and forgot everything) learns
 * about the host again within one period.
 *
 * @example
 * const delegate = makeRegistryDelegate({ registryUrl: 'http://registry:8080', baseUrl: 'http://orders:8080', registry });
 * delegate.start();
 * // at shutdown: await delegate.stop();
 */
import { createLogger, type Logger } from '@fw/core';
import type { ServiceRegistry } from '../registry/service-registry';

export interface RegistryDelegateOptions {
  /** Base URL of the host running the registry service. */
  registryUrl: string;
  /** This host's own base URL, as others reach it. */
  baseUrl: string;
  registry: ServiceRegistry;
  /** Re-registration period once registered (default 30 000 ms). */
  refreshMillis?: number;
  /** Retry delays while registering fails: `min(base · 2^n, max)`, jittered (default 500 / 30 000 ms). */
  retry?: { baseMillis?: number; maxMillis?: number };
  /** Per-request time limit (default 5 000 ms). */
  timeoutMillis?: number;
  logger?: Logger;
}

export interface RegistryDelegate {
  start(): void;
  /** Registers once now; resolves true when the registry accepted it. */
  registerNow(): Promise<boolean>;
  /** Resolves once the first registration after `start` succeeded. */
  registered(): Promise<void>;
  stop(): Promise<void>;
  stats(): { attempts: number; successes: number; lastError: string | undefined };
}

export function makeRegistryDelegate(options: RegistryDelegateOptions): RegistryDelegate {
  const logger = options.logger ?? createLogger({ name: 'registry-delegate' });
  const refreshMillis = options.refreshMillis ?? 30_000;
  const base = options.retry?.baseMillis ?? 500;
  const max = options.retry?.maxMillis ?? 30_000;
  const url = `${options.registryUrl.replace(/\/+$/, '')}/serviceregistry`;
  const counters = { attempts: 0, successes: 0, lastError: undefined as string | undefined };
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let failures = 0;
  let resolveFirst: () => void = () => undefined;
  let first = new Promise<void>((resolve) => (resolveFirst = resolve));

  async function registerNow(): Promise<boolean> {
    counters.attempts++;
    const info = options.registry.info();
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          baseUrl: options.baseUrl,
          host: { name: info.name, version: info.version },
          services: info.services,
        }),
        signal: AbortSignal.timeout(options.timeoutMillis ?? 5_000),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`the registry answered ${res.status}`);
      counters.successes++;
      counters.lastError = undefined;
      return true;
    } catch (err) {
      counters.lastError = (err as Error).message;
      return false;
    }
  }

  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => void tick(), delay);
    timer.unref();
  };

  async function tick(): Promise<void> {
    const ok = await registerNow();
    if (ok) {
      if (failures > 0 || counters.successes === 1)
        logger.info(
          { registry: options.registryUrl, services: options.registry.list().length },
          'registered with the service registry',
        );
      failures = 0;
      resolveFirst();
      schedule(refreshMillis);
      return;
    }
    failures++;
    const delay = Math.min(max, base * 2 ** (failures - 1));
    logger.warn(
      { registry: options.registryUrl, attempt: failures, retryInMillis: delay, error: counters.lastError },
      'could not register with the service registry; retrying',
    );
    schedule(delay / 2 + Math.random() * (delay / 2));
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      first = new Promise<void>((resolve) => (resolveFirst = resolve));
      schedule(0);
    },
    registerNow,
    registered: () => first,
    async stop() {
      stopped = true;
      clearTimeout(timer);
    },
    stats: () => ({ ...counters }),
  };
}
