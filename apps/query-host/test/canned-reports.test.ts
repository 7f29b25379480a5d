import { configFromObject, createDatabase, migrateDatabase } from '@fw/core';
import { createTestDatabase, databaseTargets, type DatabaseTarget, readWorkspaceMigrations } from '@fw/test-support';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { createQueryHost, DEMO_DIR, type QueryHost } from '../src';
import { createTwoTenants, FIXTURES, tenantFactory, type TwoTenants } from './support/host-fixture';

/** A migrated database for the reports that a new host can open again by URL. */
interface ReportsDatabase {
  url: string;
  dispose(): Promise<void>;
}

async function createReportsDatabase(target: DatabaseTarget): Promise<ReportsDatabase> {
  if (target === 'postgres') {
    const testDb = await createTestDatabase('postgres');
    // Only the URL is needed: each host opens its own pool, as after a real restart.
    await testDb.database.close();
    return { url: testDb.url, dispose: () => testDb.dispose() };
  }
  // PGlite in memory cannot be reopened: a folder survives the host closing it.
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-query-host-reports-'));
  const url = `pglite:${dir}`;
  const database = createDatabase({ url });
  try {
    await migrateDatabase(database, readWorkspaceMigrations());
  } finally {
    await database.close();
  }
  return { url, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
}

const CHEAP_SCIFI = {
  cannedReportName: 'cheap scifi',
  filters: { genre: 'scifi', price: [0, 10] },
  sortCriteria: [{ name: 'price', ascendingOrder: true }],
  fields: ['id', 'price'],
};

for (const target of databaseTargets()) {
  describe(`query host with query.cannedReports.store "database" [${target}]`, () => {
    let tenants: TwoTenants;
    let reports: ReportsDatabase;
    const hosts: QueryHost[] = [];
    beforeAll(async () => {
      tenants = await createTwoTenants(target);
      reports = await createReportsDatabase(target);
    }, 120_000);
    afterAll(async () => {
      for (const host of hosts) await host.close();
      await tenants?.dispose();
      await reports?.dispose();
    }, 60_000);

    /** A host over the two demo tenants keeping canned reports in the reports database. */
    async function startHost(): Promise<QueryHost> {
      const config = configFromObject(
        {
          server: { port: 0 },
          query: {
            datasources: { t1: { jdbcUrl: tenants.t1.url }, t2: { jdbcUrl: tenants.t2.url } },
            mapperFiles: path.join(DEMO_DIR, 'mappers/*.xml'),
            definitionFiles: path.join(DEMO_DIR, 'definitions/*.json'),
            cannedReports: { store: 'database', dataSource: 'reports' },
          },
          dataSources: { reports: { jdbcUrl: reports.url, maximumPoolSize: 2 } },
        },
        FIXTURES,
      );
      const tenantDatabases = tenantFactory(target, { t1: tenants.t1, t2: tenants.t2 });
      const host = await createQueryHost({
        config,
        // The reports database always goes through the real factory, so closing the host really closes it.
        databaseFactory:
          tenantDatabases &&
          ((o) => (/^fw-query:t[12]$/.test(o.applicationName ?? '') ? tenantDatabases(o) : createDatabase(o))),
      });
      hosts.push(host);
      return host;
    }

    const post = (host: QueryHost, body: unknown, tenant = 't1') =>
      request(host.app)
        .post('/q/books')
        .set('content-type', 'application/json')
        .set('x-fw-tenant-id', tenant)
        .send(JSON.stringify(body));

    it('saves a report over HTTP, and a new host on the same database applies and lists it', async () => {
      const first = await startHost();
      const saved = await post(first, { ...CHEAP_SCIFI, saveChangesToCannedReport: true });
      expect(saved.status).toBe(200);
      expect(saved.body.payload).toMatchObject({
        cannedReportName: 'cheap scifi',
        availableCannedReports: ['cheap scifi'],
      });
      const savedRows = saved.body.payload.list.map((r: { row: unknown }) => r.row);
      expect(savedRows.length).toBeGreaterThan(0);
      await first.close();

      const second = await startHost();
      const applied = await post(second, { cannedReportName: 'cheap scifi' });
      expect(applied.status).toBe(200);
      expect(applied.body.payload.list.map((r: { row: unknown }) => r.row)).toEqual(savedRows);
      expect(applied.body.payload.availableCannedReports).toEqual(['cheap scifi']);
      expect((await post(second, { numRowsInPage: 1 })).body.payload.availableCannedReports).toEqual(['cheap scifi']);
      // Per tenant: t2 has no such report.
      const other = await post(second, { cannedReportName: 'cheap scifi' }, 't2');
      expect(other.status).toBe(404);
      expect(other.body).toMatchObject({ success: false, subErrorCode: 'Q729' });
    });

    it('probes the reports database in /health-check', async () => {
      const host = await startHost();
      const health = await request(host.app).get('/health-check');
      expect(health.status).toBe(200);
      expect(health.body.payload.checks).toEqual([
        { name: 'database:t1', healthy: true },
        { name: 'database:t2', healthy: true },
        { name: 'cannedReports', healthy: true },
      ]);
      expect((await request(host.app).get('/health-check/cannedReports')).status).toBe(200);
    });
  });
}
