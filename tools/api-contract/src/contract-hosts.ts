/**
 * The hosts whose documents the suites check, started in this process on a free port: the admin
 * server in its dev profile (every service it can register: `/process`, the administration API,
 * the example workflow service, `/mcp`) over a test database, and the query host's demo (two
 * tenants on the embedded database).
 *
 * @example
 * const host = await startAdminHost(testDb);
 * const doc = await fetchDocument(host);   // GET /openapi.json
 * await host.close();
 */
import { createAdminServer, WORD_COUNT_DEFINITIONS, seedDefinitions } from '@fw/admin-server';
import { createQueryHost, prepareDemo } from '@fw/query-host';
import type { TestDatabase } from '@fw/test-support';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** The administration key the admin host is started with (X-Process-Management-Key). */
export const ADMIN_KEY = 'api-contract-test-key-0123456789abcdef';
/** The tenant every request of the suites names. */
export const TENANT = 'demo';

/** A host listening on 127.0.0.1, with the headers its protected routes need. */
export interface ContractHost {
  /** `admin-server` or `query-host`: names the generated files. */
  name: string;
  url: string;
  /** Headers sent with every request: the key and the tenant. */
  headers: Record<string, string>;
  close(): Promise<void>;
}

/** A served OpenAPI document, read as plain JSON. */
export type OpenApiJson = Record<string, unknown> & {
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
};

/** The admin server, dev profile, on `testDb` (the schema is already there; the example definitions are seeded). */
export async function startAdminHost(testDb: TestDatabase): Promise<ContractHost> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fw-api-contract-'));
  await seedDefinitions(testDb.database, WORD_COUNT_DEFINITIONS);
  const server = await createAdminServer({
    config: {
      profile: 'dev',
      port: 0,
      bindAddress: '127.0.0.1',
      database: { url: testDb.url },
      apiKey: ADMIN_KEY,
      baseDir: dataDir,
      dataDir,
      dashboardEnabled: false,
    },
    database: testDb.database,
    ownerId: 'api-contract',
    exampleWorkers: false,
  });
  const { url } = await server.listen();
  return {
    name: 'admin-server',
    url,
    headers: { 'X-Process-Management-Key': ADMIN_KEY, 'x-fw-tenant-id': TENANT },
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The query host's demo (tenants `demo` and `acme`, in-memory embedded databases). */
export async function startQueryHost(): Promise<ContractHost> {
  const demo = await prepareDemo({ FW_QUERY_PORT: '0', FW_QUERY_BIND_ADDRESS: '127.0.0.1' });
  try {
    const host = await createQueryHost({ config: demo.config, databaseFactory: demo.databaseFactory, mcp: true });
    const { url } = await host.listen();
    return {
      name: 'query-host',
      url,
      headers: { 'x-fw-tenant-id': TENANT },
      async close() {
        await host.close();
        await demo.close();
      },
    };
  } catch (err) {
    await demo.close();
    throw err;
  }
}

/** `GET /openapi.json` of the host, or another document it serves (any answer but 200 is an error). */
export async function fetchDocument(host: ContractHost, path = '/openapi.json'): Promise<OpenApiJson> {
  const answer = await fetch(`${host.url}${path}`, { headers: host.headers });
  if (answer.status !== 200)
    throw new Error(`${host.name} answered ${answer.status} to GET ${path}: ${await answer.text()}`);
  return (await answer.json()) as OpenApiJson;
}
