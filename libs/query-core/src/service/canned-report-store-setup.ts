import { assertTablesExist, ConfigError, type Database, type DatabaseOptions } from '@fw/core';
import type { DataSourceConfig, QueryConfig } from '../config/query-config-types';
import { makeInMemoryCannedReportStore, type CannedReportStore } from '../search/canned-report-store';
import { CANNED_REPORT_TABLE, makeDatabaseCannedReportStore } from '../search/database-canned-report-store';
import { databaseOptions, type DatabaseFactory } from '../tenant/tenant-router';

/** Pool name (`pg_stat_activity.application_name`) of the canned-report database. */
const CANNED_REPORT_APPLICATION_NAME = 'fw-query-canned-reports';

/**
 * The pool options of the canned-report database when `query.cannedReports.store` is
 * `database`, else undefined. A host gives the same options to its factory for a health probe,
 * so the probe reuses the service's pool.
 *
 * @example
 * const options = cannedReportDatabaseOptions(config.query, config.dataSources, config.baseDir);
 * if (options) healthChecks.push({ name: 'database:cannedReports', check: () => probe(factory(options)) });
 */
export function cannedReportDatabaseOptions(
  config: QueryConfig,
  dataSources: Record<string, DataSourceConfig>,
  baseDir: string,
): DatabaseOptions | undefined {
  const settings = config.cannedReports;
  if (settings?.store !== 'database') return undefined;
  // parseQueryConfig has checked the entry; this guards hand-built configs.
  const entry =
    settings.dataSource === undefined || !Object.hasOwn(dataSources, settings.dataSource)
      ? undefined
      : dataSources[settings.dataSource];
  if (!entry)
    throw new ConfigError(
      `query.cannedReports.dataSource '${settings.dataSource ?? ''}' is not an entry of dataSources (configured: ${Object.keys(dataSources).join(', ') || 'none'})`,
    );
  return databaseOptions(entry, baseDir, CANNED_REPORT_APPLICATION_NAME);
}

/** The service's canned-report store and what closing the service must release. */
export interface OpenedCannedReportStore {
  store: CannedReportStore;
  /** Closes the canned-report database the service opened (nothing for memory or a supplied store). */
  close(): Promise<void>;
}

export interface CannedReportStoreSetup {
  config: QueryConfig;
  dataSources: Record<string, DataSourceConfig>;
  baseDir: string;
  databaseFactory: DatabaseFactory;
  /** `QueryServiceOptions.cannedReportStore`. */
  supplied: CannedReportStore | undefined;
}

/**
 * Picks the store `makeQueryService` uses: the supplied one, else by `query.cannedReports.store`
 * (default memory). With `database` it opens `dataSources[query.cannedReports.dataSource]` and
 * checks that `fw_query_canned_report` exists, so a missing migration fails startup, not the
 * first save.
 *
 * @throws ConfigError naming `query.cannedReports.dataSource`, the database and, for a missing
 *   table, `npm run migrate`; also when a store is supplied while the config asks for `database`.
 */
export async function openCannedReportStore(setup: CannedReportStoreSetup): Promise<OpenedCannedReportStore> {
  const options = cannedReportDatabaseOptions(setup.config, setup.dataSources, setup.baseDir);
  if (!options) return { store: setup.supplied ?? makeInMemoryCannedReportStore(), close: async () => undefined };
  if (setup.supplied) {
    // Either choice silently ignoring the other would lose reports somewhere unexpected.
    throw new ConfigError(
      'query.cannedReports.store is "database" and makeQueryService was given a cannedReportStore: use one or the other',
    );
  }
  const setting = `query.cannedReports.dataSource '${setup.config.cannedReports?.dataSource ?? ''}'`;
  let database: Database;
  try {
    database = setup.databaseFactory(options);
  } catch (err) {
    throw new ConfigError(`${setting}: ${(err as Error).message}`, { cause: err });
  }
  try {
    await assertTablesExist(database, [CANNED_REPORT_TABLE]);
  } catch (err) {
    await database.close().catch(() => undefined);
    if (err instanceof ConfigError) throw new ConfigError(`${setting}: ${err.message}`, { cause: err });
    throw new ConfigError(`${setting} (${database.displayUrl}) is unavailable: ${(err as Error).message}`, {
      cause: err,
    });
  }
  return { store: makeDatabaseCannedReportStore({ database }), close: () => database.close() };
}
