import { readMigrationFolder, type Migration } from '@fw/core';
import * as path from 'node:path';

/** The package's `migrations/` folder: beside `src/` in the checkout, beside `dist/` once installed. */
const MIGRATIONS_DIR = path.resolve(__dirname, '../../migrations');

/**
 * The migrations of @fw/jdbc-process-starter's tables: the work-item queue
 * (`fw_process_work_item`, `fw_process_work_rate`); `0006_retention.sql` also indexes
 * `fw_process_outbox` of @fw/process-outbox. Their numbers are shared with the other fw libraries'
 * migrations, so apply them with those of the libraries in use in one `migrateDatabase` call,
 * which applies the union in number order.
 *
 * @example
 * await migrateDatabase(database, [...jdbcProcessStarterMigrations(), ...otherLibraryMigrations()]);
 */
export function jdbcProcessStarterMigrations(): Migration[] {
  return readMigrationFolder(MIGRATIONS_DIR);
}
