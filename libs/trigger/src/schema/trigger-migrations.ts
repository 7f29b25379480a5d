import { readMigrationFolder, type Migration } from '@fw/core';
import * as path from 'node:path';

/** The package's `migrations/` folder: beside `src/` in the checkout, beside `dist/` once installed. */
const MIGRATIONS_DIR = path.resolve(__dirname, '../../migrations');

/**
 * The migrations of @fw/trigger's tables: triggers, cron and the scheduler lease
 * (`fw_trigger_log`, `fw_trigger_execution`, `fw_crontab`, `fw_scheduler_lease`). Their numbers
 * are shared with the other fw libraries' migrations, so apply them with those of the libraries in
 * use in one `migrateDatabase` call, which applies the union in number order.
 *
 * @example
 * await migrateDatabase(database, [...triggerMigrations(), ...otherLibraryMigrations()]);
 */
export function triggerMigrations(): Migration[] {
  return readMigrationFolder(MIGRATIONS_DIR);
}
