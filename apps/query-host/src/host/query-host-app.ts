/**
 * The query host's request listener: `POST /q/{name}` with a JSON body on the native fast path
 * (`makeQueryRequestHandler`, no express); everything else through the express app (JSON body
 * parser → 415 for non-JSON bodies → `/q` routes → info routes → admin UI → MCP → 404 → error
 * envelope). Status codes and bodies are the same on both paths. `GET /metrics` comes first, under
 * its own rule (`FW_METRICS_TOKEN`); both paths record `fw_query_duration_seconds`.
 */
import type { Logger } from '@fw/core';
import { makeErrorMiddleware, makeNotFoundHandler, rejectControlCharacters, requireJsonBody } from '@fw/core/http';
import { makeAdminUiRouter } from '@fw/admin-ui';
import {
  makeQueryRequestHandler,
  makeQueryRouter,
  type CallerIdentity,
  type QueryAuthorizer,
} from '@fw/query-controller';
import type { QueryService } from '@fw/query-core';
import { makeMetricsHandler, type FwMetrics, type MetricsProfile } from '@fw/telemetry';
import { makeServiceRouter, type ServiceRegistry } from '@fw/service';
import { makeMcpRouter } from '@fw/service/mcp';
import express, { type Express } from 'express';
import type { RequestListener } from 'node:http';

export interface QueryHostAppDeps {
  /** ACL check of both paths; without one acls are not enforced. */
  authorizer?: QueryAuthorizer;
  /** Who is calling, for the answer cache of cached queries. */
  callerIdentity?: CallerIdentity;
  /** When set, the info routes need `X-Fw-Info-Key`. */
  infoAccessKey?: string;
  /** Serve `/mcp`. */
  mcp?: boolean;
  /** Other hosts the admin UI may read through this one. */
  adminUiProxyOrigins?: readonly string[];
  queryService: QueryService;
  registry: ServiceRegistry;
  /** Request body limit of both paths. */
  bodyLimit: string;
  /** What `/metrics` serves and both paths record each search's duration into. */
  metrics: FwMetrics;
  /** The access rule of `/metrics`: its bearer token (none: 404 in `production`, open in `dev`). */
  metricsAccess: { profile: MetricsProfile; token: string | undefined };
  logger: Logger;
}

export interface QueryHostApp {
  /** The express app behind the fast path. */
  app: Express;
  /** The fast path, falling through to {@link app}. */
  listener: RequestListener;
}

/** Makes the express app and the listener in front of it. */
export function makeQueryHostApp(deps: QueryHostAppDeps): QueryHostApp {
  const { queryService, registry, bodyLimit, metrics, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Prometheus scrapes with FW_METRICS_TOKEN: before the body parser and the /q routes.
  app.get(
    '/metrics',
    makeMetricsHandler({
      registry: metrics.registry,
      profile: deps.metricsAccess.profile,
      token: deps.metricsAccess.token,
      log: { info: (message) => logger.info(message), warn: (message) => logger.warn(message) },
    }),
  );
  app.use(express.json({ limit: bodyLimit }));
  app.use(rejectControlCharacters());
  app.use(requireJsonBody());
  // The query routes first: the hot path then does not walk the info routes' layers.
  app.use(
    makeQueryRouter({
      queryService,
      authorizer: deps.authorizer,
      logger,
      callerIdentity: deps.callerIdentity,
      metrics,
    }),
  );
  app.use(makeServiceRouter(registry, { serve: { operations: false }, infoAccessKey: deps.infoAccessKey, logger }));
  app.use(makeAdminUiRouter({ proxyAllowedOrigins: deps.adminUiProxyOrigins ?? [] }));
  if (deps.mcp)
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
    authorizer: deps.authorizer,
    logger,
    bodyLimit,
    app,
    callerIdentity: deps.callerIdentity,
    metrics,
  });
  const listener: RequestListener = (req, res) => search(req, res, () => app(req, res));
  return { app, listener };
}
