import type { Logger } from '@fw/core';
import type { ColumnType, QueryService } from '@fw/query-core';
import type { FwMetrics } from '@fw/telemetry';
import type { Express, Request } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Who is calling, for the answer cache (answers are cached per caller). Default: a digest of the
 * `Authorization` header. Return what your auth layer knows (a verified user id).
 *
 * @example
 * const callerIdentity: CallerIdentity = (req) => (req as { user?: { id: string } }).user?.id;
 */
export type CallerIdentity = (req: IncomingMessage) => string | undefined;

/**
 * Decides whether the caller of `req` may run a query protected by `acls`.
 * The framework does not authenticate: the host's authorizer reads whatever its auth layer put
 * on the request (a verified JWT's roles, an API key's scopes…).
 *
 * @example
 * const authorizer: QueryAuthorizer = (req, acls) =>
 *   acls.length === 0 || acls.some((acl) => (req.header('x-roles') ?? '').split(',').includes(acl));
 */
export type QueryAuthorizer = (req: Request, acls: readonly string[]) => boolean | Promise<boolean>;

/** What {@link makeQueryRouter} needs. */
export interface QueryRouterOptions {
  /**
   * The started query service (`makeQueryService` of `@fw/query-core`). With `answer`, searches
   * of cached queries carry `ETag` (and answer 304); with `stream`, `Accept: application/x-ndjson`
   * streams the rows.
   */
  queryService: Pick<QueryService, 'search' | 'listQueries' | 'describeQuery'> &
    Partial<Pick<QueryService, 'answer' | 'stream'>>;
  /** ACL check; without one, acls are not enforced and that is logged once at creation. */
  authorizer?: QueryAuthorizer;
  logger: Logger;
  /** Caller identity for the answer cache; default a digest of `Authorization`. */
  callerIdentity?: CallerIdentity;
  /**
   * Where `fw_query_duration_seconds{tenant,query}` of each `POST /q/{name}` is recorded
   * (`makeFwMetrics()` of `@fw/telemetry`), for names the catalog knows. Absent: nothing recorded.
   */
  metrics?: Pick<FwMetrics, 'queryExecuted'>;
}

/** What {@link makeQueryRequestHandler} needs. */
export interface QueryRequestHandlerOptions {
  /** The started query service (`makeQueryService` of `@fw/query-core`); `answer` and `stream` as for the router. */
  queryService: Pick<QueryService, 'search'> & Partial<Pick<QueryService, 'answer' | 'stream'>>;
  /** Caller identity for the answer cache; default a digest of `Authorization`. */
  callerIdentity?: CallerIdentity;
  /**
   * ACL check, called with node's request upgraded to an express `Request` (prototype of `app`,
   * plus `params` and `body`), so the same authorizer serves the router and this handler.
   */
  authorizer?: QueryAuthorizer;
  /** Where 5xx errors are logged (as `makeErrorMiddleware` logs them). */
  logger: Logger;
  /** Largest accepted body: bytes, or text like `express.json`'s `limit`. Default `'1mb'`. */
  bodyLimit?: number | string;
  /** The express app whose request prototype the authorizer sees (`req.app`, `req.ip`…); default a bare app. */
  app?: Pick<Express, 'request'>;
  /** Where each search's duration is recorded, as for the router. Absent: nothing recorded. */
  metrics?: Pick<FwMetrics, 'queryExecuted'>;
}

/**
 * A node:http handler in the connect style: it answers the requests it takes on and calls `next()`
 * (synchronously, before reading anything) for every other request.
 */
export type QueryRequestHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** A filterable column as `GET /q` and `GET /q/{queryName}` show it. */
export interface FilterDescription {
  name: string;
  columnType: ColumnType | null;
  /** The value is matched as a substring (`%value%`). */
  likeQuery: boolean;
  /** The value may be a list (any of). */
  containsQuery: boolean;
  /** The value may be `[from, to]`. */
  betweenQuery: boolean;
}

/**
 * Public description of a named query: what a caller may send. The internal statement id and
 * SQL column names are not shown.
 */
export interface QueryDescription {
  name: string;
  paginated: boolean;
  /** True when the tenant has its own override of the query. */
  tenantSpecific: boolean;
  acls: string[];
  filters: FilterDescription[];
  /** API names of the sortable columns. */
  sortable: string[];
}
