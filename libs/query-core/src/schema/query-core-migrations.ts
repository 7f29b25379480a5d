import { readMigrationFolder, type Migration } from '@fw/core';
import * as path from 'node:path';

/** The package's `migrations/` folder: beside `src/` in the checkout, beside `dist/` once installed. */
const MIGRATIONS_DIR = path.resolve(__dirname, '../../migrations');

/**
 * The migrations of @fw/query-core's tables: the named-query catalog (`fw_query_mapper_source`,
 * `fw_query_definition_source`) and the canned reports (`fw_query_canned_report`). Their numbers
 * are shared with the other fw libraries' migrations, so apply them with those of the libraries in
 * use in one `migrateDatabase` call, which applies the union in number order.
 *
 * @example
 * await migrateDatabase(database, [...queryCoreMigrations(), ...otherLibraryMigrations()]);
 */
export function queryCoreMigrations(): Migration[] {
  return readMigrationFolder(MIGRATIONS_DIR);
}
