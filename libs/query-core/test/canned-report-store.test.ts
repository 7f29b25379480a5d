import { createDatabase, type Database, migrateDatabase } from '@fw/core';
import {
  createTestDatabase,
  describeEachDatabase,
  postgresServerUrl,
  readWorkspaceMigrations,
  type TestDatabase,
} from '@fw/test-support';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  CANNED_REPORT_TABLE,
  type CannedReport,
  type CannedReportStore,
  makeDatabaseCannedReportStore,
  makeInMemoryCannedReportStore,
} from '../src';

const AT = '2025-03-04T05:06:07.089Z';

function report(overrides: Partial<CannedReport> = {}): CannedReport {
  return {
    tenantId: 't1',
    queryName: 'books',
    name: 'cheap',
    owner: 'ann',
    public: false,
    settings: { filters: { price: [0, 10] } },
    updatedAt: AT,
    ...overrides,
  };
}

/**
 * The behaviour every CannedReportStore shares (pg-boss style: one suite, several backends).
 * `freshStore` gives an empty store for each test.
 */
function cannedReportStoreContract(freshStore: () => Promise<CannedReportStore>): void {
  let store: CannedReportStore;
  beforeEach(async () => {
    store = await freshStore();
  });

  it('answers undefined and an empty list before anything is saved', async () => {
    expect(await store.get('t1', 'books', 'cheap')).toBeUndefined();
    expect(await store.list('t1', 'books')).toEqual([]);
  });

  it('gives back what was saved, with and without owner', async () => {
    const full = report({
      public: true,
      settings: {
        filters: {
          title: 'dune',
          price: [0, 9.99],
          genre: ['scifi', 'fantasy'],
          inStock: true,
          note: null,
          nested: { a: [1, { b: 'ü "quoted" \\ slash' }] },
        },
        sortCriteria: [
          { name: 'price', ascendingOrder: false },
          { name: 'id', ascendingOrder: true },
        ],
        fields: ['id', 'title'],
        hiddenColumns: ['price'],
      },
    });
    await store.save(full);
    expect(await store.get('t1', 'books', 'cheap')).toEqual(full);
    const anonymous: CannedReport = {
      tenantId: 't1',
      queryName: 'books',
      name: 'nobody',
      public: false,
      settings: {},
      updatedAt: AT,
    };
    await store.save(anonymous);
    const found = await store.get('t1', 'books', 'nobody');
    expect(found).toEqual(anonymous);
    // Saved without owner: no `owner` key at all (not `owner: null`), as in memory.
    expect(found && Object.hasOwn(found, 'owner')).toBe(false);
  });

  it('replaces owner, public, settings and updatedAt of the same tenant, query and name', async () => {
    await store.save(report({ public: true, settings: { filters: { price: [0, 10] }, fields: ['id'] } }));
    const replacement = report({
      owner: 'bob',
      public: false,
      settings: { sortCriteria: [{ name: 'title', ascendingOrder: true }] },
      updatedAt: '2025-03-05T00:00:00.000Z',
    });
    await store.save(replacement);
    // Replaced, not merged: the old filters and fields are gone.
    expect(await store.get('t1', 'books', 'cheap')).toEqual(replacement);
    expect(await store.list('t1', 'books')).toEqual([replacement]);
    await store.save(report({ owner: undefined }));
    expect(await store.get('t1', 'books', 'cheap')).toEqual(report({ owner: undefined }));
  });

  it('keeps tenants, queries and names apart (names are case-sensitive)', async () => {
    const reports = [
      report(),
      report({ tenantId: 't2', settings: { filters: { price: [0, 20] } } }),
      report({ queryName: 'authors', settings: { fields: ['name'] } }),
      report({ name: 'Cheap', owner: 'bob' }),
    ];
    for (const r of reports) await store.save(r);
    expect(await store.get('t1', 'books', 'cheap')).toEqual(reports[0]);
    expect(await store.get('t2', 'books', 'cheap')).toEqual(reports[1]);
    expect(await store.get('t1', 'authors', 'cheap')).toEqual(reports[2]);
    expect(await store.get('t1', 'books', 'Cheap')).toEqual(reports[3]);
    expect(await store.get('t3', 'books', 'cheap')).toBeUndefined();
    expect((await store.list('t1', 'books')).map((r) => r.name).sort()).toEqual(['Cheap', 'cheap']);
    expect(await store.list('t2', 'books')).toEqual([reports[1]]);
    expect(await store.list('t1', 'nope')).toEqual([]);
  });

  it('lists every report of the tenant and query, private and public, sorted by localeCompare', async () => {
    const names = ['Zeta', 'beta', 'Ärger', 'alpha', "o'brien", '10 best'];
    for (const [i, name] of names.entries())
      await store.save(report({ name, owner: i % 2 === 0 ? 'ann' : 'bob', public: i % 3 === 0 }));
    const listed = await store.list('t1', 'books');
    expect(listed.map((r) => r.name)).toEqual(['10 best', 'alpha', 'Ärger', 'beta', "o'brien", 'Zeta']);
    expect(listed.find((r) => r.name === 'beta')).toEqual(report({ name: 'beta', owner: 'bob', public: false }));
  });

  it('hands out copies: changing a returned report changes nothing stored', async () => {
    const saved = report({ settings: { filters: { genre: ['scifi'] }, fields: ['id'] } });
    await store.save(saved);
    saved.settings.fields?.push('title');
    const first = await store.get('t1', 'books', 'cheap');
    if (!first) throw new Error('report not found');
    (first.settings.filters?.genre as string[]).push('horror');
    first.public = true;
    (await store.list('t1', 'books'))[0].settings.fields?.push('price');
    expect(await store.get('t1', 'books', 'cheap')).toEqual(
      report({ settings: { filters: { genre: ['scifi'] }, fields: ['id'] } }),
    );
  });

  it("keeps the service's updatedAt (Date#toISOString) unchanged", async () => {
    const updatedAt = new Date().toISOString();
    await store.save(report({ updatedAt }));
    expect((await store.get('t1', 'books', 'cheap'))?.updatedAt).toBe(updatedAt);
  });
}

