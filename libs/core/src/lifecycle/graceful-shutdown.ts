import type { Server } from 'node:http';
import type { Logger } from '../logging/logger';

export type ShutdownStep = () => Promise<void> | void;

export interface GracefulShutdownOptions {
  logger: Logger;
  /** HTTP servers to stop accepting connections first. */
  servers?: Server[];
  /** Resources to close afterwards, in order (pools, workers, schedulers). */
  steps?: ShutdownStep[];
  /** Hard limit before the process exits anyway; default 10 s. */
  timeoutMillis?: number;
  /** Signals to handle; default SIGTERM and SIGINT. */
  signals?: NodeJS.Signals[];
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections?.();
  });
}

/** How long a process whose shutdown completed may take to exit by itself before it is made to. */
const EXIT_GRACE_MILLIS = 2_000;

/**
 * Installs signal handlers that stop the servers, run the close steps and then let the process
 * exit by itself with code 0 (1 when a step fails or the time limit passes). Something left
 * running after the steps (a timer, a socket nobody closed) would keep it alive: after
 * {@link EXIT_GRACE_MILLIS} it is logged by kind as a warning and the process exits anyway.
 * Returns a function that runs the same shutdown on demand (without exiting), for embedding hosts
 * and tests.
 */
export function installGracefulShutdown(options: GracefulShutdownOptions): () => Promise<void> {
  const { logger } = options;
  let running: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    running ??= (async () => {
      for (const server of options.servers ?? []) await closeServer(server);
      for (const step of options.steps ?? []) await step();
    })();
    return running;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, options.timeoutMillis ?? 10_000);
    timer.unref();
    shutdown().then(
      () => {
        clearTimeout(timer);
        logger.info('shutdown complete');
        process.exitCode = 0;
        setTimeout(() => {
          logger.warn(
            { stillActive: process.getActiveResourcesInfo() },
            'shutdown complete, but something still keeps the process alive; exiting',
          );
          process.exit(0);
        }, EXIT_GRACE_MILLIS).unref();
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  for (const signal of options.signals ?? ['SIGTERM', 'SIGINT']) process.once(signal, onSignal);
  return shutdown;
}
