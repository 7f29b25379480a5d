import { isFwError, type Logger } from '@fw/core';
import { type ResultCache, stableJson } from '../cache/result-cache';
import { requestCountMode } from '../count/count-mode';
import type { QueryDefinition } from '../definition/query-definition-types';
import { queryError, QueryErrorCodes } from '../errors/query-error-codes';
import type { StatementLookup } from '../provider/sql-query-provider';
import type {
  QueryExecutionProvider,
  QueryExecutionRequest,
  QueryExecutionResult,
} from '../provider/query-provider-types';
import { type SearchRequestParser } from '../search/search-request-parser';
import { planSearch, type SearchPlan } from '../search/search-planner';
import type { SearchRequest, SearchResponse } from '../search/search-types';
import { buildOrderBy, buildPagination } from '../search/sql-fragments';
import type { CannedReportHandler } from './canned-report-handler';
import { type ExecutionPlan, planExecution, responseShape } from './search-execution-plan';
import { buildSearchResponse } from './search-response-builder';
import { serializeSearchResponse } from './search-response-serializer';
import { assertStreamable, openSearchStream, type SearchStream } from './search-stream';
import type { SearchAnswer, SearchContext } from './query-service-types';

/** What the search paths share, built once by `makeQueryService`. */
export interface SearchRunnerDeps {
  provider: QueryExecutionProvider;
  statements: StatementLookup;
  parser: SearchRequestParser;
  canned: CannedReportHandler;
  cache: ResultCache;
  logger: Logger;
  globalCountQueryEnabled: boolean;
  streamAbove: number;
  /** The tenant of a context (Q723/Q724). */
  tenantOf(context: SearchContext): string;
  /** The tenant's definition of a name (Q700). */
  definitionOf(name: string, tenantId: string): QueryDefinition;
  /** The tenant's default statement timeout, ms. */
  tenantTimeoutMillis(tenantId: string): number | undefined;
}

/** A checked request: everything a search, an answer or a stream runs from. */
interface Prepared {
  tenantId: string;
  definition: QueryDefinition;
  request: SearchRequest;
  plan: SearchPlan;
  usesCanned: boolean;
}

/** The search paths of the query service: `search`, `answer` (with the answer cache) and `stream`. */
export interface SearchRunner {
  search(queryName: string, body: unknown, context: SearchContext): Promise<SearchResponse>;
  answer(queryName: string, body: unknown, context: SearchContext): Promise<SearchAnswer>;
  stream(queryName: string, body: unknown, context: SearchContext): Promise<SearchStream>;
}

/** Order of checks: tenant → definition → ACL → request (canned report applied and saved). */
async function prepare(
  deps: SearchRunnerDeps,
  queryName: string,
  body: unknown,
  context: SearchContext,
  streamed: boolean,
): Promise<Prepared> {
  const tenantId = deps.tenantOf(context);
  const definition = deps.definitionOf(queryName, tenantId);
  if (context.authorize && !(await context.authorize(definition.acls))) {
    throw queryError(QueryErrorCodes.forbidden, `Access to query '${definition.name}' is not allowed`, [
      definition.name,
    ]);
  }
  const parsed = deps.parser.parse(body);
  if (streamed) assertStreamable(parsed);
  // Only a request naming a canned report needs the (asynchronous) store.
  const usesCanned =
    parsed.cannedReportName !== undefined ||
    parsed.saveChangesToCannedReport !== undefined ||
    parsed.publishCannedReportToEveryone !== undefined;
  const request = usesCanned ? await deps.canned.apply(parsed, tenantId, definition.name, context.userId) : parsed;
  const plan = planSearch(request, definition);
  if (usesCanned) await deps.canned.saveIfRequested(request, tenantId, definition.name, context.userId);
  return { tenantId, definition, request, plan, usesCanned };
}

/** The provider's request for a checked search run as `execution`. */
function executionRequest(deps: SearchRunnerDeps, prepared: Prepared, execution: ExecutionPlan): QueryExecutionRequest {
  const { definition, tenantId, plan } = prepared;
  const paged = execution.keyset === undefined && execution.mode !== 'count';
  const parameters = {
    ...plan.parameters,
    orderby: paged ? buildOrderBy(execution.sort) : '',
    pagination: paged ? buildPagination(execution.page) : '',
  };
  const tenantTimeout = deps.tenantTimeoutMillis(tenantId);
  return {
    definition,
    tenantId,
    parameters,
    filters: plan.filters,
    sort: execution.sort,
    ...(execution.page ? { page: execution.page } : {}),
    mode: execution.mode,
    ...(execution.keyset
      ? {
          keyset: {
            ...(execution.keyset.after ? { after: execution.keyset.after } : {}),
            backward: execution.keyset.backward,
          },
        }
      : {}),
    ...(execution.countMode === 'planned' ? { countMode: 'planned' as const } : {}),
    ...(definition.timeoutMillis === undefined ? {} : { timeoutMillis: definition.timeoutMillis }),
    ...(tenantTimeout === undefined ? {} : { defaultTimeoutMillis: tenantTimeout }),
  };
}

