// enableQueryController=y: named queries at POST /q/{name} (@fw/query-controller), run by the
// query service of @fw/query-core over this host's database. The mappers and definitions live in
// queries/ (shipped with the package); their sample table is seeded by queries/migrations. The
// queries are also registered as a service of kind `query`, so /info and the admin UI list them.
import * as path from 'node:path';
import { migrateDatabase, readMigrationFolder, type Database, type Logger } from '@fw/core';
import { makeQueryRouter } from '@fw/query-controller';
import { makeQueryService, type QueryService } from '@fw/query-core';
import { defineService, type ServiceDefinition } from '@fw/service';
import type { Router } from 'express';

export const QUERIES_DIR = path.join(__dirname, '..', '..', 'queries');
const TENANT = 'default';

export interface NamedQueries {
  service: ServiceDefinition;
  router: Router;
  close(): Promise<void>;
}

/** Seeds the sample table, then starts the query service on the host's database. */
export async function startNamedQueries(database: Database, databaseUrl: string, logger: Logger): Promise<NamedQueries> {
  await migrateDatabase(database, readMigrationFolder(path.join(QUERIES_DIR, 'migrations')));
  // The host owns the database: the query service gets a view of it whose close does nothing.
  const shared: Database = Object.create(database, { close: { value: async () => undefined } });
  const queryService: QueryService = await makeQueryService({
    config: { defaultTenantId: TENANT, datasources: { [TENANT]: { jdbcUrl: databaseUrl } }, mapperFiles: 'mappers/*.xml', definitionFiles: 'definitions/*.json' },
    baseDir: QUERIES_DIR,
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
    details: () => ({ tenant: TENANT, queries: operations.map((o) => o.name) }),
  });
  return { service, router: makeQueryRouter({ queryService, logger }), close: () => queryService.close() };
}
