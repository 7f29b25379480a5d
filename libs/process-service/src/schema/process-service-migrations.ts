import { readMigrationFolder, type Migration } from '@fw/core';
import * as path from 'node:path';

/** The package's `migrations/` folder: beside `src/` in the checkout, beside `dist/` once installed. */
const MIGRATIONS_DIR = path.resolve(__dirname, '../../migrations');

/**
 * The migrations of @fw/process-service's tables: the processes and their definitions
 * (`fw_process`, `fw_process_error`, `fw_process_child_report`, `fw_process_completion_event`,
 * `process_definition`) and their later indexes. Their numbers are shared with the other fw
 * libraries' migrations, so apply them with those of the libraries in use in one `migrateDatabase`
 * call, which applies the union in number order.
 *
 * @example
 * await migrateDatabase(database, [...processServiceMigrations(), ...otherLibraryMigrations()]);
 */
export function processServiceMigrations(): Migration[] {
  return readMigrationFolder(MIGRATIONS_DIR);
}
