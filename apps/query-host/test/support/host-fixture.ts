import { configFromObject, createDatabase, type Database, type DatabaseOptions } from '@fw/core';
import type { QueryAuthorizer } from '@fw/query-controller';
import type { DatabaseFactory } from '@fw/query-core';
import { createTestDatabase, type DatabaseTarget, type TestDatabase } from '@fw/test-support';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createQueryHost, DEMO_DIR, type QueryHost } from '../../src';

export const FIXTURES = path.join(__dirname, '..', 'fixtures');

/** Creates the demo schema and one tenant's demo rows (`demo/data/<rows>.sql`). */
export async function seedTenant(database: Database, rows: 'demo' | 'acme'): Promise<void> {
  const script = ['schema.sql', `${rows}.sql`]
    .map((f) => readFileSync(path.join(DEMO_DIR, 'data', f), 'utf8'))
    .join('\n');
  await database.withSession((s) => s.exec(script));
}

/** Two tenant databases of one target: t1 holds the "demo" rows, t2 the "acme" rows. */
export interface TwoTenants {
  t1: TestDatabase;
  t2: TestDatabase;
  dispose(): Promise<void>;
}

export async function createTwoTenants(target: DatabaseTarget): Promise<TwoTenants> {
  const t1 = await createTestDatabase(target, { migrate: false });
  const t2 = await createTestDatabase(target, { migrate: false });
  await seedTenant(t1.database, 'demo');
  await seedTenant(t2.database, 'acme');
  return { t1, t2, dispose: async () => void (await Promise.all([t1.dispose(), t2.dispose()])) };
}

/**
 * A factory for the host: on PostgreSQL the real one (each tenant URL is its own database);
 * on PGlite (in memory, so a URL cannot be reopened) the tenant's test database, recognised by
 * the pool's application name `fw-query:<tenant>`.
 */
export function tenantFactory(
  target: DatabaseTarget,
  byTenant: Record<string, TestDatabase>,
): DatabaseFactory | undefined {
  if (target === 'postgres') return undefined;
  return (options: DatabaseOptions) => {
    const tenant = /^fw-query:(.+)$/.exec(options.applicationName ?? '')?.[1];
    const testDb = tenant === undefined ? undefined : byTenant[tenant];
    if (!testDb) throw new Error(`no test database for ${options.applicationName} ${options.url}`);
    // The test owns the database: the host closing it must not close it.
    return { ...testDb.database, close: async () => undefined };
  };
}

/** Roles from `x-roles: A,B`; a query without acls is open to everyone. */
export const headerAuthorizer: QueryAuthorizer = (req, acls) => {
  const roles = (req.header('x-roles') ?? '').split(',').map((r) => r.trim());
  return acls.length === 0 || acls.some((acl) => roles.includes(acl));
};

/** A host over two tenants with the demo mapper/definitions plus the broken query. */
export async function createTwoTenantHost(
  target: DatabaseTarget,
  tenants: TwoTenants,
  extra: {
    authorizer?: QueryAuthorizer;
    datasources?: Record<string, { jdbcUrl: string }>;
    mcp?: boolean;
    metricsToken?: string;
  } = {},
): Promise<QueryHost> {
  const config = configFromObject(
    {
      server: { port: 0 },
      query: {
        datasources: {
          t1: { jdbcUrl: tenants.t1.url, maximumPoolSize: 4 },
          t2: { jdbcUrl: tenants.t2.url, maximumPoolSize: 4 },
          ...extra.datasources,
        },
        mapperFiles: [path.join(DEMO_DIR, 'mappers/*.xml'), path.join(FIXTURES, 'broken.xml')],
        definitionFiles: [path.join(DEMO_DIR, 'definitions/*.json'), path.join(FIXTURES, 'broken.json')],
      },
    },
    FIXTURES,
  );
  const base = tenantFactory(target, { t1: tenants.t1, t2: tenants.t2 });
  return createQueryHost({
    config,
    authorizer: extra.authorizer,
    mcp: extra.mcp,
    metricsToken: extra.metricsToken,
    // Tenants other than t1/t2 (an unreachable server in the health test) use the real factory.
    databaseFactory: base && ((o) => (/^fw-query:t[12]$/.test(o.applicationName ?? '') ? base(o) : createDatabase(o))),
  });
}
