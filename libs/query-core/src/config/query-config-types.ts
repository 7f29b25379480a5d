/**
 * Shapes of the `query` section and the top-level `dataSources` section of a query host config.
 * Times are milliseconds (HikariCP's units).
 */

/** One tenant's query database: `query.datasources.<tenantId>`. */
export interface TenantDataSourceConfig {
  /** `postgres://…`, `jdbc:postgresql://…`, `pglite:memory:` or `pglite:<folder>` (relative to the config file). */
  jdbcUrl: string;
  username?: string;
  password?: string;
  /** Pool size; default 10. */
  maximumPoolSize?: number;
  /** Wait for a free connection, ms; default 10 000. */
  connectionTimeout?: number;
  /** Idle connection lifetime, ms; default 30 000. */
  idleTimeout?: number;
  /**
   * Default statement timeout of this tenant's queries, ms (a definition's `timeoutMillis` and a
   * statement's `timeout` attribute win). Only in `query.datasources`.
   */
  timeoutMillis?: number;
}

/** A named application datasource: `dataSources.<name>` (the catalog reads from one of them). */
export type DataSourceConfig = Omit<TenantDataSourceConfig, 'timeoutMillis'>;

/** `query.pagination`. */
export interface PaginationConfig {
  /** Global count mode; a definition's `countQueryEnabled` overrides it. Default true. */
  countQueryEnabled?: boolean;
  /** Upper bound of `numRowsInPage`; default 1000. */
  maxRowsInPage?: number;
}

/** `query.catalog.jdbc`. */
export interface JdbcCatalogConfig {
  enabled?: boolean;
  /** Key of the top-level `dataSources` map to read the catalog from (required when enabled). */
  dataSource?: string;
  /** Scope key of base definitions; default `__base__`. */
  baseScope?: string;
}

/** `query.cannedReports.store`: where saved canned reports live. */
export type CannedReportStoreKind = 'memory' | 'database';

/** `query.cannedReports`. */
export interface CannedReportsConfig {
  /**
   * `memory` (default): in the process, lost on restart. `database`: the table
   * `fw_query_canned_report` in {@link dataSource} (`makeDatabaseCannedReportStore`).
   */
  store?: CannedReportStoreKind;
  /** Key of the top-level `dataSources` map holding the table; required with `database`, refused otherwise. */
  dataSource?: string;
}

/**
 * `query.mapperSettings`: the MyBatis settings (`<settings>` of `mybatis-config.xml`) the mapper
 * engine reads, applied to every mapper the service loads (files and catalog rows).
 */
export interface MapperSettingsConfig {
  /**
   * Default of `<foreach nullable>` where the element does not say: true makes a foreach over a
   * null collection render nothing instead of failing the request. Default false.
   */
  nullableOnForEach?: boolean;
}

/**
 * The `query` section.
 *
 * @example
 * const config: QueryConfig = {
 *   defaultTenantId: 't1',
 *   datasources: { t1: { jdbcUrl: 'pglite:memory:' } },
 *   mapperFiles: 'mappers/*.xml',
 *   definitionFiles: ['definitions/*.json'],
 * };
 */
export interface QueryConfig {
  defaultTenantId?: string | null;
  datasources: Record<string, TenantDataSourceConfig>;
  /** Glob patterns (comma-separated string or array), relative to the config file's folder. */
  mapperFiles?: string | string[] | null;
  /** Glob patterns; required unless the catalog is enabled. */
  definitionFiles?: string | string[] | null;
  pagination?: PaginationConfig;
  catalog?: { jdbc?: JdbcCatalogConfig };
  /** Name of the QueryExecutionProvider to use; default `sql`. */
  provider?: string | null;
  cannedReports?: CannedReportsConfig;
  mapperSettings?: MapperSettingsConfig;
}

/** What {@link parseQueryConfig} returns: the two sections the query service reads. */
export interface QueryHostConfigParts {
  query: QueryConfig;
  dataSources: Record<string, DataSourceConfig>;
}

/** Defaults applied by the service. */
export const QUERY_CONFIG_DEFAULTS = {
  countQueryEnabled: true,
  maxRowsInPage: 1000,
  baseScope: '__base__',
  provider: 'sql',
  cannedReportStore: 'memory',
  maximumPoolSize: 10,
  connectionTimeout: 10_000,
  idleTimeout: 30_000,
  /** Rows above which an unpaginated JSON answer is refused (413 Q731) unless the definition says otherwise. */
  streamAbove: 100_000,
} as const;
