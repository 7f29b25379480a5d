// The {{namespace}} query module: where its files are, and how to start it on a database. A host
// that serves several query modules (a mini-monolith) takes `queryModuleFiles()` and adds the
// patterns to its own query config; `startQueryModule` is the standalone way, used by main.ts and
// the tests.
import * as path from 'node:path';
import { createDatabase, migrateDatabase, readMigrationFolder, type Database, type Logger } from '@fw/core';
import { makeQueryService, type QueryService } from '@fw/query-core';

/** The public name of the query: `POST /q/{{namespaceKebab}}-items`. */
export const QUERY_NAME = '{{namespaceKebab}}-items';
/** The tenant requests without `x-fw-tenant-id` use; the module has one database. */
export const DEFAULT_TENANT = 'default';
/** PGlite in memory unless a URL is given: a try-out needs no database server. */
export const DEFAULT_DATABASE_URL = 'pglite:memory:';

const PACKAGE_DIR = path.resolve(__dirname, '../..');

export interface QueryModuleFiles {
  /** Folder the patterns are relative to (the package's folder). */
  baseDir: string;
  mapperFiles: string;
  definitionFiles: string;
  /** Folder of the seed migration(s): apply with `migrateDatabase(db, readMigrationFolder(dir))`. */
  migrationsDir: string;
}

export function queryModuleFiles(): QueryModuleFiles {
  return { baseDir: PACKAGE_DIR, mapperFiles: 'query/mappers/*.xml', definitionFiles: 'query/definitions/*.json', migrationsDir: path.join(PACKAGE_DIR, 'migrations') };
}

export interface QueryModule {
  queryService: QueryService;
  database: Database;
  close(): Promise<void>;
}

export interface QueryModuleOptions {
  /** `postgres://…` or `pglite:<folder>`; default in-memory PGlite. */
  databaseUrl?: string;
  username?: string;
  password?: string;
  logger?: Logger;
}

/** Opens the database, applies the seed migration (once: the ledger skips it later) and starts the query service. */
export async function startQueryModule(options: QueryModuleOptions = {}): Promise<QueryModule> {
  const files = queryModuleFiles();
  const url = options.databaseUrl || DEFAULT_DATABASE_URL;
  const database = createDatabase({ url, username: options.username, password: options.password });
  try {
    await migrateDatabase(database, readMigrationFolder(files.migrationsDir));
    // The service would open its own pool per tenant from the URL; handing it the migrated
    // database keeps one connection set (and, for in-memory PGlite, the same database at all).
    const queryService = await makeQueryService({
      config: { defaultTenantId: DEFAULT_TENANT, datasources: { [DEFAULT_TENANT]: { jdbcUrl: url } }, mapperFiles: files.mapperFiles, definitionFiles: files.definitionFiles },
      baseDir: files.baseDir,
      databaseFactory: () => database,
      ...(options.logger ? { logger: options.logger } : {}),
    });
    return {
      queryService,
      database,
      close: async () => {
        await queryService.close();
        await database.close(); // already closed by the service's pool shutdown; a second close does nothing
      },
    };
  } catch (err) {
    await database.close();
    throw err;
  }
}
