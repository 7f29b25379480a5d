/**
 * The HTTP binding of a registry: every operation with a method and path as an express route
 * answering the framework envelope, plus the host's read-only endpoints (see ../../README.md#info-endpoints-and-openapi) —
 * `GET /info`, `/service-info/{svc}`, `/health-check/{svc}` and `/openapi.json` — open, or behind
 * `X-Fw-Info-Key` when the host sets `infoAccessKey`.
 *
 * @example
 * const app = express();
 * app.use(makeServiceRouter(registry, { logger }));
 * app.listen(8080);
 */
import {
  ConfigError,
  createLogger,
  errorEnvelope,
  FwError,
  successEnvelope,
  TENANT_HEADER,
  TENANT_ID_PATTERN,
  type Logger,
} from '@fw/core';
import { makeErrorMiddleware, makeMethodNotAllowed, requireJsonBody } from '@fw/core/http';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { JsonSchema, OperationDefinition, ServiceDefinition } from '../definition/service-definition';
import { ServiceErrorCodes } from '../errors/service-errors';
import { INFO_PATHS } from '../openapi/info-paths';
import {
  buildOpenApiDocument,
  hasBody,
  pathParameters,
  type OpenApiDocumentOptions,
} from '../openapi/openapi-document';
import type { HealthReport, ServiceRegistry } from '../registry/service-registry';

/** Least length of `infoAccessKey`. */
export const MIN_INFO_KEY_LENGTH = 32;
export const INFO_KEY_HEADER = 'x-fw-info-key';

export interface ServiceRouterOptions {
  /**
   * What to serve (default both): the read-only endpoints (`info`) and the operations
   * (`operations`). A host that guards its operations with a key mounts the two on either side
   * of its guard.
   */
  serve?: { info?: boolean; operations?: boolean };
  /** When set (≥ 32 characters), `/info`, `/service-info`, `/health-check` and `/openapi.json` need `X-Fw-Info-Key`. */
  infoAccessKey?: string;
  /** Largest JSON body (default `1mb`). */
  bodyLimit?: string;
  /** What `/openapi.json` adds besides the services: the guard the host puts in front of the operations. */
  openApi?: OpenApiDocumentOptions;
  logger?: Logger;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** 401 `{ message }` unless the request carries the key (constant-time compare). */
function infoKeyGuard(key: string | undefined): RequestHandler {
  if (key === undefined) return (_req, _res, next) => next();
  if (key.length < MIN_INFO_KEY_LENGTH)
    throw new ConfigError(
      `infoAccessKey is too short (${key.length} characters): give at least ${MIN_INFO_KEY_LENGTH}`,
    );
  const expected = digest(key);
  return (req, res, next) => {
    const presented = req.headers[INFO_KEY_HEADER];
    if (typeof presented === 'string' && timingSafeEqual(digest(presented), expected)) return next();
    res
      .status(401)
      .json({ message: presented === undefined ? 'Missing X-Fw-Info-Key header' : 'Invalid X-Fw-Info-Key' });
  };
}

/** `/tickets/{id}` → `/tickets/:id` (express 5 syntax). */
function expressPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

function coerce(value: string, schema: JsonSchema | undefined): unknown {
  const type = schema?.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/**
 * The input of an HTTP call: the JSON body with the path parameters added (POST, PUT, PATCH), or
 * the query and path parameters (GET, DELETE), strings turned into the numbers and booleans the
 * schema declares.
 */
function inputOf(req: Request, op: OperationDefinition): { input: unknown; label: string } {
  const props = (op.input?.properties ?? {}) as Record<string, JsonSchema>;
  const params: Record<string, unknown> = {};
  for (const name of pathParameters(op.path as string)) params[name] = coerce(String(req.params[name]), props[name]);
  if (hasBody(op.method as string)) {
    const body: unknown = req.body;
    if (Object.keys(params).length === 0) return { input: body === undefined ? {} : body, label: 'body' };
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new FwError({
        code: 400,
        subErrorCode: ServiceErrorCodes.invalidInput,
        description: "'body' must be a JSON object",
        field: 'body',
      });
    }
    return { input: { ...(body as Record<string, unknown> | undefined), ...params }, label: 'body' };
  }
  const query: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(req.query)) {
    if (typeof value === 'string') query[name] = coerce(value, props[name]);
  }
  return { input: { ...query, ...params }, label: 'query' };
}

function headersOf(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') out[name] = value;
  return out;
}

