import { ConfigError, createDatabase } from '@fw/core';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '@fw/test-support';
import { makeInMemoryCannedReportStore, makeQueryService, type QueryConfig, type QueryServiceOptions } from '../src';
import { FIXTURES, fixedDatabaseFactory, libraryConfig, seedLibrary } from './support/library-fixture';

const REPORTS_URL = 'postgres://db-host/reports';
const DATABASE_STORE: Partial<QueryConfig> = { cannedReports: { store: 'database', dataSource: 'reports' } };

async function startupError(options: QueryServiceOptions): Promise<Error> {
  try {
    const service = await makeQueryService(options);
    await service.close();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected makeQueryService to fail');
}

describeEachDatabase('query service with query.cannedReports.store "database"', (getDb) => {
  let unmigrated: TestDatabase;
  beforeAll(async () => {
    await seedLibrary(getDb().database);
    unmigrated = await createTestDatabase(getDb().target, { migrate: false });
  }, 120_000);
  afterAll(() => unmigrated?.dispose(), 60_000);

  const optionsWith = (reports: TestDatabase, extra: Partial<QueryServiceOptions> = {}) => {
    const { database } = getDb();
    const databases = fixedDatabaseFactory({
      'postgres://db-host/t1': database,
      'postgres://db-host/t2': database,
      [REPORTS_URL]: reports.database,
    });
    const options: QueryServiceOptions = {
      config: libraryConfig(DATABASE_STORE),
      dataSources: { reports: { jdbcUrl: REPORTS_URL } },
      baseDir: FIXTURES,
      databaseFactory: databases.factory,
      ...extra,
    };
    return { options, databases };
  };

  it('keeps reports across a service restart on the same database', async () => {
    const first = await makeQueryService(optionsWith(getDb()).options);
    await first.search(
      'books',
      {
        cannedReportName: 'by price',
        saveChangesToCannedReport: true,
        sortCriteria: [{ name: 'price', ascendingOrder: false }],
        fields: ['id'],
      },
      { tenantId: 't1', userId: 'ann' },
    );
    await first.close();

    const second = await makeQueryService(optionsWith(getDb()).options);
    try {
      const applied = await second.search(
        'books',
        { cannedReportName: 'by price', numRowsInPage: 3 },
        { tenantId: 't1', userId: 'ann' },
      );
      expect(applied.list.map((r) => r.row)).toEqual([{ id: 7 }, { id: 8 }, { id: 10 }]);
      expect(applied.availableCannedReports).toEqual(['by price']);
      // Still private to its owner after the restart.
      expect((await second.search('books', {}, { tenantId: 't1', userId: 'bob' })).availableCannedReports).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('opens the reports database at startup and closes it with the service', async () => {
    const { options, databases } = optionsWith(getDb());
    const service = await makeQueryService(options);
    expect(databases.opened.find((o) => o.url === REPORTS_URL)).toMatchObject({
      applicationName: 'fw-query-canned-reports',
      maxConnections: 10,
    });
    await service.close();
    expect(databases.closed).toContain(REPORTS_URL);
  });

  it('refuses to start when the table is missing, naming the setting, the table and npm run migrate, and closes that database', async () => {
    const { options, databases } = optionsWith(unmigrated);
    const err = await startupError(options);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toMatch(
      /^query\.cannedReports\.dataSource 'reports': Database .* is missing table\(s\) fw_query_canned_report: apply the schema with `npx fw-migrate --database-url <url>` \(package @fw\/migrate; `npm run migrate -- --database-url <url>` in the fw checkout\)$/,
    );
    expect(databases.closed).toContain(REPORTS_URL);
  });

  it('refuses a supplied cannedReportStore together with store "database"', async () => {
    const err = await startupError(
      optionsWith(getDb(), { cannedReportStore: makeInMemoryCannedReportStore() }).options,
    );
    expect(err.message).toBe(
      'query.cannedReports.store is "database" and makeQueryService was given a cannedReportStore: use one or the other',
    );
  });

  it('reports an unreachable reports database as a startup error naming the setting', async () => {
    const { database } = getDb();
    const tenants = fixedDatabaseFactory({ 'postgres://db-host/t1': database, 'postgres://db-host/t2': database });
    const err = await startupError({
      config: libraryConfig(DATABASE_STORE),
      // Port 1: nothing listens there, the connection is refused at once.
      dataSources: { reports: { jdbcUrl: 'postgres://fw@127.0.0.1:1/reports', connectionTimeout: 2_000 } },
      baseDir: FIXTURES,
      databaseFactory: (o) => (o.url.includes('db-host') ? tenants.factory(o) : createDatabase(o)),
    });
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toMatch(
      /^query\.cannedReports\.dataSource 'reports' \(postgres:\/\/fw@127\.0\.0\.1:1\/reports\) is unavailable: .+/,
    );
  });
});
