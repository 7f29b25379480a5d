import type { Database, DatabaseOptions } from '@fw/core';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { QueryConfig } from '../../src';

/** Folder of the fixture mapper and definition files. */
export const FIXTURES = path.join(__dirname, '..', 'fixtures');

/** Creates and fills the books/authors tables. */
export async function seedLibrary(database: Database): Promise<void> {
  const script = readFileSync(path.join(FIXTURES, 'library-schema.sql'), 'utf8');
  await database.withSession((session) => session.exec(script));
}

/** A database factory that hands out existing test databases by URL (close is a no-op: the test owns them). */
export function fixedDatabaseFactory(byUrl: Record<string, Database>): {
  factory: (o: DatabaseOptions) => Database;
  opened: DatabaseOptions[];
  closed: string[];
} {
  const opened: DatabaseOptions[] = [];
  const closed: string[] = [];
  const factory = (o: DatabaseOptions): Database => {
    const database = byUrl[o.url];
    if (!database) throw new Error(`no test database for ${o.url}`);
    opened.push(o);
    return {
      ...database,
      db: database.db,
      withSession: (fn) => database.withSession(fn),
      close: async () => void closed.push(o.url),
    };
  };
  return { factory, opened, closed };
}

/** The library config: tenants t1 (default) and t2, fixture files. */
export function libraryConfig(overrides: Partial<QueryConfig> = {}): QueryConfig {
  return {
    defaultTenantId: 't1',
    datasources: {
      t1: { jdbcUrl: 'postgres://db-host/t1', maximumPoolSize: 3 },
      t2: { jdbcUrl: 'postgres://db-host/t2' },
    },
    mapperFiles: 'mappers/*.xml',
    definitionFiles: 'definitions/*.json',
    ...overrides,
  };
}