/** Any non-FwError of a provider is logged and answered as Q721. */
async function execute(deps: SearchRunnerDeps, request: QueryExecutionRequest): Promise<QueryExecutionResult> {
  try {
    return await deps.provider.execute(request);
  } catch (err) {
    // Errors for the client pass; the engine's own (a mapper that cannot render) are a failed query.
    if (isFwError(err) && err.expose) throw err;
    deps.logger.error(
      { err, query: request.definition.name, tenantId: request.tenantId, provider: deps.provider.name },
      'query provider failed',
    );
    throw queryError(QueryErrorCodes.queryFailed, `Query '${request.definition.name}' failed`, [
      request.definition.name,
    ]);
  }
}

/** Runs a checked search and builds its response. */
async function run(deps: SearchRunnerDeps, prepared: Prepared, context: SearchContext): Promise<SearchResponse> {
  const { definition, tenantId, request } = prepared;
  const countMode = requestCountMode(definition, request, deps.globalCountQueryEnabled);
  const execution = planExecution(
    definition,
    request,
    prepared.plan.sort,
    countMode,
    definition.streamAbove ?? deps.streamAbove,
  );
  // Listed while the query runs: a database store then adds no round trip to the response time.
  const availableCannedReports = deps.canned.available(tenantId, definition.name, context.userId);
  // Its failure surfaces at the await below; if the query fails first, that error is the answer.
  availableCannedReports.catch(() => undefined);
  const result = await execute(deps, executionRequest(deps, prepared, execution));
  const shape = responseShape(execution, result, definition);
  return buildSearchResponse(
    {
      definition,
      pageNum: execution.pageNum,
      numRowsInPage: execution.numRowsInPage,
      fields: request.fields,
      hiddenColumns: request.hiddenColumns ?? [],
      cannedReportName: request.cannedReportName ?? null,
      availableCannedReports: await availableCannedReports,
      countMode: execution.countMode,
    },
    shape,
  );
}

/** The cache settings of a definition: its own `cache`, else its statement's `<cache>`. */
function cacheOf(deps: SearchRunnerDeps, definition: QueryDefinition): { ttlMillis: number; size: number } | undefined {
  const statementCache = deps.statements.getStatement(definition.id)?.cache;
  if (definition.cache) return { ttlMillis: definition.cache.ttlSeconds * 1000, size: statementCache?.size ?? 1024 };
  return statementCache;
}

/** Builds the search paths over `deps` (see {@link SearchRunner}). */
export function makeSearchRunner(deps: SearchRunnerDeps): SearchRunner {
  return {
    async search(queryName, body, context) {
      return run(deps, await prepare(deps, queryName, body, context, false), context);
    },
    async answer(queryName, body, context) {
      const prepared = await prepare(deps, queryName, body, context, false);
      const settings = cacheOf(deps, prepared.definition);
      // A request that saves a canned report changes state: always run it.
      if (!settings || prepared.request.saveChangesToCannedReport)
        return { json: serializeSearchResponse(await run(deps, prepared, context)), cached: false };
      const scope = `${prepared.tenantId}\u0000${prepared.definition.name}`;
      const key = `${context.callerId ?? context.userId ?? ''}\u0000${stableJson(prepared.request)}`;
      const hit = deps.cache.get(scope, key);
      const entry =
        hit ??
        deps.cache.set(
          scope,
          key,
          serializeSearchResponse(await run(deps, prepared, context)),
          settings.ttlMillis,
          settings.size,
        );
      const maxAgeSeconds = Math.max(0, Math.floor((entry.expiresAt - Date.now()) / 1000));
      return { json: entry.json, etag: entry.etag, maxAgeSeconds, cached: hit !== undefined };
    },
    async stream(queryName, body, context) {
      const prepared = await prepare(deps, queryName, body, context, true);
      const execution: ExecutionPlan = {
        mode: 'rows',
        countMode: 'none',
        sort: prepared.plan.sort,
        pageNum: 1,
        numRowsInPage: 0,
      };
      try {
        return await openSearchStream(
          deps.provider,
          executionRequest(deps, prepared, execution),
          prepared.definition.maxRows,
          prepared.request.fields,
        );
      } catch (err) {
        if (isFwError(err) && err.expose) throw err;
        deps.logger.error({ err, query: queryName, provider: deps.provider.name }, 'query stream failed');
        throw queryError(QueryErrorCodes.queryFailed, `Query '${prepared.definition.name}' failed`, [
          prepared.definition.name,
        ]);
      }
    },
  };
}
