import { ConfigError, createDatabase, createLogger, currentTenantId, DatabaseOptions, isFwError } from '@fw/core';
import { loadQuerySources } from '../catalog/query-source-loader';
import { parseQueryConfig } from '../config/query-config-parser';
import { QUERY_CONFIG_DEFAULTS } from '../config/query-config-types';
import { makeQueryDefinitionStore } from '../definition/query-definition-store';
import type { QueryDefinition } from '../definition/query-definition-types';
import { queryError, QueryErrorCodes } from '../errors/query-error-codes';
import { makeSqlQueryProvider } from '../provider/sql-query-provider';
import type { ExecutionMode, QueryExecutionProvider, QueryExecutionResult } from '../provider/query-provider-types';
import { makeSearchRequestParser } from '../search/search-request-parser';
import { planSearch } from '../search/search-planner';
import { buildOrderBy, buildPagination, PageWindow } from '../search/sql-fragments';
import { makeTenantRouter } from '../tenant/tenant-router';
import { makeCannedReportHandler } from './canned-report-handler';
import { openCannedReportStore } from './canned-report-store-setup';
import { QueryService, QueryServiceOptions, QuerySummary, SearchContext } from './query-service-types';
import { buildSearchResponse, ResponseShape } from './search-response-builder';

function summary(definition: QueryDefinition): QuerySummary {
  return {
    name: definition.name,
    id: definition.id,
    paginated: definition.paginated,
    acls: [...definition.acls],
    tenantSpecific: definition.tenantId !== undefined,
    columns: Object.values(definition.columnMetadata).map((c) => ({ ...c })),
  };
}

/**
 * Starts the named query service: validates the config, opens (lazily) one pool per tenant,
 * loads mapper and definition files and the catalog, merges them and checks every definition's
 * statement. Any problem throws a ConfigError whose message names the file, catalog row or
 * setting to fix, so a misconfigured service never serves traffic.
 *
 * @example
 * const service = await makeQueryService({
 *   config: { defaultTenantId: 't1', datasources: { t1: { jdbcUrl: 'pglite:./data' } },
 *             mapperFiles: 'mappers/*.xml', definitionFiles: 'definitions/*.json' },
 *   baseDir: __dirname,
 * });
 * const response = await service.search('books', { filters: { title: 'dune' } }, {});
 */
