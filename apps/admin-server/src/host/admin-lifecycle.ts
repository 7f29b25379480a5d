/**
 * Starting and stopping the admin server: `listen` starts the scheduler, the history sweeper and
 * the runner (once), binds the port and announces the server to a service registry when one is
 * configured; `close` stops everything in reverse, once however often it is called.
 */
import { ConfigError, type Database, type Logger } from '@fw/core';
import type { WorkItemRunner } from '@fw/jdbc-process-starter';
import type { HistorySweeper } from '@fw/process-management';
import type { ProcessManager } from '@fw/process-service';
import { onListening, type RegistryDelegate, type ServiceRegistry } from '@fw/service';
import type { CronScheduler } from '@fw/trigger';
import type { Express } from 'express';
import type { Server } from 'node:http';
import type { AdminServerConfig } from '../config/admin-config';

export interface AdminLifecycleDeps {
  app: Express;
  config: AdminServerConfig;
  registry: ServiceRegistry;
  database: Database;
  /** Whether `close` closes the database (the server opened it). */
  ownsDatabase: boolean;
  scheduler: Pick<CronScheduler, 'start' | 'stop'>;
  historySweeper: Pick<HistorySweeper, 'start' | 'stop'> | undefined;
  runner: Pick<WorkItemRunner, 'start' | 'stop'> | undefined;
  manager: Pick<ProcessManager, 'close'>;
  logger: Logger;
}

export interface AdminLifecycle {
  /** Starts the background parts, then listens; resolves with the bound address. */
  listen(): Promise<{ address: string; port: number; url: string }>;
  /** The listening server, else undefined. */
  server(): Server | undefined;
  /** Stops the delegate, the scheduler, the sweeper, the server, the runner, the manager and the owned database. */
  close(): Promise<void>;
}

/** The ConfigError for a port that could not be bound. */
function bindError(err: NodeJS.ErrnoException, bindAddress: string | undefined, port: number): ConfigError {
  const why =
    err.code === 'EADDRINUSE'
      ? 'is already in use'
      : err.code === 'EADDRNOTAVAIL'
        ? 'is not an address of this machine'
        : `cannot be used (${err.message})`;
  return new ConfigError(
    `PROCESS_ADMIN_BIND_ADDRESS ${bindAddress} port ${port} ${why}: change PROCESS_ADMIN_PORT or PROCESS_ADMIN_BIND_ADDRESS`,
  );
}

export function makeAdminLifecycle(deps: AdminLifecycleDeps): AdminLifecycle {
  const { app, config, database, logger } = deps;
  let server: Server | undefined;
  let closing: Promise<void> | undefined;
  let delegate: RegistryDelegate | undefined;
  let started = false;

  function listening(candidate: Server): { address: string; port: number; url: string } {
    server = candidate;
    candidate.keepAliveTimeout = 65_000;
    const bound = onListening(candidate, { registry: deps.registry, serviceRegistry: config.serviceRegistry, logger });
    delegate = bound.delegate;
    logger.info(
      { address: bound.address, port: bound.port, profile: config.profile, database: database.displayUrl },
      'admin server listening',
    );
    return { address: bound.address, port: bound.port, url: bound.url };
  }

  return {
    server: () => server,
    async listen() {
      if (server) throw new Error('admin server is already listening');
      if (!started) {
        started = true;
        await deps.scheduler.start();
        deps.historySweeper?.start();
        deps.runner?.start();
      }
      const { port, bindAddress } = config;
      return new Promise((resolve, reject) => {
        const candidate = app.listen(port, bindAddress);
        candidate.once('error', (err: NodeJS.ErrnoException) => reject(bindError(err, bindAddress, port)));
        candidate.once('listening', () => resolve(listening(candidate)));
      });
    },
    close() {
      closing ??= (async () => {
        await delegate?.stop();
        await deps.scheduler
          .stop()
          .catch((err: unknown) => logger.warn({ err }, 'cron scheduler did not stop cleanly'));
        await deps.historySweeper?.stop();
        if (server) {
          const current = server;
          await new Promise<void>((resolve) => {
            current.close(() => resolve());
            current.closeIdleConnections();
          });
        }
        await deps.runner?.stop({ timeoutMillis: 10_000 });
        await deps.manager.close();
        if (deps.ownsDatabase) await database.close();
      })();
      return closing;
    },
  };
}
