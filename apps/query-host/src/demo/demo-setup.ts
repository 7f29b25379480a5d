import { createDatabase, type Database, loadConfigFile, type LoadedConfig } from '@fw/core';
import type { DatabaseFactory } from '@fw/query-core';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/** Folder of the demo config, mapper, definitions and data. */
export const DEMO_DIR = path.resolve(__dirname, '..', '..', 'demo');

/** Tenants of the demo, each with its own embedded database. */
export const DEMO_TENANTS = ['demo', 'acme'] as const;

/** A ready demo: its config, a factory that hands out the seeded databases, and close. */
export interface Demo {
  config: LoadedConfig;
  databaseFactory: DatabaseFactory;
  close(): Promise<void>;
}

const TENANT_APPLICATION = /^fw-query:(.+)$/;

/** An in-memory PGlite database with the demo schema and the tenant's rows (`demo/data/<tenant>.sql`). */
export async function seedDemoDatabase(tenantId: string): Promise<Database> {
  const database = createDatabase({ url: 'pglite:memory:' });
  const script = ['schema.sql', `${tenantId}.sql`]
    .map((f) => readFileSync(path.join(DEMO_DIR, 'data', f), 'utf8'))
    .join('\n');
  try {
    await database.withSession((s) => s.exec(script));
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

/**
 * Prepares the demo: `demo/query-host.json` (tenants `demo` and `acme`, both `pglite:memory:`),
 * and one seeded in-memory database per tenant. The factory recognises a tenant pool by the
 * application name `fw-query:<tenant>` that `@fw/query-core` gives it.
 *
 * @example
 * const demo = await prepareDemo();
 * const host = await createQueryHost({ config: demo.config, databaseFactory: demo.databaseFactory });
 */
export async function prepareDemo(env: NodeJS.ProcessEnv = process.env): Promise<Demo> {
  const config = loadConfigFile(path.join(DEMO_DIR, 'query-host.json'), { env });
  const databases = new Map<string, Database>();
  try {
    for (const tenantId of DEMO_TENANTS) databases.set(tenantId, await seedDemoDatabase(tenantId));
  } catch (err) {
    await Promise.all([...databases.values()].map((d) => d.close()));
    throw err;
  }
  return {
    config,
    databaseFactory(options) {
      const tenantId = TENANT_APPLICATION.exec(options.applicationName ?? '')?.[1];
      const database = tenantId === undefined ? undefined : databases.get(tenantId);
      return database ?? createDatabase(options);
    },
    async close() {
      await Promise.all([...databases.values()].map((d) => d.close()));
    },
  };
}

/** The example request printed when the demo starts. */
export function demoCurl(url: string): string {
  return `curl -s -X POST ${url}/q/books -H 'content-type: application/json' -H 'x-fw-tenant-id: demo' -d '{"filters":{"title":"the"},"sortCriteria":[{"name":"title","ascendingOrder":true}],"numRowsInPage":5}'`;
}
