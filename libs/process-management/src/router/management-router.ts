/**
 * The administration API of the process orchestrator, under `/process-management/api`
 * (`fw.process.management.enabled`). Every call needs the key header
 * `X-Process-Management-Key` (401 `{ message }` when missing or wrong) and the tenant header
 * `x-fw-tenant-id` (400 when missing or malformed); answers are plain DTOs and errors are
 * `{ message }` (never the framework envelope, never a stack trace). No CORS headers are sent.
 *
 * @example
 * const app = express();
 * app.use(makeProcessManagementRouter({
 *   database, apiKey: process.env.PROCESS_MANAGEMENT_API_KEY ?? '',
 *   definitions: { source: 'database', configurator },
 *   triggerService, crontabs, scheduler,
 * }));
 * app.listen(8080);
 */
import { createLogger } from '@fw/core';
import express, { type Router } from 'express';
import { makeManagementKeyGuard } from '../auth/key-guard';
import { makeManagementErrorMiddleware, makeManagementNotFound, requireJsonContent } from '../http/management-errors';
import { buildOpenApiDocument } from '../openapi/openapi-document';
import type { ManagementPorts } from '../ports/management-ports';
import { addDefinitionRoutes } from './definition-routes';
import { addProcessRoutes } from './process-routes';
import { requireTenant } from './request-values';
import { addTriggerRoutes } from './trigger-routes';

/** Default mount path of the API. */
export const MANAGEMENT_BASE_PATH = '/process-management/api';

/** GET /info. */
export interface ManagementInfo {
  definitionSource: 'json' | 'database';
  definitionsWritable: boolean;
  cronAvailable: boolean;
  supportedEvents: ['ProcessCreate'];
}

/** Test and tuning hooks not meant for hosts. */
export interface ManagementRouterInternals {
  /** Largest trace (default 1,000). */
  traceLimit?: number;
}

/**
 * Makes the router; mount it at the application root (it carries its base path).
 * @throws ConfigError when `apiKey` is shorter than 32 characters.
 */
export function makeProcessManagementRouter(ports: ManagementPorts, internals: ManagementRouterInternals = {}): Router {
  const guard = makeManagementKeyGuard(ports.apiKey);
  const logger = ports.logger ?? createLogger({ name: 'process-management' });
  const basePath = ports.basePath ?? MANAGEMENT_BASE_PATH;

  const api = express.Router();
  api.use(guard);
  // The OpenAPI document describes the API itself: the key is enough, no tenant needed.
  const openapi = buildOpenApiDocument(basePath);
  api.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  api.use(requireTenant());
  api.use(requireJsonContent());
  api.use(express.json({ limit: ports.bodyLimit ?? '1mb' }));

  api.get('/info', (_req, res) => {
    const info: ManagementInfo = {
      definitionSource: ports.definitions.source,
      definitionsWritable: ports.definitions.source === 'database',
      cronAvailable: ports.scheduler !== undefined && ports.crontabs !== undefined,
      supportedEvents: ['ProcessCreate'],
    };
    res.json(info);
  });
  addTriggerRoutes(api, ports);
  addDefinitionRoutes(api, ports);
  addProcessRoutes(api, ports, internals.traceLimit);
  api.use(makeManagementNotFound());
  api.use(makeManagementErrorMiddleware(logger));

  const outer = express.Router();
  outer.use(basePath, api);
  return outer;
}
