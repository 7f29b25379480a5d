/**
 * The migrated PGlite database that every PGlite test database starts from: built once per schema
 * version, PGlite build and machine (a `dumpDataDir()` archive in the system's temporary folder),
 * then loaded into a new in-memory PGlite per test file. Loading takes about 1 s where a new PGlite
 * and the workspace's migrations take about 3 s, and a CI run opens some two hundred of them.
 *
 * @example
 * const database = createDatabase({ url: 'pglite:memory:', pglite: await migratedPglite(hash, migrations) });
 */
import { PGlite } from '@electric-sql/pglite';
import { createDatabase, migrateDatabase, type Migration } from '@fw/core';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** The archive's file: a new schema or another PGlite build (its main file differs) names another. */
function templateFile(schemaHash: string): string {
  const main = require.resolve('@electric-sql/pglite');
  const build = createHash('sha256')
    .update(`${main}:${statSync(main).size}`)
    .digest('hex')
    .slice(0, 8);
  return path.join(tmpdir(), `fw-test-pglite-${schemaHash}-${build}.tar`);
}

/** Migrates a new in-memory PGlite and writes its archive; written under another name, then renamed, so a reader never sees half of it. */
async function writeTemplate(file: string, migrations: readonly Migration[]): Promise<void> {
  const pglite = new PGlite();
  const database = createDatabase({ url: 'pglite:memory:', pglite });
  try {
    await migrateDatabase(database, [...migrations]);
    const archive = await pglite.dumpDataDir('none');
    const partial = `${file}.${process.pid}-${randomUUID()}`;
    writeFileSync(partial, Buffer.from(await archive.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await database.close();
  }
}

/** A new in-memory PGlite holding the migrated schema of `schemaHash` (`migrations`). */
export async function migratedPglite(schemaHash: string, migrations: readonly Migration[]): Promise<PGlite> {
  const file = templateFile(schemaHash);
  if (!existsSync(file)) await writeTemplate(file, migrations);
  return new PGlite({ loadDataDir: new Blob([readFileSync(file)]) });
}
