import { createDatabase, type Database, type DatabaseOptions, type HealthCheck } from '@fw/core';
import { cannedReportDatabaseOptions, databaseOptions, type DatabaseFactory } from '@fw/query-core';
import type { HostConfig } from '../config/host-config';

/**
 * The host's view of the databases the query service opens: one handle per pool (keyed by
 * application name and URL), shared between the service and the health checks.
 */
export interface HostDatabases {
  /** Give this to `makeQueryService`; the same pool comes back for the same tenant. */
  factory: DatabaseFactory;
  /**
   * One `select 1` probe per tenant datasource (opening its pool if the service has not yet), and
   * `cannedReports` when `query.cannedReports.store` is `database`.
   */
  healthChecks(): HealthCheck[];
  close(): Promise<void>;
}

const PROBE_TIMEOUT_MS = 3_000;

async function probe(database: Database): Promise<{ healthy: boolean; message?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ healthy: boolean; message: string }>((resolve) => {
    timer = setTimeout(
      () => resolve({ healthy: false, message: `no answer within ${PROBE_TIMEOUT_MS} ms` }),
      PROBE_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([
      database.withSession((s) => s.query('select 1 as ok')).then(() => ({ healthy: true })),
      timeout,
    ]);
  } catch (err) {
    // The message of a connection error names host/port, never the password.
    return { healthy: false, message: (err as Error).message || 'connection failed' };
  } finally {
    clearTimeout(timer);
  }
}

/** Wraps `base` (default `createDatabase`) so each pool is created once and probed by `/health-check`. */
export function makeHostDatabases(
  config: HostConfig,
  base: DatabaseFactory = (o: DatabaseOptions) => createDatabase(o),
): HostDatabases {
  const pools = new Map<string, Database>();
  const factory: DatabaseFactory = (options) => {
    const key = `${options.applicationName ?? ''}|${options.url}`;
    let database = pools.get(key);
    if (!database) {
      const opened = base(options);
      // A closed pool (the catalog is closed after startup) is forgotten, so the next use reopens it.
      database = {
        ...opened,
        close: async () => {
          pools.delete(key);
          await opened.close();
        },
      };
      pools.set(key, database);
    }
    return database;
  };
  return {
    factory,
    healthChecks() {
      const checks: HealthCheck[] = Object.entries(config.query.datasources).map(([tenantId, entry]) => ({
        name: `database:${tenantId}`,
        check: () => probe(factory(databaseOptions(entry, config.baseDir, `fw-query:${tenantId}`))),
      }));
      // The same options as the service's store, so the probe shares its pool.
      const cannedReports = cannedReportDatabaseOptions(config.query, config.dataSources, config.baseDir);
      if (cannedReports) checks.push({ name: 'cannedReports', check: () => probe(factory(cannedReports)) });
      return checks;
    },
    async close() {
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(all.map((d) => d.close().catch(() => undefined)));
    },
  };
}
