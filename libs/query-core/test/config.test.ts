import { isConfigError } from '@fw/core';
import * as path from 'node:path';
import { parseQueryConfig, resolvePatterns, splitPatterns } from '../src';
import { FIXTURES } from './support/library-fixture';

function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (isConfigError(err)) return err.message;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('parseQueryConfig', () => {
  const valid = {
    server: { port: 8081 },
    query: {
      defaultTenantId: 't1',
      datasources: {
        t1: {
          jdbcUrl: 'postgres://h/db',
          username: 'ro',
          password: 'pw',
          maximumPoolSize: 10,
          connectionTimeout: 5000,
          idleTimeout: 60000,
        },
      },
      mapperFiles: 'mappers/*.xml',
      definitionFiles: ['definitions/*.json'],
      pagination: { countQueryEnabled: false, maxRowsInPage: 50 },
      catalog: { jdbc: { enabled: true, dataSource: 'catalog', baseScope: '__base__' } },
      provider: null,
    },
    dataSources: { catalog: { jdbcUrl: 'postgres://h/catalog', maximumPoolSize: 2 } },
  };

  it('accepts the documented configuration shape and ignores other top-level sections', () => {
    const parts = parseQueryConfig(valid, 'config.json');
    expect(parts.query.datasources.t1.maximumPoolSize).toBe(10);
    expect(parts.query.pagination?.maxRowsInPage).toBe(50);
    expect(parts.dataSources.catalog.jdbcUrl).toBe('postgres://h/catalog');
  });

  it('names the file and key path of a wrong pool size', () => {
    const data = { query: { datasources: { t1: { jdbcUrl: 'postgres://h/db', maximumPoolSize: 0 } } } };
    expect(configError(() => parseQueryConfig(data, 'config.json'))).toBe(
      'config.json: query.datasources.t1.maximumPoolSize must be an integer ≥ 1',
    );
    const text = { query: { datasources: { t1: { jdbcUrl: 'postgres://h/db', maximumPoolSize: 'ten' } } } };
    expect(configError(() => parseQueryConfig(text, 'config.json'))).toBe(
      'config.json: query.datasources.t1.maximumPoolSize must be an integer ≥ 1',
    );
  });

  it('rejects unknown keys with their path', () => {
    const data = { query: { datasources: {}, pagniation: {} }, dataSources: { c: { jdbcUrl: 'x', poolSize: 3 } } };
    const message = configError(() => parseQueryConfig(data, 'cfg.json'));
    expect(message).toContain('query.pagniation is not a known property');
    expect(message).toContain('dataSources.c.poolSize is not a known property');
  });

  it('requires query.datasources and jdbcUrl', () => {
    expect(configError(() => parseQueryConfig({ query: {} }, 'c.json'))).toBe('c.json: query.datasources is required');
    expect(configError(() => parseQueryConfig({ query: { datasources: { t1: {} } } }, 'c.json'))).toBe(
      'c.json: query.datasources.t1.jdbcUrl is required',
    );
  });

  it('explains file pattern types', () => {
    const message = configError(() => parseQueryConfig({ query: { datasources: {}, mapperFiles: 42 } }, 'c.json'));
    expect(message).toBe('c.json: query.mapperFiles must be a comma-separated string or an array of glob patterns');
  });

  it('checks the catalog datasource is named and exists', () => {
    expect(
      configError(() =>
        parseQueryConfig({ query: { datasources: {}, catalog: { jdbc: { enabled: true } } } }, 'c.json'),
      ),
    ).toContain('query.catalog.jdbc.dataSource is required');
    expect(
      configError(() =>
        parseQueryConfig(
          { query: { datasources: {}, catalog: { jdbc: { enabled: true, dataSource: 'cat' } } } },
          'c.json',
        ),
      ),
    ).toContain("query.catalog.jdbc.dataSource 'cat' is not an entry of dataSources");
  });

  it('checks query.cannedReports: the store kind, its datasource, no datasource without store "database"', () => {
    const parse = (cannedReports: unknown, dataSources: unknown = { reports: { jdbcUrl: 'postgres://h/reports' } }) =>
      parseQueryConfig({ query: { datasources: {}, cannedReports }, dataSources }, 'c.json');
    expect(parse({ store: 'database', dataSource: 'reports' }).query.cannedReports).toEqual({
      store: 'database',
      dataSource: 'reports',
    });
    expect(parse({ store: 'memory' }).query.cannedReports).toEqual({ store: 'memory' });
    expect(parse({}).query.cannedReports).toEqual({});
    expect(configError(() => parse({ store: 'postgres' }))).toBe(
      'c.json: query.cannedReports.store must be one of "memory", "database"',
    );
    expect(configError(() => parse({ store: 'database' }))).toBe(
      'c.json: query.cannedReports.dataSource is required when query.cannedReports.store is "database" (name an entry of dataSources)',
    );
    expect(configError(() => parse({ store: 'database', dataSource: 'other' }))).toBe(
      "c.json: query.cannedReports.dataSource 'other' is not an entry of dataSources",
    );
    expect(configError(() => parse({ dataSource: 'reports' }))).toBe(
      'c.json: query.cannedReports.dataSource is only used when query.cannedReports.store is "database" (the default "memory" keeps reports in the process)',
    );
    expect(configError(() => parse({ store: 'database', dataSource: 'reports', table: 'x' }))).toBe(
      'c.json: query.cannedReports.table is not a known property',
    );
  });
});

describe('file patterns', () => {
  it('splits comma-separated patterns', () => {
    expect(splitPatterns(' a/*.xml , b/*.xml,, ')).toEqual(['a/*.xml', 'b/*.xml']);
    expect(splitPatterns(['x', ' '])).toEqual(['x']);
    expect(splitPatterns(null)).toEqual([]);
  });

  it('resolves relative to the base folder and fails on a pattern without match', async () => {
    const files = await resolvePatterns('mappers/*.xml, definitions/*.json', FIXTURES, 'query.mapperFiles');
    expect(files.map((f) => path.relative(FIXTURES, f))).toEqual([
      'definitions/library.json',
      'definitions/tenant-overrides.json',
      'mappers/library.xml',
    ]);
    await expect(resolvePatterns('nope/*.xml', FIXTURES, 'query.mapperFiles')).rejects.toThrow(
      /query.mapperFiles: pattern 'nope\/\*.xml' matches no file/,
    );
  });
});
