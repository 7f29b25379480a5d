import { readMigrationFolder, type Migration } from '@fw/core';
import * as path from 'node:path';

/** The package's `migrations/` folder: beside `src/` in the checkout, beside `dist/` once installed. */
const MIGRATIONS_DIR = path.resolve(__dirname, '../../migrations');

/**
 * The migrations of @fw/process-management's tables: the administration audit trail
 * (`fw_admin_audit`). Their numbers are shared with the other fw libraries' migrations, so apply
 * them with those of the libraries in use in one `migrateDatabase` call, which applies the union
 * in number order.
 *
 * @example
 * await migrateDatabase(database, [...processManagementMigrations(), ...otherLibraryMigrations()]);
 */
export function processManagementMigrations(): Migration[] {
  return readMigrationFolder(MIGRATIONS_DIR);
}
