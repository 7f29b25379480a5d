import type { Logger } from '@fw/core';
import type { ColumnType, QueryService } from '@fw/query-core';
import type { Request } from 'express';

/**
 * Decides whether the caller of `req` may run a query protected by `acls` (DECISIONS 4).
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
  /** The started query service (`makeQueryService` of `@fw/query-core`). */
  queryService: Pick<QueryService, 'search' | 'listQueries' | 'describeQuery'>;
  /** ACL check; without one, acls are not enforced and that is logged once at creation. */
  authorizer?: QueryAuthorizer;
  logger: Logger;
}

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

