/**
 * The admin server's Express app: `GET /metrics` (its own rule), the admin UI and the info endpoints before the key guard, the
 * administration API (its own access rules), the process dashboard, then behind an admin key over
 * every tenant the `/process` routes, the registry's services and MCP.
 */
import type { Database, Logger } from '@fw/core';
import type { FwMetrics } from '@fw/telemetry';
import { makeErrorMiddleware, makeNotFoundHandler } from '@fw/core/http';
import { makeAdminUiRouter } from '@fw/admin-ui';
import { makeAccessGuard, makeProcessManagementRouter, resolveManagementAccess } from '@fw/process-management';
import { makeProcessRouter } from '@fw/process-service/http';
import { makeServiceRegistry, makeServiceRouter, type ServiceRegistry } from '@fw/service';
import { makeMcpRouter } from '@fw/service/mcp';
import express, { type Express } from 'express';
import adminServerPackage from '../../package.json';
import type { AdminServerConfig } from '../config/admin-config';
import { makeDashboardRouter, servicePathPrefixes } from '../dashboard/dashboard-router';
import type { AdminComponents } from './admin-components';
import { makeAdminMetricsHandler } from './admin-metrics';
import { makeAdminServices, MANAGEMENT_KEY_GUARD } from './admin-services';

export interface AdminAppDeps {
  config: AdminServerConfig;
  /** The management key (admin over every tenant), beside `config.access.keys`. */
  key: string;
  database: Database;
  components: Pick<AdminComponents, 'configurator' | 'manager' | 'triggerService' | 'crontabs' | 'scheduler'>;
  exampleWorkers: boolean;
  /** The series `GET /metrics` serves. */
  metrics: FwMetrics;
  logger: Logger;
}

/** The app and the service registry it serves (the registry delegate announces it too). */
export interface AdminApp {
  app: Express;
  registry: ServiceRegistry;
}

function makeAdminRegistry(deps: AdminAppDeps): ServiceRegistry {
  const { config, database, components, logger } = deps;
  return makeServiceRegistry({
    host: {
      name: 'admin-server',
      version: adminServerPackage.version,
      description: 'fw process administration server',
      license: { name: adminServerPackage.license, identifier: adminServerPackage.license },
    },
    services: makeAdminServices({
      version: adminServerPackage.version,
      profile: config.profile,
      database,
      manager: components.manager,
      exampleWorkers: deps.exampleWorkers,
      isSchedulerOwner: () => components.scheduler.isOwner(),
      logger,
    }),
    logger,
  });
}

/** Makes the app (routes in the order the key guard needs). */
export function makeAdminApp(deps: AdminAppDeps): AdminApp {
  const { config, key, database, logger } = deps;
  const { configurator, manager, triggerService, crontabs, scheduler } = deps.components;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const registry = makeAdminRegistry(deps);
  // Prometheus scrapes with FW_METRICS_TOKEN, not the management key: its rule is its own.
  app.get('/metrics', makeAdminMetricsHandler(config, deps.metrics, logger));
  // The admin UI (static, read-only, no data of its own) before the key guard, like the info endpoints it reads.
  app.use(makeAdminUiRouter({ proxyAllowedOrigins: config.adminUiProxyOrigins ?? [] }));
  // Before the key guard: load balancers, orchestrators and the admin UI read these without the
  // management key (behind X-Fw-Info-Key when FW_INFO_ACCESS_KEY is set).
  app.use(
    makeServiceRouter(registry, {
      serve: { operations: false },
      infoAccessKey: config.infoAccessKey,
      openApi: { operationsGuard: MANAGEMENT_KEY_GUARD },
      logger,
    }),
  );
  // One key set, token cache and failure count for the administration API and the routes below.
  const access = resolveManagementAccess({
    access: {
      keys: [key, ...(config.access?.keys ?? [])].map((k) => ({
        key: k,
        role: config.access?.keyRole ?? 'admin',
        tenants: config.access?.keyTenants ?? '*',
      })),
      ...(config.access?.jwt === undefined ? {} : { jwt: config.access.jwt }),
    },
    logger,
  });
  app.use(
    makeProcessManagementRouter({
      database,
      access,
      definitions: { source: 'database', configurator },
      triggerService,
      crontabs,
      scheduler,
      logger,
      countExactLimit: config.countExactLimit,
    }),
  );
  // The process dashboard at / in both profiles (PROCESS_ADMIN_DASHBOARD=off turns it off): static files
  // holding no data; it asks for the key and every call carries it. Deep links answer its index.
  if (config.dashboardEnabled !== false)
    app.use(makeDashboardRouter({ reservedPrefixes: servicePathPrefixes(registry.list()), signIn: config.signIn }));
  // The /process routes, the registry's services and MCP are not scoped per tenant or operation:
  // they take a credential that is admin over every tenant (the workers' key).
  app.use(makeAccessGuard(access, { logger, require: { role: 'admin', allTenants: true } }));
  app.use(makeProcessRouter({ manager, logger }));
  // Services the registry serves itself (the dev profile's support-ticket workflow), behind the key.
  app.use(makeServiceRouter(registry, { serve: { info: false }, logger }));
  // MCP (FW_MCP_ENABLED; on in dev): every operation as a tool, behind the key like the routes.
  if (config.mcpEnabled)
    app.use(
      makeMcpRouter(registry, {
        instructions:
          'fw process administration: processes, definitions, triggers, crontabs' +
          (config.profile === 'dev' ? ', support tickets' : ''),
        logger,
      }),
    );
  app.use(makeNotFoundHandler());
  app.use(makeErrorMiddleware(logger));
  return { app, registry };
}