function tenantOf(req: Request): string | undefined {
  const raw = req.headers[TENANT_HEADER];
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const tenant = raw.trim();
  if (!TENANT_ID_PATTERN.test(tenant))
    throw new FwError({
      code: 400,
      subErrorCode: ServiceErrorCodes.invalidInput,
      description: `Header ${TENANT_HEADER} must match ${TENANT_ID_PATTERN.source}`,
      field: TENANT_HEADER,
    });
  return tenant;
}

function bindOperation(
  router: Router,
  registry: ServiceRegistry,
  service: ServiceDefinition,
  op: OperationDefinition,
  body: RequestHandler[],
): void {
  const method = (op.method as string).toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  router[method](expressPath(op.path as string), ...body, async (req, res) => {
    const { input, label } = inputOf(req, op);
    const output = await registry.invoke(service.name, op.name, input, {
      tenant: tenantOf(req),
      headers: headersOf(req),
      inputLabel: label,
    });
    res.json(successEnvelope(output === undefined ? null : output));
  });
}

/** The express router of a registry; see the module comment. Mount it before the host's own error handler. */
export function makeServiceRouter(registry: ServiceRegistry, options: ServiceRouterOptions = {}): Router {
  const logger = options.logger ?? createLogger({ name: 'service-router' });
  const router = express.Router();
  // The guard is made first so a bad infoAccessKey fails at startup whatever is served.
  const guard = (options.serve?.info ?? true) ? infoKeyGuard(options.infoAccessKey) : undefined;
  // Introspection operations belong to the read-only half (same guard as /info); bound before the
  // operations so `/{svc}/info` is never taken for `/{svc}/{id}`.
  if (guard !== undefined) {
    for (const service of registry.list()) {
      if (service.httpBinding !== 'registry') continue;
      for (const op of service.operations)
        if (op.introspection === true && op.method === 'GET' && op.path !== undefined)
          bindOperation(router, registry, service, op, [guard]);
    }
  }
  // Operations next: a call then walks no layer of the read-only endpoints.
  if (options.serve?.operations ?? true) {
    // Body parsing per route, so requests for the host's other routes pass through untouched.
    const body = [express.json({ limit: options.bodyLimit ?? '1mb' }), requireJsonBody()];
    for (const service of registry.list()) {
      if (service.httpBinding !== 'registry') continue;
      for (const op of service.operations)
        if (op.method !== undefined && op.path !== undefined && op.introspection !== true)
          bindOperation(router, registry, service, op, body);
    }
  }
  if (guard !== undefined) mountInfo(router, registry, guard, options.openApi ?? {});
  // The envelope for errors of these routes, whatever the host mounts after.
  router.use(makeErrorMiddleware(logger));
  return router;
}

function answerHealth(res: Response, report: HealthReport, name: string): void {
  if (report.healthy) {
    res.json(successEnvelope(report));
    return;
  }
  const failing = report.checks.filter((c) => !c.healthy).map((c) => c.name);
  res.status(503).json(
    errorEnvelope(
      new FwError({
        code: 503,
        subErrorCode: ServiceErrorCodes.unhealthy,
        description: `Unhealthy: ${failing.join(', ') || name}`,
        params: failing,
      }),
    ),
  );
}

/** `/info`, `/service-info[/{svc}]`, `/health-check[/{svc}]`, `/openapi.json`. */
function mountInfo(
  router: Router,
  registry: ServiceRegistry,
  guard: RequestHandler,
  openApi: OpenApiDocumentOptions,
): void {
  // Other methods on these paths: 405 with Allow (as on every known path), before the key is looked at.
  router.use(makeMethodNotAllowed(INFO_PATHS));
  router.get('/info', guard, (_req, res) => void res.json(successEnvelope(registry.info())));
  router.get(
    '/service-info',
    guard,
    (_req, res) => void res.json(successEnvelope(registry.list().map((s) => registry.describe(s.name)))),
  );
  router.get(
    '/service-info/:svc',
    guard,
    (req, res) => void res.json(successEnvelope(registry.describe(String(req.params.svc)))),
  );
  router.get('/health-check', guard, async (_req, res) =>
    answerHealth(res, await registry.healthAll(), registry.host.name),
  );
  router.get('/health-check/:svc', guard, async (req, res) =>
    answerHealth(res, await registry.health(String(req.params.svc)), String(req.params.svc)),
  );
  router.get('/openapi.json', guard, (_req, res) => void res.json(buildOpenApiDocument(registry, openApi)));
}
