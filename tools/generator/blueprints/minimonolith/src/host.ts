// {{monolith}}: one express app hosting every service it composes through an @fw/service registry.
//   /info, /service-info/{svc}, /health-check[/{svc}], /openapi.json   what the admin UI reads
//   /fw/admin                                                          the admin UI (@fw/admin-ui)
//   the services' own operations (the built-in notes service: POST /notes, GET /notes/{id})
{{#enableMCP}}
//   /mcp                 every operation as an MCP tool (Streamable HTTP)
{{/enableMCP}}
{{#enableServiceRegistry}}
//   /serviceregistry     the service registry service: other hosts register here
{{/enableServiceRegistry}}
{{#enableQueryController}}
//   /q/{name}            named queries (the query controller)
{{/enableQueryController}}
{{#enableDbConsole}}
//   /fw/db-console       a SQL console on the database, dev profile only
{{/enableDbConsole}}
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
{{#enableMCP}}
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
{{/enableMCP}}
import { makeAdminUiRouter } from '@fw/admin-ui';
import { createDatabase, createLogger, type Database, type Logger } from '@fw/core';
import { makeErrorMiddleware, makeNotFoundHandler } from '@fw/core/http';
import { {{#enableServiceRegistryDelegate}}makeRegistryDelegate, {{/enableServiceRegistryDelegate}}{{#enableServiceRegistry}}makeServiceRegistryService, {{/enableServiceRegistry}}{{#cloudSwitchEnabled}}makeServiceProxy, type ServiceProxy, {{/cloudSwitchEnabled}}makeServiceRegistry, makeServiceRouter, type ServiceDefinition, type ServiceRegistry } from '@fw/service';
{{#enableMCP}}
import { makeMcpRouter } from '@fw/service/mcp';
{{/enableMCP}}
import express, { type Express } from 'express';
{{#security}}
import { makeBearerAuthInterceptor{{#enableQueryController}}, makeBearerAuthMiddleware{{/enableQueryController}} } from './bearer-auth';
{{/security}}
import { loadComposedServices, type ServicePackage } from './composed-services';
import { configFromEnv, type MonolithConfig } from './config';
{{#enableDbConsole}}
import { makeDbConsoleRouter } from './db-console';
{{/enableDbConsole}}
import { makeMemoryNotesStore, makeNotesService, type NotesStore } from './notes-service';
{{#enableQueryController}}
import { startNamedQueries, type NamedQueries } from './queries';
{{/enableQueryController}}
{{#jpa}}
import { makeSqlNotesStore, migrateNotes } from './sql-notes-store';
{{/jpa}}

export interface MonolithOptions {
  /** Settings over the environment's (tests give `port: 0`, `databaseUrl: 'pglite:memory:'`). */
  config?: Partial<MonolithConfig>;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** The composed packages; default: the `dependencies` it was generated with. */
  servicePackages?: readonly ServicePackage[];
}

export interface Monolith {
  readonly config: MonolithConfig;
  readonly registry: ServiceRegistry;
  readonly app: Express;
{{#cloudSwitchEnabled}}
  /** Calls a service wherever it runs: locally, or on the host `remoteServices.<name>.url` names. */
  readonly proxy: ServiceProxy;
{{/cloudSwitchEnabled}}
  /** Listens on config.host:config.port; resolves with the base URL. */
  listen(): Promise<string>;
  /** Stops listening{{#enableServiceRegistryDelegate}} and registering{{/enableServiceRegistryDelegate}}, then closes the database. */
  close(): Promise<void>;
}

/** Opens the database on first use only: a host whose features need none never starts PGlite. */
function lazyDatabase(url: string): { get: () => Database; close: () => Promise<void> } {
  let database: Database | undefined;
  return {
    get: () => (database ??= createDatabase({ url })),
    close: async () => {
      await database?.close();
      database = undefined;
    },
  };
}

interface Parts {
  services: ServiceDefinition[];
  /** Closes what the composed packages opened. */
  closeComposed: () => Promise<void>;
{{#enableQueryController}}
  queries: NamedQueries;
{{/enableQueryController}}
}

async function composeServices(config: MonolithConfig, database: () => Database, logger: Logger, packages?: readonly ServicePackage[]): Promise<Parts> {
{{#jpa}}
  await migrateNotes(database());
  const store: NotesStore = makeSqlNotesStore(database());
{{/jpa}}
{{^jpa}}
  const store: NotesStore = makeMemoryNotesStore();
{{/jpa}}
  const composed = await loadComposedServices(packages);
  const services = [makeNotesService(store{{#security}}, [makeBearerAuthInterceptor(config.jwtSecret)]{{/security}}), ...composed.services];
{{#enableServiceRegistry}}
  services.push(makeServiceRegistryService());
{{/enableServiceRegistry}}
{{#enableQueryController}}
  const queries = await startNamedQueries(database(), config.databaseUrl, logger).catch(async (err: unknown) => {
    await composed.close();
    throw err;
  });
  services.push(queries.service);
  return { services, closeComposed: composed.close, queries };
{{/enableQueryController}}
{{^enableQueryController}}
  logger.debug({ services: services.length }, 'services composed');
  return { services, closeComposed: composed.close };
{{/enableQueryController}}
}

function buildApp(config: MonolithConfig, registry: ServiceRegistry, parts: Parts, database: () => Database, logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
{{#enableQueryController}}
{{#security}}
  app.use('/q', makeBearerAuthMiddleware(config.jwtSecret));
{{/security}}
  app.use('/q', express.json({ limit: '1mb' }));
  app.use(parts.queries.router);
{{/enableQueryController}}
  app.use(makeServiceRouter(registry, { infoAccessKey: config.infoAccessKey, logger }));
  app.use(makeAdminUiRouter({ proxyAllowedOrigins: config.adminUiProxyOrigins }));
{{#enableMCP}}
  const instructions = readFileSync(path.join(__dirname, '..', '..', 'mcp-instructions.txt'), 'utf8').trim();
  app.use(makeMcpRouter(registry, { name: '{{mcpServerName}}', version: '{{monolithVersion}}', instructions, logger }));
{{/enableMCP}}
{{#enableDbConsole}}
  // Never in prod: the console runs any SQL it is given.
  if (config.profile === 'dev') app.use(makeDbConsoleRouter(database));
{{/enableDbConsole}}
{{^enableDbConsole}}
  void database; // only the database console would use it here
{{/enableDbConsole}}
  app.use(makeNotFoundHandler());
  app.use(makeErrorMiddleware(logger));
  return app;
}

export async function createMonolith(options: MonolithOptions = {}): Promise<Monolith> {
  const config: MonolithConfig = { ...configFromEnv(options.env), ...options.config };
  const logger = options.logger ?? createLogger({ name: '{{monolithKebab}}' });
  const database = lazyDatabase(config.databaseUrl);
  let parts: Parts;
  try {
    parts = await composeServices(config, database.get, logger, options.servicePackages);
  } catch (err) {
    await database.close();
    throw err;
  }
  const registry = makeServiceRegistry({ host: { name: '{{monolithKebab}}', version: '{{monolithVersion}}', description: '{{monolith}} mini-monolith' }, services: parts.services, logger });
  const app = buildApp(config, registry, parts, database.get, logger);
{{#enableServiceRegistryDelegate}}
  let delegate: ReturnType<typeof makeRegistryDelegate> | undefined;
{{/enableServiceRegistryDelegate}}
  let server: Server | undefined;
  return {
    config,
    registry,
    app,
{{#cloudSwitchEnabled}}
    proxy: makeServiceProxy({ registry, services: config.remoteServices }),
{{/cloudSwitchEnabled}}
    listen: () =>
      new Promise((resolve, reject) => {
        const candidate = createServer(app).listen(config.port, config.host);
        candidate.once('error', reject);
        candidate.once('listening', () => {
          server = candidate;
          const { port } = candidate.address() as AddressInfo;
          const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
{{#enableServiceRegistryDelegate}}
          delegate = makeRegistryDelegate({ registryUrl: config.serviceRegistryUrl, baseUrl: config.publicBaseUrl ?? url, registry, logger });
          delegate.start();
{{/enableServiceRegistryDelegate}}
          resolve(url);
        });
      }),
    async close() {
{{#enableServiceRegistryDelegate}}
      await delegate?.stop();
{{/enableServiceRegistryDelegate}}
      if (server) {
        const current = server;
        server = undefined;
        await new Promise<void>((resolve) => {
          current.close(() => resolve());
          current.closeIdleConnections();
        });
      }
{{#enableQueryController}}
      await parts.queries.close();
{{/enableQueryController}}
      await parts.closeComposed();
      await database.close();
    },
  };
}
