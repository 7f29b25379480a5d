import { CoreErrorCodes, currentContext, FwError, successEnvelope, TENANT_HEADER } from '@fw/core';
import { queryError, QueryErrorCodes, type SearchContext, serializeSearchResponse } from '@fw/query-core';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import type { QueryRouterOptions } from './query-controller-types';
import { callerFromAuthorization, sendAnswer, wantsNdjson, writeNdjson } from './streamed-answer';
import { describe } from './query-description';
import { timeQuery } from './query-timing';

/**
 * The tenant of a request: from `@fw/core`'s request context when the host installed
 * `tenantContextMiddleware`, else straight from the `x-fw-tenant-id` header.
 */
function tenantOf(req: Request): string | undefined {
  const context = currentContext();
  if (context) return context.tenantId;
  const raw = req.header(TENANT_HEADER);
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

/** The `:queryName` route parameter (express 5 types it as string or string[]). */
function queryNameOf(req: Request): string {
  const value: unknown = req.params.queryName;
  return Array.isArray(value) ? value.join('/') : String(value);
}

/** 415 unless the body is declared JSON; a search always carries a (possibly empty) JSON object. */
const requireJson: RequestHandler = (req, _res, next) => {
  if (req.is('application/json')) {
    next();
    return;
  }
  next(
    new FwError({
      code: 415,
      subErrorCode: CoreErrorCodes.unsupportedMediaType,
      description: 'Content-Type must be application/json',
      params: [req.header('content-type') ?? null],
    }),
  );
};

/**
 * Express router of the named query service (mount it at the root; it owns `/q`):
 *
 * - `POST /q/{queryName}` — body: SearchRequest (JSON); answers `{ success, code: 200, payload: SearchResponse }`.
 * - `GET /q` — the queries the tenant may use, with their filterable and sortable fields.
 * - `GET /q/{queryName}` — one of them (404 Q700 when unknown).
 *
 * The tenant comes from `x-fw-tenant-id`. Errors are thrown as `FwError`s for `@fw/core`'s
 * `makeErrorMiddleware`, which the host installs after this router. The router expects a JSON
 * body parser (`express.json()`) before it; without one a search body counts as empty.
 *
 * @example
 * const app = express();
 * app.use(express.json({ limit: '1mb' }), tenantContextMiddleware());
 * app.use(makeQueryRouter({ queryService, logger, authorizer: (req, acls) => acls.length === 0 || isAdmin(req) }));
 * app.use(makeNotFoundHandler(), makeErrorMiddleware(logger));
 */
export function makeQueryRouter(options: QueryRouterOptions): Router {
  const { queryService, authorizer, logger } = options;
  if (!authorizer) logger.warn('query router has no authorizer: query acls are NOT enforced');

  const contextOf = (req: Request): SearchContext => ({
    tenantId: tenantOf(req),
    ...(authorizer ? { authorize: (acls: readonly string[]) => authorizer(req, acls) } : {}),
  });
  const allowed = async (req: Request, acls: readonly string[]): Promise<boolean> =>
    !authorizer || (await authorizer(req, acls));

  const router = Router();

  const callerOf = options.callerIdentity ?? callerFromAuthorization;
  const search = async (req: Request, res: Response, name: string, body: unknown): Promise<void> => {
    if (queryService.stream && wantsNdjson(req)) {
      await writeNdjson(req, res, await queryService.stream(name, body, contextOf(req)), logger);
      return;
    }
    if (queryService.answer) {
      sendAnswer(req, res, await queryService.answer(name, body, { ...contextOf(req), callerId: callerOf(req) }));
      return;
    }
    sendAnswer(req, res, {
      json: serializeSearchResponse(await queryService.search(name, body, contextOf(req))),
      cached: false,
    });
  };
  router.post('/q/:queryName', requireJson, async (req, res) => {
    const body: unknown = req.body === undefined ? {} : req.body;
    const name = queryNameOf(req);
    await timeQuery(options.metrics, { tenant: tenantOf(req), query: name }, () => search(req, res, name, body));
  });

  router.get('/q', async (req, res) => {
    const summaries = queryService.listQueries(contextOf(req));
    const visible = [];
    for (const summary of summaries) if (await allowed(req, summary.acls)) visible.push(describe(summary));
    visible.sort((a, b) => a.name.localeCompare(b.name));
    res.json(successEnvelope(visible));
  });

  router.get('/q/:queryName', async (req, res) => {
    const summary = queryService.describeQuery(queryNameOf(req), contextOf(req));
    if (!(await allowed(req, summary.acls))) {
      throw queryError(QueryErrorCodes.forbidden, `Access to query '${summary.name}' is not allowed`, [summary.name]);
    }
    res.json(successEnvelope(describe(summary)));
  });

  return router;
}
