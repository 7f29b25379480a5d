import { createLogger, type LoadedConfig, type Logger } from '@fw/core';
import type { CallerIdentity, QueryAuthorizer } from '@fw/query-controller';
import { type DatabaseFactory, makeQueryService, type QueryExecutionProvider, type QueryService } from '@fw/query-core';
import { makeFwMetrics, type FwMetrics, type MetricsProfile } from '@fw/telemetry';
import type { Express } from 'express';
import type { RequestListener, Server } from 'node:http';
import { type HostConfig, parseHostConfig } from '../config/host-config';
import { makeHostDatabases } from './host-databases';
import { makeQueryHostApp } from './query-host-app';
import { makeQueryHostLifecycle } from './query-host-lifecycle';
import { makeQueryHostRegistry } from './query-host-registry';

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
  /** Bearer token `GET /metrics` needs (the command line passes `FW_METRICS_TOKEN`). */
  metricsToken?: string;
  /** Without a token, `/metrics` is 404 in `production` (default) and open in `dev` (the command line's demo). */
  metricsProfile?: MetricsProfile;
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
  /** The host's series, served at `GET /metrics`: `fw_query_duration_seconds` and the process's own. */
  readonly metrics: FwMetrics;
  /** Listens on `server.bindAddress:server.port`; resolves with the bound address. */
  listen(): Promise<{ address: string; port: number; url: string }>;
  /** The HTTP server once listening. */
  server(): Server | undefined;
  /** Stops listening (idle keep-alive connections are dropped), then closes the service and every pool. */
  close(): Promise<void>;
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
 * The parts are the registry, the app and the lifecycle (one file each beside this one).
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

  const { authorizer } = options;
  // No gauge source: the query host owns no queues.
  const metrics = makeFwMetrics();
  const registry = makeQueryHostRegistry({ config, queryService, databases, authorizer, logger });
  const { app, listener } = makeQueryHostApp({
    queryService,
    registry,
    bodyLimit: options.bodyLimit ?? '1mb',
    authorizer,
    callerIdentity: options.callerIdentity,
    infoAccessKey: options.infoAccessKey,
    mcp: options.mcp,
    adminUiProxyOrigins: options.adminUiProxyOrigins,
    metrics,
    metricsAccess: { profile: options.metricsProfile ?? 'production', token: options.metricsToken || undefined },
    logger,
  });
  const lifecycle = makeQueryHostLifecycle({
    listener,
    config,
    registry,
    serviceRegistry: options.serviceRegistry,
    queryService,
    databases,
    logger,
  });

  return {
    app: listener,
    express: app,
    config,
    queryService,
    metrics,
    server: lifecycle.server,
    listen: lifecycle.listen,
    close: lifecycle.close,
  };
}
