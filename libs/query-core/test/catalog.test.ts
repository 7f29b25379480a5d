import { type Database, isConfigError } from '@fw/core';
import { describeEachDatabase } from '@fw/test-support';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { catalogChecksum, makeQueryService, type QueryConfig, type QueryServiceOptions } from '../src';
import { FIXTURES, fixedDatabaseFactory, libraryConfig, seedLibrary } from './support/library-fixture';

async function startupError(options: QueryServiceOptions): Promise<string> {
  try {
    const service = await makeQueryService(options);
    await service.close();
  } catch (err) {
    if (isConfigError(err)) return err.message;
    throw err;
  }
  throw new Error('expected startup to fail');
}

interface RowOptions {
  checksum?: string;
  enabled?: boolean;
}

async function insertMapper(
  database: Database,
  namespace: string,
  xml: string,
  options: RowOptions = {},
): Promise<void> {
  await database.withSession((s) =>
    s.query('insert into fw_query_mapper_source (namespace, mapper_xml, checksum, enabled) values ($1, $2, $3, $4)', [
      namespace,
      xml,
      options.checksum ?? catalogChecksum(xml),
      options.enabled ?? true,
    ]),
  );
}

async function insertDefinition(
  database: Database,
  scope: string,
  name: string,
  json: string | object,
  options: RowOptions = {},
): Promise<void> {
  const text = typeof json === 'string' ? json : JSON.stringify(json);
  await database.withSession((s) =>
    s.query(
      'insert into fw_query_definition_source (scope_key, query_name, definition_json, checksum, enabled) values ($1, $2, $3, $4, $5)',
      [scope, name, text, options.checksum ?? catalogChecksum(text), options.enabled ?? true],
    ),
  );
}

const CATALOG_XML = `<mapper namespace="extra">
  <select id="findSource" resultType="map">select 'catalog' as source</select>
  <select id="cheapBooks" resultType="map">
    select id, title, price from books <where><if test="maxPrice != null">price &lt;= #{maxPrice}</if></where> \${orderby} \${pagination}
  </select>
</mapper>`;