describe('in-memory CannedReportStore', () => {
  cannedReportStoreContract(async () => makeInMemoryCannedReportStore());
});

describeEachDatabase('database CannedReportStore', (getDb) => {
  cannedReportStoreContract(async () => {
    const { database } = getDb();
    await database.withSession((s) => s.exec(`delete from ${CANNED_REPORT_TABLE}`));
    return makeDatabaseCannedReportStore({ database });
  });

  it('stores one row per report with created_at kept and updated_at replaced on a later save', async () => {
    const { database } = getDb();
    await database.withSession((s) => s.exec(`delete from ${CANNED_REPORT_TABLE}`));
    const store = makeDatabaseCannedReportStore({ database });
    await store.save(report({ updatedAt: '2025-01-01T00:00:00.000Z' }));
    const rowsOf = () =>
      database.withSession((s) =>
        s.query<{ owner: string | null; public: boolean; settings: unknown; created_at: Date; updated_at: Date }>(
          `select owner, public, settings, created_at, updated_at from ${CANNED_REPORT_TABLE} where tenant_id = 't1' and query_name = 'books' and name = 'cheap'`,
        ),
      );
    const [first] = await rowsOf();
    await store.save(
      report({ owner: undefined, public: true, settings: { fields: ['id'] }, updatedAt: '2025-02-01T00:00:00.000Z' }),
    );
    const after = await rowsOf();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ owner: null, public: true, settings: { fields: ['id'] } });
    expect(after[0].created_at.toISOString()).toBe(first.created_at.toISOString());
    expect(after[0].updated_at.toISOString()).toBe('2025-02-01T00:00:00.000Z');
  });

  it('refuses an updatedAt that is not a date-time and stores nothing', async () => {
    const { database } = getDb();
    await database.withSession((s) => s.exec(`delete from ${CANNED_REPORT_TABLE}`));
    const store = makeDatabaseCannedReportStore({ database });
    await expect(store.save(report({ updatedAt: 'yesterday' }))).rejects.toThrow(
      'Canned report \'cheap\': updatedAt must be an ISO-8601 date-time (got "yesterday")',
    );
    expect(await store.list('t1', 'books')).toEqual([]);
  });
});

