import { ConfigError, createLogger, LoadedConfig, Logger } from '@fw/core';
import { makeErrorMiddleware, makeNotFoundHandler, rejectControlCharacters, requireJsonBody } from '@fw/core/http';
import { makeAdminUiRouter } from '@fw/admin-ui';
import { makeRegistryDelegate, makeServiceRegistry, makeServiceRouter, type RegistryDelegate } from '@fw/service';
import { makeMcpRouter } from '@fw/service/mcp';
import { CallerIdentity, makeQueryRequestHandler, makeQueryRouter, QueryAuthorizer } from '@fw/query-controller';
import {
  DatabaseFactory,
  makeQueryService,
  QUERY_CONFIG_DEFAULTS,
  QueryExecutionProvider,
  QueryService,
} from '@fw/query-core';
import express, { Express } from 'express';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, RequestListener, Server } from 'node:http';
import * as path from 'node:path';
import { HostConfig, parseHostConfig } from '../config/host-config';
import { makeHostDatabases } from './host-databases';
import { defineQueryService } from './query-services';

/** What {@link createQueryHost} needs besides the config. */
export interface QueryHostOptions {
  /** A loaded config (`loadConfigFile(file)` or `configFromObject(data, baseDir)`). */
  config: LoadedConfig;
  /** Non-SQL providers; `query.provider` picks one by name. */
  providers?: QueryExecutionProvider[];
  /** Opens tenant and catalog databases; default `createDatabase` of `@fw/core`. */
  databaseFactory?: DatabaseFactory;
  /** ACL check; without one acls are not enforced (logged once at startup). */
  authorizer?: QueryAuthorizer;
  /** Who is calling, for the answer cache of cached queries; default a digest of `Authorization`. */
  callerIdentity?: CallerIdentity;
  logger?: Logger;
  /** Request body limit (fast path and `express.json`); default `1mb`. */
  bodyLimit?: string;
  /** When set (≥ 32 characters), `/info`, `/service-info`, `/health-check` and `/openapi.json` need `X-Fw-Info-Key` (the command line passes `FW_INFO_ACCESS_KEY`). */
  infoAccessKey?: string;
  /** Serve `/mcp`: every named query as an MCP tool (the command line: `FW_MCP_ENABLED`). */
  mcp?: boolean;
  /** Register the query service with a service registry once listening (`FW_SERVICE_REGISTRY_URL`, `FW_SERVICE_BASE_URL`). */
  serviceRegistry?: { url: string; baseUrl?: string };
  /** Other hosts (origins) the admin UI at `/fw/admin` may read through this one (the command line: `FW_ADMIN_UI_PROXY_ORIGINS`). */
  adminUiProxyOrigins?: readonly string[];
}

/** A started (not yet listening) query host. */
export interface QueryHost {
  /**
   * The host's request listener (what `listen()` serves; give it to supertest or your own
   * server): `POST /q/{name}` on the native fast path, everything else through {@link express}.
   */
  readonly app: RequestListener;
  /** The express app behind the fast path: GET /q…, /info, /service-info, /health-check, 404 and errors. */
  readonly express: Express;
  readonly config: HostConfig;
  readonly queryService: QueryService;
  /** Listens on `server.bindAddress:server.port`; resolves with the bound address. */
  listen(): Promise<{ address: string; port: number; url: string }>;
  /** The HTTP server once listening. */
  server(): Server | undefined;
  /** Stops listening (idle keep-alive connections are dropped), then closes the service and every pool. */
  close(): Promise<void>;
}

/** This package's version and license, as the host describes itself (`/info`, `/openapi.json`). */
function packageFacts(): { version: string; license: string | undefined } {
  try {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      version?: unknown;
      license?: unknown;
    };
    return {
      version: typeof pkg.version === 'string' ? pkg.version : '0.0.0',
      license: typeof pkg.license === 'string' ? pkg.license : undefined,
    };
  } catch {
    return { version: '0.0.0', license: undefined };
  }
}

/**
 * Composes a query host: validates the config, starts the query service (every startup problem
 * throws a ConfigError before anything listens) and builds the request listener:
 *
 * - `POST /q/{name}` with a JSON body goes to `makeQueryRequestHandler` (node:http, no express);
 * - everything else to the express app: JSON body parser → 415 for non-JSON bodies → `/q`
 *   routes → `/info`, `/service-info`, `/health-check` (one database probe per tenant) → 404 →
 *   error envelope. Status codes and bodies are the same on both paths.
 *
 * The tenant is read from `x-fw-tenant-id` and passed to the service explicitly; the host installs
 * no AsyncLocalStorage context, so no async hooks run on any request.
 *
 * @example
 * const host = await createQueryHost({ config: loadConfigFile('query-host.json') });
 * const { url } = await host.listen();
 * // ... later
 * await host.close();
 */
