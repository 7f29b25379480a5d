import type { Database, DatabaseOptions, Logger } from '@fw/core';
import type { DataSourceConfig, QueryConfig } from '../config/query-config-types';
import type { ColumnMetadata } from '../definition/query-definition-types';
import type { QueryExecutionProvider } from '../provider/query-provider-types';
import type { CannedReportStore } from '../search/canned-report-store';
import type { SearchResponse } from '../search/search-types';
import type { SearchStream } from './search-stream';

/** Everything {@link makeQueryService} needs. */
export interface QueryServiceOptions {
  /** The `query` section (validated again at startup). */
  config: QueryConfig;
  /** Top-level `dataSources` (the catalog reads from one of them). */
  dataSources?: Record<string, DataSourceConfig>;
  /** Folder that `mapperFiles`, `definitionFiles` and relative `pglite:` URLs are resolved against. */
  baseDir: string;
  /** Extra providers; `query.provider` picks one by name (`sql` is built in). */
  providers?: QueryExecutionProvider[];
  /** Opens tenant and catalog databases; default `createDatabase` of `@fw/core`. */
  databaseFactory?: (options: DatabaseOptions) => Database;
  logger?: Logger;
  /**
   * Where canned reports live. Default: by `query.cannedReports.store` (in memory unless it is
   * `database`); giving a store while that is `database` fails startup.
   */
  cannedReportStore?: CannedReportStore;
  /** Most JSON text the answer cache holds over all queries and tenants (UTF-16 size); default 64 MiB. */
  cacheMaxBytes?: number;
}

/** Per-request context supplied by the caller (the controller). */
export interface SearchContext {
  /**
   * Tenant id (the controller takes it from `x-fw-tenant-id`). When absent, the tenant of the
   * current `@fw/core` request context is used, then `query.defaultTenantId`.
   */
  tenantId?: string;
  /** ACL check; when given and it answers false the request fails with 403 Q728. */
  authorize?: (acls: readonly string[]) => boolean | Promise<boolean>;
  /** Caller identity for canned reports (owner of saved reports); optional. */
  userId?: string;
  /**
   * Who is asking, for the answer cache: answers are cached per caller (this, else `userId`), so
   * a caller never gets an answer computed for another. The controller fills it from the request.
   */
  callerId?: string;
}

/**
 * A search answer with what HTTP caching needs: the payload's JSON text and, for a query whose
 * answers are cached, its entity tag and how long it stays fresh.
 */
export interface SearchAnswer {
  /** The SearchResponse payload as JSON text (`serializeSearchResponse`). */
  json: string;
  /** Strong entity tag of `json` (quoted), only for queries with a cache. */
  etag?: string;
  /** Seconds the cached answer stays fresh, only for queries with a cache. */
  maxAgeSeconds?: number;
  /** True when the answer came from the cache. */
  cached: boolean;
}

/** Public description of a query, as a tenant sees it. */
export interface QuerySummary {
  name: string;
  id: string;
  paginated: boolean;
  acls: string[];
  /** True when the tenant has its own override of this query. */
  tenantSpecific: boolean;
  columns: ColumnMetadata[];
}

/**
 * The named query service.
 *
 * @example
 * const service = await makeQueryService({ config, baseDir: __dirname });
 * const page = await service.search('books', { filters: { title: 'dune' } }, { tenantId: 't1' });
 * await service.close();
 */
export interface QueryService {
  /**
   * Runs a named query. Checks, in order: tenant (Q723/Q724) → definition (Q700) → ACL (Q728)
   * → request (Q727/Q725/Q726, all problems at once; Q729 unknown canned report) → execution (Q721/Q722).
   */
  search(queryName: string, request: unknown, context: SearchContext): Promise<SearchResponse>;
  /**
   * The same search, answered as JSON text, from the answer cache when the query has one
   * (definition `cache` or the mapper's `<cache>`): per tenant, query, request and caller.
   */
  answer(queryName: string, request: unknown, context: SearchContext): Promise<SearchAnswer>;
  /**
   * Every row of a search as a stream (for `Accept: application/x-ndjson`), in the request's
   * sort, up to the definition's `maxRows`. The same checks as `search` run first; a request with
   * `pageNum`, `numRowsInPage`, `cursor`, `countOnly` or `countMode` is refused (Q727).
   */
  stream(queryName: string, request: unknown, context: SearchContext): Promise<SearchStream>;
  /** The queries the context's tenant sees (Q723/Q724 like search). */
  listQueries(context: SearchContext): QuerySummary[];
  /** One query as the context's tenant sees it; 404 Q700 when unknown. */
  describeQuery(queryName: string, context: SearchContext): QuerySummary;
  /** Closes every tenant pool and provider. */
  close(): Promise<void>;
}
