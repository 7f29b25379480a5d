import { ConfigError, createDatabase, createLogger, currentTenantId, type DatabaseOptions } from '@fw/core';
import { ResultCache } from '../cache/result-cache';
import { loadQuerySources, type QuerySources } from '../catalog/query-source-loader';
import { parseQueryConfig } from '../config/query-config-parser';
import { QUERY_CONFIG_DEFAULTS } from '../config/query-config-types';
import { makeQueryDefinitionStore, type QueryDefinitionStore } from '../definition/query-definition-store';
import { queryError, QueryErrorCodes } from '../errors/query-error-codes';
import { makeSqlQueryProvider } from '../provider/sql-query-provider';
import type { QueryExecutionProvider } from '../provider/query-provider-types';
import type { QueryDefinition } from '../definition/query-definition-types';
import { makeSearchRunner } from './search-runner';
import { makeSearchRequestParser } from '../search/search-request-parser';
import { makeTenantRouter } from '../tenant/tenant-router';
import { makeCannedReportHandler } from './canned-report-handler';
import { openCannedReportStore } from './canned-report-store-setup';
import {
  type QueryService,
  type QueryServiceOptions,
  type QuerySummary,
  type SearchContext,
} from './query-service-types';

/** Default bound of the answer cache's JSON text over every query and tenant. */
const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

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

/** The extra providers by name; the configured provider must be `sql` or one of them. */
function customProviders(
  providers: readonly QueryExecutionProvider[],
  providerName: string,
): Map<string, QueryExecutionProvider> {
  const custom = new Map<string, QueryExecutionProvider>();
  for (const provider of providers) {
    if (custom.has(provider.name)) throw new ConfigError(`Two QueryExecutionProviders are named '${provider.name}'`);
    custom.set(provider.name, provider);
  }
  if (providerName !== 'sql' && !custom.has(providerName)) {
    throw new ConfigError(
      `query.provider '${providerName}' is not a registered QueryExecutionProvider (registered: ${['sql', ...custom.keys()].join(', ')})`,
    );
  }
  return custom;
}

/** Every definition's statement must be one the provider can run. */
function checkStatements(provider: QueryExecutionProvider, definitions: QuerySources['definitions']): void {
  for (const { definition, source } of definitions) {
    if (provider.supportsStatement && !provider.supportsStatement(definition.id)) {
      const scope = definition.tenantId === undefined ? '' : ` (tenant '${definition.tenantId}')`;
      throw new ConfigError(
        `${source}: query '${definition.name}'${scope} references statement '${definition.id}', which is not defined by any loaded mapper`,
      );
    }
  }
}

/** Finds a query by name for a tenant; an unknown name is a Q-error naming it (cut to 200 characters). */
function definitionLookup(store: QueryDefinitionStore): (name: string, tenantId: string) => QueryDefinition {
  return (name, tenantId) => {
    const definition = store.lookup(name, tenantId);
    if (!definition)
      throw queryError(QueryErrorCodes.unknownQuery, `Query '${name.slice(0, 200)}' does not exist`, [
        name.slice(0, 200),
      ]);
    return definition;
  };
}

/** The canned-report store named in the startup log: `supplied`, else the configured (or default) one. */
function cannedReportStoreName(options: QueryServiceOptions, configured: string | undefined): string {
  return options.cannedReportStore ? 'supplied' : (configured ?? QUERY_CONFIG_DEFAULTS.cannedReportStore);
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
  const { query: config, dataSources } = parseQueryConfig(
    { query: options.config, dataSources: options.dataSources ?? {} },
    'query service config',
  );
  const logger = options.logger ?? createLogger({ name: 'query-core' });
  const databaseFactory = options.databaseFactory ?? ((o: DatabaseOptions) => createDatabase(o));
  const router = makeTenantRouter({
    datasources: config.datasources,
    defaultTenantId: config.defaultTenantId,
    baseDir: options.baseDir,
    databaseFactory,
  });

  const providerName = config.provider ?? QUERY_CONFIG_DEFAULTS.provider;
  const custom = customProviders(options.providers ?? [], providerName);

  const sources = await loadQuerySources({
    config,
    dataSources,
    baseDir: options.baseDir,
    databaseFactory,
    logger,
  });
  const provider =
    custom.get(providerName) ??
    makeSqlQueryProvider({ statements: sources.mappers, databaseFor: (t) => router.database(t), logger });
  checkStatements(provider, sources.definitions);
  const store = makeQueryDefinitionStore(sources.definitions);
  const maxRowsInPage = config.pagination?.maxRowsInPage ?? QUERY_CONFIG_DEFAULTS.maxRowsInPage;
  const globalCount = config.pagination?.countQueryEnabled ?? QUERY_CONFIG_DEFAULTS.countQueryEnabled;
  const parser = makeSearchRequestParser(maxRowsInPage);
  // Opened last: every earlier startup check can fail without a canned-report pool to close.
  const cannedReports = await openCannedReportStore({
    config,
    dataSources,
    baseDir: options.baseDir,
    databaseFactory,
    supplied: options.cannedReportStore,
  });
  const canned = makeCannedReportHandler(cannedReports.store);
  logger.info(
    {
      provider: provider.name,
      queries: store.all().length,
      mappers: sources.mappers.namespaces().length,
      tenants: router.tenantIds(),
      cannedReportStore: cannedReportStoreName(options, config.cannedReports?.store),
    },
    'query service ready',
  );

  const tenantOf = (context: SearchContext) => router.resolveTenant(context.tenantId ?? currentTenantId());
  const definitionOf = definitionLookup(store);
  const runner = makeSearchRunner({
    provider,
    statements: sources.mappers,
    parser,
    canned,
    cache: new ResultCache(options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES),
    logger,
    globalCountQueryEnabled: globalCount,
    streamAbove: QUERY_CONFIG_DEFAULTS.streamAbove,
    tenantOf,
    definitionOf,
    tenantTimeoutMillis: (tenantId) => config.datasources[tenantId]?.timeoutMillis,
  });

  return {
    search: runner.search,
    answer: runner.answer,
    stream: runner.stream,
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
