import {
  createDatabase,
  type Database,
  migrateDatabase,
  type Migration,
  orderMigrations,
  readMigrationFolder,
} from '@fw/core';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import pg from 'pg';
import { migratedPglite } from './pglite-template';

const LIBS_DIR = path.resolve(__dirname, '../../../libs');

/**
 * The workspace's schema: the `migrations/` folders of every library under `libs/` (each ships the
 * migrations of its own tables), in the order they apply. Read from the folders rather than through
 * the libraries, which list this package among their dev dependencies.
 */
export function readWorkspaceMigrations(): Migration[] {
  const folders = readdirSync(LIBS_DIR)
    .map((lib) => path.join(LIBS_DIR, lib, 'migrations'))
    .filter((dir) => existsSync(dir));
  return orderMigrations(folders.flatMap((dir) => readMigrationFolder(dir)));
}

export type DatabaseTarget = 'pglite' | 'postgres';

/** Backends every database suite runs on: PGlite always, PostgreSQL when FW_TEST_DATABASE_URL is set. */
export function databaseTargets(): DatabaseTarget[] {
  return process.env.FW_TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/** The PostgreSQL server of FW_TEST_DATABASE_URL, or undefined. */
export function postgresServerUrl(): string | undefined {
  return process.env.FW_TEST_DATABASE_URL || undefined;
}

export interface TestDatabase {
  target: DatabaseTarget;
  /** URL that opens this same database (for PGlite a folder of its own). */
  url: string;
  database: Database;
  /** Closes and drops the database. */
  dispose(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Apply the workspace migrations (default true). */
  migrate?: boolean;
}

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** What names a migrated template: a hash of `migrations`' names and texts. */
function schemaHash(migrations: readonly Migration[]): string {
  const hash = createHash('sha256');
  for (const m of migrations) hash.update(m.name).update(m.sql);
  return hash.digest('hex').slice(0, 12);
}

/**
 * Creates the template database `fw_tpl_<schema hash>` once per schema version (under an advisory
 * lock, so parallel Jest workers agree), then clones it for each test database.
 */
async function ensureTemplate(admin: pg.Client, serverUrl: string): Promise<string> {
  const migrations = readWorkspaceMigrations();
  const template = `fw_tpl_${schemaHash(migrations)}`;
  await admin.query('select pg_advisory_lock(4711020002)');
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [template]);
    if (exists.rowCount === 0) {
      await admin.query(`create database ${template}`);
      const database = createDatabase({ url: withDatabase(serverUrl, template), maxConnections: 1 });
      try {
        await migrateDatabase(database, migrations);
      } finally {
        await database.close();
      }
    }
  } finally {
    await admin.query('select pg_advisory_unlock(4711020002)');
  }
  return template;
}

/**
 * `create database … template …` fails while any session is still connected to the template (a
 * migrating session that has just closed may linger a moment on the server), so retry briefly.
 */
async function cloneDatabase(admin: pg.Client, name: string, template: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.query(`create database ${name} template ${template}`);
      return;
    } catch (err) {
      if (attempt >= 20 || !/being accessed by other users/.test((err as Error).message)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

async function createPostgresDatabase(serverUrl: string, migrate: boolean): Promise<TestDatabase> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const name = `fw_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  try {
    const template = migrate ? await ensureTemplate(admin, serverUrl) : 'template0';
    await cloneDatabase(admin, name, template);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const database = createDatabase({ url, maxConnections: 20 });
  return {
    target: 'postgres',
    url,
    database,
    async dispose() {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists ${name} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** A new in-memory PGlite holding the workspace's migrated schema. */
function migratedWorkspacePglite(): ReturnType<typeof migratedPglite> {
  const migrations = readWorkspaceMigrations();
  return migratedPglite(schemaHash(migrations), migrations);
}

async function createPgliteDatabase(migrate: boolean): Promise<TestDatabase> {
  const url = 'pglite:memory:';
  // Migrated: a copy of the migrated template (pglite-template.ts), as PostgreSQL clones its template database.
  const database = migrate ? createDatabase({ url, pglite: await migratedWorkspacePglite() }) : createDatabase({ url });
  return { target: 'pglite', url, database, dispose: () => database.close() };
}

/**
 * A fresh database for one test file: in-memory PGlite, or a new database on the
 * FW_TEST_DATABASE_URL server cloned from a migrated template.
 *
 * @example
 * const testDb = await createTestDatabase('postgres');
 * afterAll(() => testDb.dispose());
 */
export async function createTestDatabase(
  target: DatabaseTarget,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  if (target === 'pglite') return createPgliteDatabase(migrate);
  const serverUrl = postgresServerUrl();
  if (!serverUrl) throw new Error('FW_TEST_DATABASE_URL is not set: the postgres target needs a server');
  return createPostgresDatabase(serverUrl, migrate);
}

/**
 * Runs the same suite once per database target, each with its own fresh database.
 *
 * @example
 * describeEachDatabase('catalog', (getDb) => {
 *   it('reads rows', async () => { const { database } = getDb(); ... });
 * });
 */
export function describeEachDatabase(
  title: string,
  suite: (getDb: () => TestDatabase) => void,
  options: TestDatabaseOptions = {},
): void {
  for (const target of databaseTargets()) {
    describe(`${title} [${target}]`, () => {
      let testDb: TestDatabase | undefined;
      // Generous hook limits: the first suite on a fresh server builds the template database while
      // other workers wait on its lock, and a loaded 2-core CI machine is slow to create databases.
      beforeAll(async () => {
        testDb = await createTestDatabase(target, options);
      }, 120_000);
      afterAll(async () => {
        await testDb?.dispose();
      }, 60_000);
      suite(() => {
        if (!testDb) throw new Error('test database not ready');
        return testDb;
      });
    });
  }
}