export async function createQueryHost(options: QueryHostOptions): Promise<QueryHost> {
  const config = parseHostConfig(options.config);
  const logger = options.logger ?? createLogger({ name: 'query-host' });
  const databases = makeHostDatabases(config, options.databaseFactory);
  let queryService: QueryService;
  try {
    queryService = await makeQueryService({
      config: config.query,
      dataSources: config.dataSources,
      baseDir: config.baseDir,
      providers: options.providers,
      databaseFactory: databases.factory,
      logger,
    });
  } catch (err) {
    await databases.close();
    throw err;
  }

  const { version, license } = packageFacts();
  const registry = makeServiceRegistry({
    host: {
      name: 'query-host',
      version,
      description: 'fw named query host',
      ...(license === undefined ? {} : { license: { name: license, identifier: license } }),
    },
    services: [
      defineQueryService({
        queryService,
        maxRowsInPage: config.query.pagination?.maxRowsInPage ?? QUERY_CONFIG_DEFAULTS.maxRowsInPage,
        version,
        tenants: Object.keys(config.query.datasources),
        details: () => ({
          provider: config.query.provider ?? 'sql',
          tenants: Object.keys(config.query.datasources),
          defaultTenantId: config.query.defaultTenantId ?? null,
          aclsEnforced: options.authorizer !== undefined,
        }),
        healthCheck: async () => {
          const checks = await Promise.all(
            databases.healthChecks().map(async (c) => ({
              name: c.name,
              ...(await c.check().catch((err: unknown) => ({ healthy: false, message: (err as Error).message }))),
            })),
          );
          return { healthy: checks.every((c) => c.healthy), checks };
        },
        // The host's authorizer takes an express request: give it one carrying the call's headers.
        ...(options.authorizer
          ? {
              authorize: (headers: Readonly<Record<string, string>>, acls: readonly string[]) =>
                (options.authorizer as QueryAuthorizer)(
                  Object.assign(Object.create(express.request) as express.Request, { headers }),
                  acls,
                ),
            }
          : {}),
        logger,
      }),
    ],
    logger,
  });

  const bodyLimit = options.bodyLimit ?? '1mb';
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json({ limit: bodyLimit }));
  app.use(rejectControlCharacters());
  app.use(requireJsonBody());
  // The query routes first: the hot path then does not walk the info routes' layers.
  app.use(
    makeQueryRouter({ queryService, authorizer: options.authorizer, logger, callerIdentity: options.callerIdentity }),
  );
  app.use(makeServiceRouter(registry, { serve: { operations: false }, infoAccessKey: options.infoAccessKey, logger }));
  app.use(makeAdminUiRouter({ proxyAllowedOrigins: options.adminUiProxyOrigins ?? [] }));
  if (options.mcp)
    app.use(
      makeMcpRouter(registry, {
        instructions:
          'Named queries: each tool searches one query (filters, sortCriteria, paging) for the tenant of x-fw-tenant-id',
        logger,
      }),
    );
  app.use(makeNotFoundHandler());
  app.use(makeErrorMiddleware(logger));
  const search = makeQueryRequestHandler({
    queryService,
    authorizer: options.authorizer,
    logger,
    bodyLimit,
    app,
    callerIdentity: options.callerIdentity,
  });
  const listener: RequestListener = (req, res) => search(req, res, () => app(req, res));

  let server: Server | undefined;
  let closing: Promise<void> | undefined;
  let delegate: RegistryDelegate | undefined;

  return {
    app: listener,
    express: app,
    config,
    queryService,
    server: () => server,
    listen() {
      if (server) throw new Error('query host is already listening');
      const { port, bindAddress } = config.server;
      return new Promise((resolve, reject) => {
        const candidate = createServer(listener).listen(port, bindAddress);
        candidate.once('error', (err: NodeJS.ErrnoException) => {
          const why =
            err.code === 'EADDRINUSE'
              ? 'is already in use'
              : err.code === 'EADDRNOTAVAIL'
                ? 'is not an address of this machine'
                : `cannot be used (${err.message})`;
          reject(
            new ConfigError(
              `${config.source}: server.bindAddress ${bindAddress} port ${port} ${why}: change server.port or server.bindAddress`,
            ),
          );
        });
        candidate.once('listening', () => {
          server = candidate;
          // Keep-alive sockets idle longer than a typical load balancer's (60 s) timeout.
          candidate.keepAliveTimeout = 65_000;
          const address = candidate.address() as AddressInfo;
          const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          logger.info({ address: address.address, port: address.port }, 'query host listening');
          const url = `http://${host}:${address.port}`;
          if (options.serviceRegistry) {
            delegate = makeRegistryDelegate({
              registryUrl: options.serviceRegistry.url,
              baseUrl: options.serviceRegistry.baseUrl ?? url,
              registry,
              logger,
            });
            delegate.start();
          }
          resolve({ address: address.address, port: address.port, url });
        });
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
        await queryService.close();
        await databases.close();
      })();
      return closing;
    },
  };
}
