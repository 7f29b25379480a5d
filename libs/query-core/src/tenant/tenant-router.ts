import { ConfigError, createDatabase, type Database, type DatabaseOptions, parseDatabaseUrl } from '@fw/core';
import { QUERY_CONFIG_DEFAULTS, type TenantDataSourceConfig } from '../config/query-config-types';
import { queryError, QueryErrorCodes } from '../errors/query-error-codes';

/** Creates a database handle (default: `createDatabase` of `@fw/core`). */
export type DatabaseFactory = (options: DatabaseOptions) => Database;

export interface TenantRouterOptions {
  datasources: Record<string, TenantDataSourceConfig>;
  defaultTenantId?: string | null;
  /** Folder relative `pglite:` URLs are resolved against (the config file's folder). */
  baseDir: string;
  databaseFactory?: DatabaseFactory;
}

/**
 * Maps requests to tenants and tenants to their own database. Pools are created lazily on a
 * tenant's first query (nothing connects before), but every URL is checked at construction.
 */
export interface TenantRouter {
  /**
   * The tenant of a request: `requested`, else `query.defaultTenantId`.
   * @throws FwError 400 Q723 (none and no default), 400 Q724 (not a key of `query.datasources`).
   */
  resolveTenant(requested: string | undefined): string;
  /** The tenant's database (created on first use). */
  database(tenantId: string): Database;
  tenantIds(): string[];
  /** Closes every pool created so far. */
  close(): Promise<void>;
}

/** Pool options of a datasource entry (HikariCP names → `DatabaseOptions`). */
export function databaseOptions(
  entry: TenantDataSourceConfig,
  baseDir: string,
  applicationName: string,
): DatabaseOptions {
  return {
    url: entry.jdbcUrl,
    username: entry.username,
    password: entry.password,
    maxConnections: entry.maximumPoolSize ?? QUERY_CONFIG_DEFAULTS.maximumPoolSize,
    connectionTimeoutMillis: entry.connectionTimeout ?? QUERY_CONFIG_DEFAULTS.connectionTimeout,
    idleTimeoutMillis: entry.idleTimeout ?? QUERY_CONFIG_DEFAULTS.idleTimeout,
    applicationName,
    baseDir,
  };
}

/**
 * @throws ConfigError when a URL is unsupported or `defaultTenantId` is not a configured tenant.
 *
 * @example
 * const router = makeTenantRouter({ datasources: { t1: { jdbcUrl: 'pglite:memory:' } }, baseDir: '.' });
 * const db = router.database(router.resolveTenant(undefined)); // throws Q723: no default
 */
export function makeTenantRouter(options: TenantRouterOptions): TenantRouter {
  const entries = new Map(Object.entries(options.datasources));
  for (const [tenantId, entry] of entries) {
    try {
      parseDatabaseUrl(entry.jdbcUrl, entry, options.baseDir);
    } catch (err) {
      throw new ConfigError(`query.datasources.${tenantId}.jdbcUrl: ${(err as Error).message}`);
    }
  }
  const defaultTenantId = options.defaultTenantId ?? undefined;
  if (defaultTenantId !== undefined && !entries.has(defaultTenantId)) {
    throw new ConfigError(
      `query.defaultTenantId '${defaultTenantId}' is not a key of query.datasources (configured: ${[...entries.keys()].join(', ') || 'none'})`,
    );
  }
  const factory = options.databaseFactory ?? ((o: DatabaseOptions) => createDatabase(o));
  const pools = new Map<string, Database>();
  return {
    resolveTenant(requested) {
      const tenantId = requested === undefined || requested.trim() === '' ? defaultTenantId : requested.trim();
      if (tenantId === undefined)
        throw queryError(
          QueryErrorCodes.tenantMissing,
          'The request carries no tenant and no default tenant is configured',
          [],
        );
      if (!entries.has(tenantId))
        throw queryError(QueryErrorCodes.tenantUnknown, `Tenant '${tenantId.slice(0, 128)}' is not configured`, [
          tenantId.slice(0, 128),
        ]);
      return tenantId;
    },
    database(tenantId) {
      const existing = pools.get(tenantId);
      if (existing) return existing;
      const entry = entries.get(tenantId);
      if (!entry) throw queryError(QueryErrorCodes.tenantUnknown, `Tenant '${tenantId}' is not configured`, [tenantId]);
      const database = factory(databaseOptions(entry, options.baseDir, `fw-query:${tenantId}`));
      pools.set(tenantId, database);
      return database;
    },
    tenantIds() {
      return [...entries.keys()];
    },
    async close() {
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(all.map((d) => d.close()));
    },
  };
}