describeEachDatabase('query catalog', (getDb) => {
  let config: QueryConfig;
  let options: QueryServiceOptions;

  beforeAll(async () => {
    const { database } = getDb();
    await seedLibrary(database);
    const { factory } = fixedDatabaseFactory({
      'postgres://db-host/t1': database,
      'postgres://db-host/t2': database,
      'postgres://db-host/catalog': database,
    });
    config = libraryConfig({
      mapperFiles: 'mappers/*.xml, extra-mappers/*.xml',
      definitionFiles: ['definitions/*.json', 'extra-definitions/*.json'],
      catalog: { jdbc: { enabled: true, dataSource: 'catalog' } },
    });
    options = {
      config,
      dataSources: { catalog: { jdbcUrl: 'postgres://db-host/catalog' } },
      baseDir: FIXTURES,
      databaseFactory: factory,
    };
  });

  beforeEach(async () => {
    await getDb().database.withSession((s) =>
      s.exec('delete from fw_query_mapper_source; delete from fw_query_definition_source;'),
    );
  });

  it('merges catalog mappers and definitions over packaged ones by namespace and scope', async () => {
    const { database } = getDb();
    await insertMapper(database, 'extra', CATALOG_XML);
    await insertMapper(database, 'ignored', '<not xml', { enabled: false, checksum: 'bad' });
    const cheap = {
      name: 'cheapBooks',
      id: 'extra.cheapBooks',
      paginated: true,
      acls: [],
      columnMetadata: { id: { sortable: true }, price: { sortable: true } },
    };
    await insertDefinition(database, '__base__', 'cheapBooks', cheap);
    await insertDefinition(database, '__base__', 'authors', {
      name: 'authors',
      id: 'library.findAuthors',
      paginated: false,
      acls: ['CAT'],
      columnMetadata: {},
    });
    await insertDefinition(database, 't2', 'cheapBooks', { ...cheap, paginated: false, tenantId: 't2' });
    await insertDefinition(database, 't1', 'booksNoCount', {
      name: 'booksNoCount',
      id: 'library.findBooks',
      paginated: true,
      acls: ['T1'],
      columnMetadata: {},
    });
    await insertDefinition(database, '__base__', 'disabled', '{', { enabled: false });

    const service = await makeQueryService(options);
    try {
      // Catalog mapper 'extra' replaced the packaged one of the same namespace.
      expect((await service.search('source', {}, {})).list[0].row).toEqual({ source: 'catalog' });
      const page = await service.search(
        'cheapBooks',
        { systemFilters: { maxPrice: 8 }, sortCriteria: [{ name: 'price' }] },
        {},
      );
      expect(page.list.map((r) => r.row.id)).toEqual([9, 4]);
      expect(page.maxRows).toBe(2);
      // The catalog sets tenantId from scope_key; the base definition stays for other tenants.
      expect(service.describeQuery('cheapBooks', { tenantId: 't2' })).toMatchObject({
        paginated: false,
        tenantSpecific: true,
      });
      expect(service.describeQuery('cheapBooks', { tenantId: 't1' })).toMatchObject({
        paginated: true,
        tenantSpecific: false,
      });
      // A base catalog definition replaces the packaged base definition of the same name ...
      expect(service.describeQuery('authors', { tenantId: 't1' }).acls).toEqual(['CAT']);
      // ... a tenant-scoped one only adds an override; the packaged base stays for other tenants.
      expect(service.describeQuery('booksNoCount', { tenantId: 't1' })).toMatchObject({
        acls: ['T1'],
        tenantSpecific: true,
      });
      expect(service.describeQuery('booksNoCount', { tenantId: 't2' })).toMatchObject({
        acls: [],
        tenantSpecific: false,
      });
      // Unrelated packaged entries stay available.
      expect((await service.search('books', { countOnly: true }, {})).maxRows).toBe(12);
      expect(() => service.describeQuery('disabled', {})).toThrow(expect.objectContaining({ subErrorCode: 'Q700' }));
    } finally {
      await service.close();
    }
  });

  it('reads the catalog alone when definitionFiles is not set, and honours baseScope', async () => {
    const { database } = getDb();
    await insertDefinition(database, 'BASE', 'only', {
      name: 'only',
      id: 'library.findAuthors',
      paginated: false,
      acls: [],
    });
    const service = await makeQueryService({
      ...options,
      config: {
        ...config,
        definitionFiles: undefined,
        catalog: { jdbc: { enabled: true, dataSource: 'catalog', baseScope: 'BASE' } },
      },
    });
    try {
      expect(service.listQueries({}).map((q) => q.name)).toEqual(['only']);
      expect((await service.search('only', {}, {})).numRowsReturned).toBe(4);
    } finally {
      await service.close();
    }
  });

  it('fails startup on a checksum mismatch, naming the row', async () => {
    await insertDefinition(
      getDb().database,
      't1',
      'books',
      { name: 'books', id: 'library.findBooks' },
      { checksum: 'abc123' },
    );
    expect(await startupError(options)).toMatch(
      /^fw_query_definition_source\[scope_key="t1", query_name="books"\]: checksum mismatch \(stored abc123, computed [0-9a-f]{64}/,
    );
  });

  it('accepts an uppercase checksum but not one of other text', async () => {
    const { database } = getDb();
    await insertMapper(database, 'extra', CATALOG_XML, { checksum: catalogChecksum(CATALOG_XML).toUpperCase() });
    await insertMapper(database, 'other', '<mapper namespace="other"/>', {
      checksum: catalogChecksum('<mapper namespace="other"/> '),
    });
    expect(await startupError(options)).toMatch(/^fw_query_mapper_source\[namespace="other"\]: checksum mismatch/);
  });

  it('fails startup on invalid catalog XML and JSON', async () => {
    await insertMapper(getDb().database, 'bad', '<mapper namespace="bad"><select id="x">');
    expect(await startupError(options)).toMatch(/^fw_query_mapper_source\[namespace="bad"\]/);
    await getDb().database.withSession((s) => s.exec('delete from fw_query_mapper_source'));
    await insertDefinition(getDb().database, '__base__', 'x', '{"name": "x",');
    expect(await startupError(options)).toMatch(
      /^fw_query_definition_source\[scope_key="__base__", query_name="x"\]: invalid JSON/,
    );
    await getDb().database.withSession((s) => s.exec('delete from fw_query_definition_source'));
    await insertDefinition(getDb().database, '__base__', 'x', '[{"name": "x", "id": "library.findBooks"}]');
    expect(await startupError(options)).toBe(
      'fw_query_definition_source[scope_key="__base__", query_name="x"]: the value must be an object',
    );
  });

  it('fails startup on name, scope and namespace mismatches', async () => {
    const { database } = getDb();
    await insertMapper(database, 'extra', CATALOG_XML.replace('namespace="extra"', 'namespace="extra2"'));
    expect(await startupError(options)).toBe(
      `fw_query_mapper_source[namespace="extra"]: namespace column 'extra' does not match the mapper's namespace attribute 'extra2'`,
    );
    await database.withSession((s) => s.exec('delete from fw_query_mapper_source'));
    await insertDefinition(database, '__base__', 'books', { name: 'books2', id: 'library.findBooks' });
    expect(await startupError(options)).toBe(
      `fw_query_definition_source[scope_key="__base__", query_name="books"]: query_name 'books' does not match the definition's name 'books2'`,
    );
    await database.withSession((s) => s.exec('delete from fw_query_definition_source'));
    await insertDefinition(database, 't1', 'books', { name: 'books', id: 'library.findBooks', tenantId: 't2' });
    expect(await startupError(options)).toBe(
      `fw_query_definition_source[scope_key="t1", query_name="books"]: definition tenantId 't2' does not match scope_key 't1' (expected tenantId 't1')`,
    );
    await database.withSession((s) => s.exec('delete from fw_query_definition_source'));
    await insertDefinition(database, '__base__', 'books', { name: 'books', id: 'library.findBooks', tenantId: 't1' });
    expect(await startupError(options)).toContain(
      `definition tenantId 't1' does not match scope_key '__base__' (expected no tenantId (base scope))`,
    );
  });

  it('fails startup on duplicate enabled namespaces differing in case or spaces', async () => {
    const { database } = getDb();
    await insertMapper(database, 'dup', '<mapper namespace="dup"/>');
    await insertMapper(database, 'DUP ', '<mapper namespace="DUP"/>');
    expect(await startupError(options)).toBe(
      'fw_query_mapper_source[namespace="dup"]: duplicate enabled mapper namespace (also fw_query_mapper_source[namespace="DUP "]); namespaces must be unique ignoring case and spaces',
    );
  });

  it('fails startup when a definition references an unknown statement', async () => {
    await insertDefinition(getDb().database, 't2', 'ghost', { name: 'ghost', id: 'library.noSuchStatement' });
    expect(await startupError(options)).toBe(
      `fw_query_definition_source[scope_key="t2", query_name="ghost"]: query 'ghost' (tenant 't2') references statement 'library.noSuchStatement', which is not defined by any loaded mapper`,
    );
  });

  it('fails startup when the catalog datasource is missing, unnamed, without tables or unreachable', async () => {
    expect(await startupError({ ...options, dataSources: {} })).toBe(
      "query service config: query.catalog.jdbc.dataSource 'catalog' is not an entry of dataSources",
    );
    expect(await startupError({ ...options, config: { ...config, catalog: { jdbc: { enabled: true } } } })).toContain(
      'query.catalog.jdbc.dataSource is required',
    );
    const empty = await startupError({
      ...options,
      databaseFactory: undefined,
      config: { ...config, datasources: { t1: { jdbcUrl: 'pglite:memory:' } } },
      dataSources: { catalog: { jdbcUrl: 'pglite:memory:' } },
    });
    expect(empty).toBe(
      "query.catalog.jdbc.dataSource 'catalog' (pglite:memory:): table fw_query_mapper_source does not exist; apply the schema with npx fw-migrate --database-url <url> (package @fw/migrate; npm run migrate -- --database-url <url> in the fw checkout)",
    );
    const unreachable = await startupError({
      ...options,
      databaseFactory: undefined,
      config: { ...config, datasources: { t1: { jdbcUrl: 'pglite:memory:' } } },
      dataSources: { catalog: { jdbcUrl: 'postgres://ro:secret@127.0.0.1:1/catalog', connectionTimeout: 2000 } },
    });
    expect(unreachable).toMatch(
      /^query.catalog.jdbc.dataSource 'catalog' \(postgres:\/\/ro:\*\*\*@127.0.0.1:1\/catalog\) is unavailable: /,
    );
    expect(unreachable).not.toContain('secret');
  });
});

describe('startup failures of packaged files', () => {
  const base = (overrides: Partial<QueryConfig>, baseDir = FIXTURES): QueryServiceOptions => ({
    config: libraryConfig(overrides),
    baseDir,
  });

  it('requires definitionFiles when the catalog is disabled', async () => {
    expect(await startupError(base({ definitionFiles: undefined }))).toBe(
      'query.definitionFiles is required when query.catalog.jdbc.enabled is false (give glob patterns of definition JSON files)',
    );
  });

  it('fails when a pattern matches nothing', async () => {
    expect(await startupError(base({ mapperFiles: 'mappers/*.xml, nothing-here/*.xml' }))).toBe(
      `query.mapperFiles: pattern 'nothing-here/*.xml' matches no file under ${FIXTURES}`,
    );
  });

  it('names the file with invalid XML or JSON, and duplicated namespaces or definitions', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fw-query-core-'));
    writeFileSync(path.join(dir, 'bad.xml'), '<mapper namespace="bad"><select id="x">select 1</mapper>');
    writeFileSync(path.join(dir, 'a.xml'), '<mapper namespace="same"/>');
    writeFileSync(path.join(dir, 'b.xml'), '<mapper namespace="same"/>');
    writeFileSync(path.join(dir, 'bad.json'), '[{"name": "x", "id": "same.x", "pagintaed": true}]');
    writeFileSync(path.join(dir, 'dup.json'), '[{"name": "x", "id": "same.x"}, {"name": "x", "id": "same.y"}]');
    expect(await startupError(base({ mapperFiles: 'bad.xml', definitionFiles: 'dup.json' }, dir))).toMatch(
      /^bad.xml: /,
    );
    expect(await startupError(base({ mapperFiles: 'a.xml,b.xml', definitionFiles: 'dup.json' }, dir))).toContain(
      "mapper namespace 'same' is already loaded from a.xml",
    );
    expect(await startupError(base({ mapperFiles: 'a.xml', definitionFiles: 'bad.json' }, dir))).toBe(
      'bad.json: [0].pagintaed is not a known property',
    );
    expect(await startupError(base({ mapperFiles: 'a.xml', definitionFiles: 'dup.json' }, dir))).toBe(
      "Query definition 'x' is defined twice in the base scope: dup.json and dup.json",
    );
    expect(
      await startupError(base({ mapperFiles: 'extra-mappers/*.xml', definitionFiles: 'definitions/*.json' }, FIXTURES)),
    ).toBe(
      "definitions/library.json: query 'books' references statement 'library.findBooks', which is not defined by any loaded mapper",
    );
  });
});