export async function makeQueryService(options: QueryServiceOptions): Promise<QueryService> {
  const { query: config, dataSources } = parseQueryConfig({ query: options.config, dataSources: options.dataSources ?? {} }, 'query service config');
  const logger = options.logger ?? createLogger({ name: 'query-core' });
  const databaseFactory = options.databaseFactory ?? ((o: DatabaseOptions) => createDatabase(o));
  const router = makeTenantRouter({ datasources: config.datasources, defaultTenantId: config.defaultTenantId, baseDir: options.baseDir, databaseFactory });

  const providerName = config.provider ?? QUERY_CONFIG_DEFAULTS.provider;
  const custom = new Map<string, QueryExecutionProvider>();
  for (const provider of options.providers ?? []) {
    if (custom.has(provider.name)) throw new ConfigError(`Two QueryExecutionProviders are named '${provider.name}'`);
    custom.set(provider.name, provider);
  }
  if (providerName !== 'sql' && !custom.has(providerName)) {
    throw new ConfigError(`query.provider '${providerName}' is not a registered QueryExecutionProvider (registered: ${['sql', ...custom.keys()].join(', ')})`);
  }

  const sources = await loadQuerySources({
    config,
    dataSources,
    baseDir: options.baseDir,
    databaseFactory,
    logger,
  });
  const provider = custom.get(providerName) ?? makeSqlQueryProvider({ statements: sources.mappers, databaseFor: (t) => router.database(t), logger });
  for (const { definition, source } of sources.definitions) {
    if (provider.supportsStatement && !provider.supportsStatement(definition.id)) {
      const scope = definition.tenantId === undefined ? '' : ` (tenant '${definition.tenantId}')`;
      throw new ConfigError(`${source}: query '${definition.name}'${scope} references statement '${definition.id}', which is not defined by any loaded mapper`);
    }
  }
  const store = makeQueryDefinitionStore(sources.definitions);
  const maxRowsInPage = config.pagination?.maxRowsInPage ?? QUERY_CONFIG_DEFAULTS.maxRowsInPage;
  const globalCount = config.pagination?.countQueryEnabled ?? QUERY_CONFIG_DEFAULTS.countQueryEnabled;
  const parser = makeSearchRequestParser(maxRowsInPage);
  // Opened last: every earlier startup check can fail without a canned-report pool to close.
  const cannedReports = await openCannedReportStore({ config, dataSources, baseDir: options.baseDir, databaseFactory, supplied: options.cannedReportStore });
  const canned = makeCannedReportHandler(cannedReports.store);
  logger.info({ provider: provider.name, queries: store.all().length, mappers: sources.mappers.namespaces().length, tenants: router.tenantIds(), cannedReportStore: options.cannedReportStore ? 'supplied' : config.cannedReports?.store ?? QUERY_CONFIG_DEFAULTS.cannedReportStore }, 'query service ready');

  const tenantOf = (context: SearchContext) => router.resolveTenant(context.tenantId ?? currentTenantId());
  const definitionOf = (name: string, tenantId: string) => {
    const definition = store.lookup(name, tenantId);
    if (!definition) throw queryError(QueryErrorCodes.unknownQuery, `Query '${name.slice(0, 200)}' does not exist`, [name.slice(0, 200)]);
    return definition;
  };

  async function execute(definition: QueryDefinition, tenantId: string, parameters: Record<string, unknown>, plan: ReturnType<typeof planSearch>, mode: ExecutionMode, page: PageWindow | undefined): Promise<QueryExecutionResult> {
    try {
      return await provider.execute({ definition, tenantId, parameters, filters: plan.filters, sort: plan.sort, page, mode });
    } catch (err) {
      if (isFwError(err)) throw err;
      logger.error({ err, query: definition.name, tenantId, provider: provider.name }, 'query provider failed');
      throw queryError(QueryErrorCodes.queryFailed, `Query '${definition.name}' failed`, [definition.name]);
    }
  }

  return {
    async search(queryName, body, context) {
      const tenantId = tenantOf(context);
      const definition = definitionOf(queryName, tenantId);
      if (context.authorize && !(await context.authorize(definition.acls))) {
        throw queryError(QueryErrorCodes.forbidden, `Access to query '${definition.name}' is not allowed`, [definition.name]);
      }
      const parsed = parser.parse(body);
      // Only a request naming a canned report needs the (asynchronous) store.
      const usesCanned = parsed.cannedReportName !== undefined || parsed.saveChangesToCannedReport !== undefined || parsed.publishCannedReportToEveryone !== undefined;
      const request = usesCanned ? await canned.apply(parsed, tenantId, definition.name, context.userId) : parsed;
      const plan = planSearch(request, definition);
      if (usesCanned) await canned.saveIfRequested(request, tenantId, definition.name, context.userId);

      const pageNum = request.pageNum ?? 1;
      const numRowsInPage = request.numRowsInPage ?? 10;
      const offset = (pageNum - 1) * numRowsInPage;
      const countMode = definition.countQueryEnabled ?? globalCount;
      let mode: ExecutionMode;
      let page: PageWindow | undefined;
      if (request.countOnly) mode = 'count';
      else if (!definition.paginated) mode = 'rows';
      else if (countMode) {
        mode = 'both';
        page = { limit: numRowsInPage, offset };
      } else {
        mode = 'rows';
        page = { limit: numRowsInPage + 1, offset };
      }
      const parameters = { ...plan.parameters, orderby: mode === 'count' ? '' : buildOrderBy(plan.sort), pagination: buildPagination(page) };
      // Listed while the query runs: a database store then adds no round trip to the response time.
      const availableCannedReports = canned.available(tenantId, definition.name, context.userId);
      // Its failure surfaces at the await below; if the query fails first, that error is the answer.
      availableCannedReports.catch(() => undefined);
      const result = await execute(definition, tenantId, parameters, plan, mode, page);
      let shape: ResponseShape;
      if (mode === 'count') shape = { kind: 'countOnly', total: result.totalCount ?? 0 };
      else if (!definition.paginated) shape = { kind: 'all', rows: result.rows };
      else if (mode === 'both') shape = { kind: 'counted', rows: result.rows, total: result.totalCount ?? 0 };
      else shape = { kind: 'lookahead', rows: result.rows };
      return buildSearchResponse(
        {
          definition,
          pageNum,
          numRowsInPage,
          fields: request.fields,
          hiddenColumns: request.hiddenColumns ?? [],
          cannedReportName: request.cannedReportName ?? null,
          availableCannedReports: await availableCannedReports,
        },
        shape,
      );
    },
    listQueries(context) {
      return store.listFor(tenantOf(context)).map(summary);
    },
    describeQuery(queryName, context) {
      return summary(definitionOf(queryName, tenantOf(context)));
    },
    async close() {
      await router.close();
      await cannedReports.close();
      for (const p of custom.values()) await p.close?.();
    },
  };
}
