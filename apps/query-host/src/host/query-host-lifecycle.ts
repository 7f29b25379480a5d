/**
 * Listening and closing for the query host: `listen` binds `server.bindAddress:server.port` and
 * announces the host to a service registry when one is configured; `close` stops listening
 * (dropping idle keep-alive connections), then closes the service and every pool, once.
 */
import { ConfigError, type Logger } from '@fw/core';
import type { QueryService } from '@fw/query-core';
import { onListening, type RegistryDelegate, type ServiceRegistry } from '@fw/service';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { HostConfig } from '../config/host-config';
import type { HostDatabases } from './host-databases';

export interface QueryHostLifecycleDeps {
  listener: RequestListener;
  config: HostConfig;
  registry: ServiceRegistry;
  /** Where to register once listening, if anywhere. */
  serviceRegistry?: { url: string; baseUrl?: string };
  queryService: Pick<QueryService, 'close'>;
  databases: Pick<HostDatabases, 'close'>;
  logger: Logger;
}

export interface QueryHostLifecycle {
  listen(): Promise<{ address: string; port: number; url: string }>;
  server(): Server | undefined;
  close(): Promise<void>;
}

/** The ConfigError for a port that could not be bound. */
function bindError(err: NodeJS.ErrnoException, config: HostConfig): ConfigError {
  const { port, bindAddress } = config.server;
  const why =
    err.code === 'EADDRINUSE'
      ? 'is already in use'
      : err.code === 'EADDRNOTAVAIL'
        ? 'is not an address of this machine'
        : `cannot be used (${err.message})`;
  return new ConfigError(
    `${config.source}: server.bindAddress ${bindAddress} port ${port} ${why}: change server.port or server.bindAddress`,
  );
}

export function makeQueryHostLifecycle(deps: QueryHostLifecycleDeps): QueryHostLifecycle {
  const { config, logger } = deps;
  let server: Server | undefined;
  let closing: Promise<void> | undefined;
  let delegate: RegistryDelegate | undefined;

  function listening(candidate: Server): { address: string; port: number; url: string } {
    server = candidate;
    // Keep-alive sockets idle longer than a typical load balancer's (60 s) timeout.
    candidate.keepAliveTimeout = 65_000;
    const bound = onListening(candidate, { registry: deps.registry, serviceRegistry: deps.serviceRegistry, logger });
    delegate = bound.delegate;
    logger.info({ address: bound.address, port: bound.port }, 'query host listening');
    return { address: bound.address, port: bound.port, url: bound.url };
  }

  return {
    server: () => server,
    listen() {
      if (server) throw new Error('query host is already listening');
      const { port, bindAddress } = config.server;
      return new Promise((resolve, reject) => {
        const candidate = createServer(deps.listener).listen(port, bindAddress);
        candidate.once('error', (err: NodeJS.ErrnoException) => reject(bindError(err, config)));
        candidate.once('listening', () => resolve(listening(candidate)));
      });
    },
    close() {
      closing ??= (async () => {
        await delegate?.stop();
        if (server) {
          const current = server;
          await new Promise<void>((resolve) => {
            current.close(() => resolve());
            current.closeIdleConnections();
          });
        }
        await deps.queryService.close();
        await deps.databases.close();
      })();
      return closing;
    },
  };
}
