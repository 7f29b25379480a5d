// enableQueryController=y: named queries at POST /q/{name} (@fw/query-controller), run by the
// query service of @fw/query-core over this host's database. The queries are also registered as a
// service of kind `query`, so /info and the admin UI list them.
{{#hasQueryModules}}
// The mappers, definitions and migrations come from the query modules this host was generated
// with (`dependencies` entries "<package>#queryModuleFiles"): each module's package says where its
// files are, so they are served from the installed package, never copied.
{{/hasQueryModules}}
{{^hasQueryModules}}
// The mappers and definitions live in queries/ (shipped with the package); their sample table is
// seeded by queries/migrations. Generate with a query module in `dependencies`
// ("<package>#queryModuleFiles") to serve that module instead.
{{/hasQueryModules}}
import * as path from 'node:path';
import { migrateDatabase, readMigrationFolder, type Database, type Logger } from '@fw/core';
import { makeQueryRouter } from '@fw/query-controller';
import { makeQueryService, type QueryService } from '@fw/query-core';
import { defineService, type ServiceDefinition } from '@fw/service';
import type { Router } from 'express';
{{#queryModules}}
import { queryModuleFiles as {{alias}} } from '{{package}}';
{{/queryModules}}

const TENANT = 'default';
/** This package's folder: what relative paths of the query config are resolved against. */
const PACKAGE_DIR = path.join(__dirname, '..', '..');

/** Where a query module's files are (the shape of a mapperQuery package's `queryModuleFiles()`). */
export interface QueryFiles {
  /** Folder the patterns are relative to. */
  baseDir: string;
  mapperFiles: string;
  definitionFiles: string;
  /** Its migrations (the tables its queries read, and their seed), applied at start. */
  migrationsDir: string;
}

/** One source of named queries: its name (for messages) and where its files are. */
export interface QuerySource {
  name: string;
  files: () => QueryFiles;
}

{{#hasQueryModules}}
export const QUERY_SOURCES: readonly QuerySource[] = [
{{#queryModules}}
  { name: '{{package}}', files: {{alias}} },
{{/queryModules}}
];
{{/hasQueryModules}}
{{^hasQueryModules}}
export const QUERIES_DIR = path.join(PACKAGE_DIR, 'queries');

/** The sample query `catalog-items` of queries/. */
export const QUERY_SOURCES: readonly QuerySource[] = [
  { name: 'sample queries/', files: () => ({ baseDir: QUERIES_DIR, mapperFiles: 'mappers/*.xml', definitionFiles: 'definitions/*.json', migrationsDir: path.join(QUERIES_DIR, 'migrations') }) },
];
{{/hasQueryModules}}

export interface NamedQueries {
  service: ServiceDefinition;
  router: Router;
  close(): Promise<void>;
}

/**
 * Applies every source's migrations, then starts one query service over all of their files (one
 * service, because the router answers 404 for a query it does not know instead of passing on).
 */
export async function startNamedQueries(database: Database, databaseUrl: string, logger: Logger, sources: readonly QuerySource[] = QUERY_SOURCES): Promise<NamedQueries> {
  const files = sources.map((source) => source.files());
  for (const [i, f] of files.entries()) {
    await migrateDatabase(database, readMigrationFolder(f.migrationsDir)).catch((err: unknown) => {
      throw new Error(`query source ${sources[i].name}: its migrations failed: ${(err as Error).message}`);
    });
  }
  // The host owns the database: the query service gets a view of it whose close does nothing.
  const shared: Database = Object.create(database, { close: { value: async () => undefined } });
  const queryService: QueryService = await makeQueryService({
    config: {
      defaultTenantId: TENANT,
      datasources: { [TENANT]: { jdbcUrl: databaseUrl } },
      // Absolute patterns: each source's files stay where its package put them.
      mapperFiles: files.map((f) => path.join(f.baseDir, f.mapperFiles)),
      definitionFiles: files.map((f) => path.join(f.baseDir, f.definitionFiles)),
    },
    baseDir: PACKAGE_DIR,
    databaseFactory: () => shared,
    logger,
  });
  const operations = queryService.listQueries({ tenantId: TENANT }).map((q) => ({
    name: q.name,
    description: `Named query '${q.name}' (${q.id})`,
    method: 'POST' as const,
    path: `/q/${q.name}`,
  }));
  const service = defineService({
    name: 'query',
    version: '{{monolithVersion}}',
    kind: 'query',
    description: 'Named queries: POST /q/{queryName} with filters, sortCriteria, pageNum, numRowsInPage',
    httpBinding: 'host',
    operations,
    details: () => ({ tenant: TENANT, sources: sources.map((s) => s.name), queries: operations.map((o) => o.name) }),
  });
  return { service, router: makeQueryRouter({ queryService, logger }), close: () => queryService.close() };
}
