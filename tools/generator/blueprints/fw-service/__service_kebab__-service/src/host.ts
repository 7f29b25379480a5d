// Composition: the service's definitions from settings, their registration into a registry, and
// the express host that serves them. A host that composes several services (a mini-monolith) uses
// the first two and its own express app; `start{{servicePascal}}Host` is this project's own host.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeServiceRegistry, makeServiceRouter, type ServiceDefinition, type ServiceRegistry } from '@fw/service';
{{#enableMCP}}
import { makeMcpRouter } from '@fw/service/mcp';
{{/enableMCP}}
import express, { type Express } from 'express';
import { SERVICE_NAME, SERVICE_VERSION } from '{{scope}}/{{serviceKebab}}-api';
{{#jpa}}
import { open{{servicePascal}}DatabaseRepository } from './database-repository';
{{/jpa}}
{{^jpa}}
import { makeMemory{{servicePascal}}Repository } from './memory-repository';
{{/jpa}}
import type { {{servicePascal}}Repository } from './repository';
{{#security}}
import { makeBearerJwtInterceptor } from './security';
{{/security}}
import { make{{servicePascal}}Service } from './service';
import type { {{servicePascal}}Settings } from './settings';

export interface {{servicePascal}}Services {
  /** The definitions to register (one service today; a list so more can join without changing callers). */
  services: ServiceDefinition[];
  repository: {{servicePascal}}Repository;
  /** Closes the store (the database, when this module opened it). */
  close(): Promise<void>;
}

/**
 * The service definitions of {{service}}, on {{#jpa}}the database of `settings.database` (migrated
 * here){{/jpa}}{{^jpa}}an in-memory store{{/jpa}}, unless a `repository` is given (tests, a shared database).
 */
export async function create{{servicePascal}}Services(settings: {{servicePascal}}Settings, options: { repository?: {{servicePascal}}Repository } = {}): Promise<{{servicePascal}}Services> {
{{#security}}
  // Made first: a missing or short secret stops startup before any database is opened.
  const security = makeBearerJwtInterceptor(settings.jwt);
{{/security}}
{{#jpa}}
  const repository = options.repository ?? (await open{{servicePascal}}DatabaseRepository(settings.database));
{{/jpa}}
{{^jpa}}
  const repository = options.repository ?? makeMemory{{servicePascal}}Repository();
{{/jpa}}
  const service = make{{servicePascal}}Service({ repository{{#security}}, interceptors: [security]{{/security}} });
  return { services: [service], repository, close: () => repository.close() };
}

/** Adds the definitions to a registry (this project's host, or another host composing it). */
export function register{{servicePascal}}Services(registry: ServiceRegistry, created: Pick<{{servicePascal}}Services, 'services'>): void {
  for (const service of created.services) registry.register(service);
}

/**
 * An express app serving the registry: the operations, /info, /service-info, /health-check,
 * /openapi.json{{#enableMCP}} and, with `mcp`, /mcp{{/enableMCP}}. Bind after registering: the router reads the registry once.
 */
export function make{{servicePascal}}App(registry: ServiceRegistry, options: { infoAccessKey?: string{{#enableMCP}}; mcp?: boolean{{/enableMCP}} } = {}): Express {
  const app = express();
  app.disable('x-powered-by');
{{#enableMCP}}
  if (options.mcp ?? true) app.use(makeMcpRouter(registry, { name: SERVICE_NAME, version: SERVICE_VERSION, instructions: 'Records with a name and a quantity: create, read, and op1 to change the quantity (never below zero).' }));
{{/enableMCP}}
  app.use(makeServiceRouter(registry, { infoAccessKey: options.infoAccessKey }));
  return app;
}

export interface Running{{servicePascal}}Host {
  /** `http://<address>:<port>` it listens on. */
  url: string;
  server: Server;
  registry: ServiceRegistry;
  repository: {{servicePascal}}Repository;
  /** Stops listening, ends open connections, closes the store. */
  close(): Promise<void>;
}

/** Starts the host: definitions, registry, express app, listening on `settings.host`:`settings.port`. */
export async function start{{servicePascal}}Host(settings: {{servicePascal}}Settings, options: { repository?: {{servicePascal}}Repository } = {}): Promise<Running{{servicePascal}}Host> {
  const created = await create{{servicePascal}}Services(settings, options);
  const registry = makeServiceRegistry({ host: { name: `${SERVICE_NAME}-service`, version: SERVICE_VERSION, description: '{{service}} (fw-service)' } });
  register{{servicePascal}}Services(registry, created);
  const app = make{{servicePascal}}App(registry, { infoAccessKey: settings.infoAccessKey{{#enableMCP}}, mcp: settings.mcp{{/enableMCP}} });
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(settings.port, settings.host, () => resolve(s));
      s.once('error', reject);
    });
  } catch (err) {
    await created.close();
    throw err;
  }
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    server,
    registry,
    repository: created.repository,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await created.close();
    },
  };
}
