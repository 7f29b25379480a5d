import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../errors/fw-error';
import type { Database } from './database-factory';

/** One schema change: an SQL script identified by its file name. */
export interface Migration {
  /**
   * File name, e.g. `0001_query_catalog.sql`, recorded in the ledger: migrations apply in the order
   * of the number their name starts with (see {@link migrateDatabase}).
   */
  name: string;
  sql: string;
}

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

const LEDGER = 'fw_schema_migrations';
const NAME_PATTERN = /^[A-Za-z0-9_.-]+\.sql$/;
// Arbitrary constant shared by every migrator, so two hosts starting together migrate one at a time.
const LOCK_KEY = 4_711_020_001;

const NUMBER_PATTERN = /^(\d+)/;

function checksum(sql: string): string {
  return createHash('sha256').update(sql, 'utf8').digest('hex');
}

/** Reads every `*.sql` file of a folder, sorted by name. */
export function readMigrationFolder(dir: string): Migration[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => {
      if (!NAME_PATTERN.test(name))
        throw new ConfigError(`Migration file name '${name}' in ${dir} may only use letters, digits, '_', '.', '-'`);
      return { name, sql: readFileSync(path.join(dir, name), 'utf8') };
    });
}

/** The number a migration's name starts with (`0002_process.sql` → 2), or undefined. */
function migrationNumber(name: string): number | undefined {
  const match = NUMBER_PATTERN.exec(name);
  return match ? Number(match[1]) : undefined;
}

/**
 * Checks the names and puts the migrations in the order they apply: by the number their names
 * start with, then those without a number, by name. The framework's libraries each ship the
 * migrations of their own tables and share one numbering, so a number held by two migrations means
 * two sets that were never meant to be applied together.
 *
 * @throws ConfigError for a bad name, a name listed twice, or a number two names share.
 */
export function orderMigrations(migrations: readonly Migration[]): Migration[] {
  const names = new Set<string>();
  const byNumber = new Map<number, string>();
  for (const m of migrations) {
    if (!NAME_PATTERN.test(m.name))
      throw new ConfigError(
        `Migration name '${m.name}' may only use letters, digits, '_', '.', '-' and must end in .sql`,
      );
    if (names.has(m.name)) throw new ConfigError(`Migration '${m.name}' is listed twice`);
    names.add(m.name);
    const number = migrationNumber(m.name);
    if (number === undefined) continue;
    const other = byNumber.get(number);
    if (other !== undefined)
      throw new ConfigError(
        `Migrations ${other} and ${m.name} have the same number ${number}; each number is applied once, so one of them must be renumbered`,
      );
    byNumber.set(number, m.name);
  }
  const key = (m: Migration) => migrationNumber(m.name) ?? Number.POSITIVE_INFINITY;
  return [...migrations].sort((a, b) => key(a) - key(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Applies the migrations not yet recorded in `fw_schema_migrations`, each in its own transaction,
 * in the order of {@link orderMigrations} (the union of several libraries' migrations in their
 * global number order). The ledger is append-only: a recorded migration whose text has changed fails the
 * run (add a new migration instead of editing an applied one). Safe to run concurrently: each
 * migration's transaction takes a transaction-level advisory lock and reads the ledger under it,
 * so a migration another run has just applied is skipped. The lock lasts exactly as long as the
 * transaction, which keeps its server connection behind a transaction pooler too (a session lock
 * would be taken on one pooled server connection and released on another, or never).
 */
export async function migrateDatabase(database: Database, migrations: readonly Migration[]): Promise<MigrationResult> {
  const ordered = orderMigrations(migrations);
  return database.withSession(async (session) => {
    const changed = (name: string) =>
      new ConfigError(
        `Migration ${name} was changed after it was applied to ${database.displayUrl}; restore it and add a new migration for the change`,
      );
    // A first look without the lock: on an up-to-date database nothing is locked at all.
    const [{ ledger }] = await session.query<{ ledger: string | null }>(
      `select to_regclass('${LEDGER}')::text as ledger`,
    );
    const recorded = new Map(
      ledger === null
        ? []
        : (await session.query<{ name: string; checksum: string }>(`select name, checksum from ${LEDGER}`)).map((r) => [
            r.name,
            r.checksum,
          ]),
    );
    const result: MigrationResult = { applied: [], alreadyApplied: [] };
    for (const migration of ordered) {
      const sum = checksum(migration.sql);
      const seen = recorded.get(migration.name);
      if (seen !== undefined) {
        if (seen !== sum) throw changed(migration.name);
        result.alreadyApplied.push(migration.name);
        continue;
      }
      let appliedByOther: string | undefined;
      try {
        await session.query('begin');
        await session.query(`select pg_advisory_xact_lock(${LOCK_KEY})`);
        await session.exec(
          `create table if not exists ${LEDGER} (name text primary key, checksum text not null, applied_at timestamptz not null default now())`,
        );
        const [row] = await session.query<{ checksum: string }>(`select checksum from ${LEDGER} where name = $1`, [
          migration.name,
        ]);
        if (row) {
          appliedByOther = row.checksum;
        } else {
          await session.exec(migration.sql);
          await session.query(`insert into ${LEDGER} (name, checksum) values ($1, $2)`, [migration.name, sum]);
        }
        await session.query('commit');
      } catch (err) {
        await session.exec('rollback').catch(() => undefined);
        throw new ConfigError(
          `Migration ${migration.name} failed on ${database.displayUrl}: ${(err as Error).message}`,
          { cause: err },
        );
      }
      if (appliedByOther === undefined) {
        result.applied.push(migration.name);
      } else {
        // Another run applied it between the first look and the lock.
        if (appliedByOther !== sum) throw changed(migration.name);
        result.alreadyApplied.push(migration.name);
      }
    }
    return result;
  });
}

/**
 * Fails with a message naming the missing tables and the migrate command when any of `tables`
 * does not exist. Hosts outside the dev profile call this instead of creating schema.
 */
export async function assertTablesExist(database: Database, tables: readonly string[]): Promise<void> {
  const missing = await database.withSession(async (session) => {
    const rows = await session.query<{ name: string; found: string | null }>(
      'select t.name, to_regclass(t.name)::text as found from unnest($1::text[]) as t(name)',
      [tables],
    );
    return rows.filter((r) => r.found === null).map((r) => r.name);
  });
  if (missing.length > 0) {
    throw new ConfigError(
      `Database ${database.displayUrl} is missing table(s) ${missing.join(', ')}: apply the schema with \`npx fw-migrate --database-url <url>\` (package @fw/migrate; \`npm run migrate -- --database-url <url>\` in the fw checkout)`,
    );
  }
}