/** Opens a second handle on the same data: the server database again, or the PGlite folder after closing the first. */
interface ReopenableDatabase {
  first: Database;
  reopen(): Promise<Database>;
  dispose(): Promise<void>;
}

async function pgliteFolder(): Promise<ReopenableDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-canned-'));
  const url = `pglite:${dir}`;
  const first = createDatabase({ url });
  await migrateDatabase(first, readWorkspaceMigrations());
  let second: Database | undefined;
  return {
    first,
    async reopen() {
      // PGlite holds its folder exclusively: the "old process" must be gone first.
      await first.close();
      second = createDatabase({ url });
      return second;
    },
    async dispose() {
      await first.close();
      await second?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresDatabase(): Promise<ReopenableDatabase> {
  const testDb: TestDatabase = await createTestDatabase('postgres');
  const opened: Database[] = [];
  return {
    first: testDb.database,
    async reopen() {
      const again = createDatabase({ url: testDb.url, maxConnections: 2 });
      opened.push(again);
      return again;
    },
    async dispose() {
      for (const d of opened) await d.close();
      await testDb.dispose();
    },
  };
}

const restartTargets: Array<[string, () => Promise<ReopenableDatabase>]> = [['pglite folder', pgliteFolder]];
if (postgresServerUrl()) restartTargets.push(['postgres', postgresDatabase]);

describe.each(restartTargets)('database CannedReportStore across a restart [%s]', (_target, open) => {
  let databases: ReopenableDatabase;
  beforeAll(async () => {
    databases = await open();
  }, 120_000);
  afterAll(() => databases?.dispose(), 60_000);

  it('a new store over a new connection reads what the old one saved', async () => {
    const before = makeDatabaseCannedReportStore({ database: databases.first });
    const saved = [
      report(),
      report({
        name: 'all',
        owner: undefined,
        public: true,
        settings: { sortCriteria: [{ name: 'title', ascendingOrder: true }] },
      }),
    ];
    for (const r of saved) await before.save(r);
    const after = makeDatabaseCannedReportStore({ database: await databases.reopen() });
    expect(await after.get('t1', 'books', 'cheap')).toEqual(saved[0]);
    expect(await after.list('t1', 'books')).toEqual([saved[1], saved[0]]);
  });
});

// Real concurrency needs several server connections (PGlite is one connection, so statements never overlap).
const onPostgres = postgresServerUrl() ? describe : describe.skip;
onPostgres('database CannedReportStore under concurrent saves [postgres]', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
  }, 120_000);
  afterAll(() => testDb?.dispose(), 60_000);

  it('concurrent saves of one name leave one row holding one of the saves; of different names, every row', async () => {
    // Several stores over several pools, as several host instances would be.
    const pools = Array.from({ length: 4 }, () => createDatabase({ url: testDb.url, maxConnections: 5 }));
    try {
      const stores = pools.map((database) => makeDatabaseCannedReportStore({ database }));
      const sameName = Array.from({ length: 40 }, (_, i) =>
        report({
          owner: `user${i}`,
          settings: { fields: [`f${i}`] },
          updatedAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
        }),
      );
      const distinct = Array.from({ length: 40 }, (_, i) => report({ name: `r${String(i).padStart(2, '0')}` }));
      await Promise.all([...sameName, ...distinct].map((r, i) => stores[i % stores.length].save(r)));

      const counts = await testDb.database.withSession((s) =>
        s.query<{ name: string; n: number }>(
          `select name, count(*)::int as n from ${CANNED_REPORT_TABLE} where tenant_id = 't1' and query_name = 'books' group by name`,
        ),
      );
      expect(counts).toHaveLength(41);
      expect(counts.every((c) => c.n === 1)).toBe(true);
      const winner = await stores[0].get('t1', 'books', 'cheap');
      // One whole save won: its owner, settings and time belong together (no mixed row).
      expect(sameName).toContainEqual(winner);
      expect((await stores[1].list('t1', 'books')).map((r) => r.name)).toEqual([
        'cheap',
        ...distinct.map((r) => r.name),
      ]);
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  });
});
