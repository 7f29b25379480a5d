/**
 * The administration API of the process orchestrator, under `/process-management/api`
 * (`fw.process.management.enabled`). Every call needs the key header
 * `X-Process-Management-Key` (401 when missing or wrong) and the tenant header
 * `x-fw-tenant-id` (400 when missing or malformed); answers are plain DTOs and every error is the
 * framework error envelope, whose `message` says what is wrong (never a stack trace). No CORS headers are sent.
 * Routes are bound from the operation table of the OpenAPI document: each request is checked
 * against its operation's schemas first, and other methods on a documented path answer 405.
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
import { rejectControlCharacters } from '@fw/core/http';
import express, { type Router } from 'express';
import { makeAccessGuard, resolveManagementAccess } from '../access/access-guard';
import { makeAuditStore } from '../audit/audit-store';
import { makeRefusalAudit } from '../audit/refusal-audit';
import { makeManagementErrorMiddleware, makeManagementNotFound, requireJsonContent } from '../http/management-errors';
import { makeMethodNotAllowed } from '../http/method-not-allowed';
import { ADMIN_API_SCHEMAS, buildOpenApiDocument } from '../openapi/admin-api-document';
import { ADMIN_API_OPERATIONS } from '../openapi/admin-api-operations';
import { makeComponentValidators, type ComponentValidators } from '../openapi/schema-validator';
import type { ManagementPorts } from '../ports/management-ports';
import { addCrontabRoutes } from './crontab-routes';
import { addDefinitionRoutes } from './definition-routes';
import { addAuditRoutes, addWhoamiRoute } from './access-routes';
import { makeOperationBinder } from './operation-binding';
import { makeOperationGate } from './operation-gate';
import { addHealthRoutes } from './health-routes';
import { addProcessRoutes } from './process-routes';
import { assignRequestId } from './request-id';
import { enterRequestContext } from './management-request-context';
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

let validators: ComponentValidators | undefined;

/** One set of compiled request validators for every router of the process (the schemas never change). */
function sharedValidators(): ComponentValidators {
  validators ??= makeComponentValidators({ schemas: ADMIN_API_SCHEMAS });
  return validators;
}

/**
 * Makes the router; mount it at the application root (it carries its base path).
 * @throws ConfigError when a key is shorter than 32 characters, the JWT options are unusable, or no credential is configured.
 */
export function makeProcessManagementRouter(ports: ManagementPorts, internals: ManagementRouterInternals = {}): Router {
  const logger = ports.logger ?? createLogger({ name: 'process-management' });
  const access = resolveManagementAccess({ apiKey: ports.apiKey, access: ports.access, logger });
  const basePath = ports.basePath ?? MANAGEMENT_BASE_PATH;
  const audit = makeAuditStore(ports.database.db);

  const api = express.Router();
  // Every handler runs behind the gate: role and tenant scope from the operation table, then the
  // request check, and the audit row of every change.
  const bind = makeOperationBinder(api, sharedValidators(), makeOperationGate({ audit, logger }));
  api.use(assignRequestId());
  // A write refused for want of an accepted credential is recorded too (reads are not).
  api.use(
    makeAccessGuard(access, {
      logger,
      onRefused: makeRefusalAudit({ audit, logger, operations: ADMIN_API_OPERATIONS }),
    }),
  );
  // Decided by the request line alone, so a wrong method is a 405 whatever the headers and body.
  api.use(makeMethodNotAllowed(ADMIN_API_OPERATIONS));
  // The OpenAPI document describes the API itself: the key is enough, no tenant needed.
  const openapi = buildOpenApiDocument(basePath);
  bind('openApi', (_req, res) => {
    res.json(openapi);
  });
  addWhoamiRoute(bind);
  api.use(requireTenant());
  api.use(requireJsonContent());
  api.use(express.json({ limit: ports.bodyLimit ?? '1mb' }));
  api.use(rejectControlCharacters());
  // The request's context (tenant, request id, caller), created once for everything below.
  api.use(enterRequestContext());

  bind('info', (_req, res) => {
    const info: ManagementInfo = {
      definitionSource: ports.definitions.source,
      definitionsWritable: ports.definitions.source === 'database',
      cronAvailable: ports.scheduler !== undefined && ports.crontabs !== undefined,
      supportedEvents: ['ProcessCreate'],
    };
    res.json(info);
  });
  addTriggerRoutes(bind, ports);
  addCrontabRoutes(bind, ports);
  addDefinitionRoutes(bind, ports);
  addProcessRoutes(bind, ports, internals.traceLimit);
  addHealthRoutes(bind, ports);
  addAuditRoutes(bind, audit);
  api.use(makeManagementNotFound());
  api.use(makeManagementErrorMiddleware(logger));

  const outer = express.Router();
  outer.use(basePath, api);
  return outer;
}
