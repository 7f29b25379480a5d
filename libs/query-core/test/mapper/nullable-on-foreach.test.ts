// MyBatis' nullableOnForEach setting as query.mapperSettings.nullableOnForEach: whole mappers
// (test/fixtures/nullable-foreach) loaded by the query service from its config and run on PGlite
// and PostgreSQL, the setting on and off.
import { ConfigError, createLogger } from '@fw/core';
import { describeEachDatabase, fwRejection as rejection } from '@fw/test-support';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import {
  type QueryConfig,
  type QueryService,
  type SearchResponse,
  makeQueryService,
  parseQueryConfig,
} from '../../src';
import { parseMapperXml } from '../../src/mapper/mapper-parser';
import { fixedDatabaseFactory } from '../support/library-fixture';

const FIXTURES = path.join(__dirname, '../fixtures/nullable-foreach');
const TENANT_URL = 'postgres://db-host/orders';

const ids = (response: SearchResponse): unknown[] => response.list.map((entry) => entry.row.id);

function config(mapperSettings?: QueryConfig['mapperSettings']): QueryConfig {
  return {
    defaultTenantId: 'orders',
    datasources: { orders: { jdbcUrl: TENANT_URL } },
    mapperFiles: 'mappers/*.xml',
    definitionFiles: 'definitions/*.json',
    ...(mapperSettings === undefined ? {} : { mapperSettings }),
  };
}

describe('query.mapperSettings in the config', () => {
  const section = (mapperSettings: unknown): unknown => ({
    query: { datasources: { t: { jdbcUrl: 'pglite:memory:' } }, mapperSettings },
  });

  it('accepts nullableOnForEach true or false', () => {
    expect(parseQueryConfig(section({ nullableOnForEach: true }), 'config.json').query.mapperSettings).toEqual({
      nullableOnForEach: true,
    });
    expect(parseQueryConfig(section({ nullableOnForEach: false }), 'config.json').query.mapperSettings).toEqual({
      nullableOnForEach: false,
    });
  });

  it('refuses a value that is not a boolean and an unknown setting, naming the key', () => {
    expect(() => parseQueryConfig(section({ nullableOnForEach: 'yes' }), 'config.json')).toThrow(ConfigError);
    expect(() => parseQueryConfig(section({ nullableOnForEach: 'yes' }), 'config.json')).toThrow(
      'query.mapperSettings.nullableOnForEach',
    );
    expect(() => parseQueryConfig(section({ mapUnderscoreToCamelCase: true }), 'config.json')).toThrow(
      'query.mapperSettings',
    );
  });
});

describe('the nullableOnForEach parse setting', () => {
  const mapper = (foreachAttributes: string): string =>
    `<mapper namespace="m"><select id="s">select 1 <where><foreach collection="ids" item="i" open="id in (" separator="," close=")"${foreachAttributes}>#{i}</foreach></where></select></mapper>`;

  it('makes a foreach without nullable render nothing for a null collection, and leaves lists alone', async () => {
    const [statement] = (await parseMapperXml(mapper(''), 'm.xml', { nullableOnForEach: true })).statements;
    expect(statement.render({})).toEqual({ sql: 'select 1', values: [] });
    expect(statement.render({ ids: [4, 5] })).toEqual({ sql: 'select 1 WHERE id in ($1,$2)', values: [4, 5] });
  });

  it('fails the render without it, and an explicit nullable="false" wins over it', async () => {
    const [strictByDefault] = (await parseMapperXml(mapper(''), 'm.xml')).statements;
    expect(() => strictByDefault.render({})).toThrow(
      `m.xml: select 's': <foreach collection="ids"> evaluated to a null value`,
    );
    const [explicitlyStrict] = (await parseMapperXml(mapper(' nullable="false"'), 'm.xml', { nullableOnForEach: true }))
      .statements;
    expect(() => explicitlyStrict.render({ ids: null })).toThrow('evaluated to a null value');
    const [explicitlyNullable] = (
      await parseMapperXml(mapper(' nullable="true"'), 'm.xml', { nullableOnForEach: false })
    ).statements;
    expect(explicitlyNullable.render({ ids: null }).sql).toBe('select 1');
  });
});

describeEachDatabase('query.mapperSettings.nullableOnForEach on a database', (getDb) => {
  let lenient: QueryService;
  let strict: QueryService;
  const logLines: string[] = [];

  beforeAll(async () => {
    const { database } = getDb();
    await database.withSession(async (s) => s.exec(await readFile(path.join(FIXTURES, 'schema.sql'), 'utf8')));
    const logger = createLogger({
      name: 'test',
      level: 'error',
      destination: new Writable({
        write: (chunk: Buffer, _encoding, done) => (logLines.push(chunk.toString()), done()),
      }),
    });
    lenient = await makeQueryService({
      config: config({ nullableOnForEach: true }),
      baseDir: FIXTURES,
      databaseFactory: fixedDatabaseFactory({ [TENANT_URL]: database }).factory,
      logger,
    });
    strict = await makeQueryService({
      config: config(),
      baseDir: FIXTURES,
      databaseFactory: fixedDatabaseFactory({ [TENANT_URL]: database }).factory,
      logger,
    });
  });

  afterAll(async () => {
    await lenient?.close();
    await strict?.close();
  });

  const byId = { sortCriteria: [{ name: 'id' }] };

  it('on: a null collection renders the statement without the foreach (every row), a list filters', async () => {
    const all = await lenient.search('ordersByIds', byId, {});
    expect(ids(all)).toEqual([1, 2, 3]);
    expect(all.maxRows).toBe(3);
    expect(ids(await lenient.search('ordersByIds', { ...byId, filters: { ids: [3, 1] } }, {}))).toEqual([1, 3]);
  });

  it('on: a fragment of another namespace follows the setting of the statement that includes it', async () => {
    expect(ids(await lenient.search('ordersByStatuses', byId, {}))).toEqual([1, 2, 3]);
    expect(ids(await lenient.search('ordersByStatuses', { ...byId, filters: { statuses: ['open'] } }, {}))).toEqual([
      1, 3,
    ]);
  });

  it('on: nullable="false" on the element still fails the request', async () => {
    expect(await rejection(lenient.search('ordersByIdsNeverNull', byId, {}))).toMatchObject({
      code: 500,
      subErrorCode: 'Q721',
    });
    expect(ids(await lenient.search('ordersByIdsNeverNull', { ...byId, filters: { ids: [2] } }, {}))).toEqual([2]);
  });

  it('off (the default): a null collection fails the request with 500 Q721, the log naming file, statement and collection', async () => {
    logLines.length = 0;
    const error = await rejection(strict.search('ordersByIds', byId, {}));
    expect(error).toMatchObject({ code: 500, subErrorCode: 'Q721' });
    expect(error.message).not.toContain('select');
    expect(logLines.join('')).toContain(
      `mappers/orders.xml: select 'byIds': <foreach collection=\\"ids\\"> evaluated to a null value`,
    );
    expect(await rejection(strict.search('ordersByStatuses', byId, {}))).toMatchObject({ subErrorCode: 'Q721' });
    expect(ids(await strict.search('ordersByIds', { ...byId, filters: { ids: [2, 3] } }, {}))).toEqual([2, 3]);
  });
});
