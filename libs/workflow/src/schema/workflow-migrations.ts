import { readMigrationFolder, type Migration } from '@fw/core';
import * as path from 'node:path';

/** The package's `migrations/` folder: beside `src/` in the checkout, beside `dist/` once installed. */
const MIGRATIONS_DIR = path.resolve(__dirname, '../../migrations');

/**
 * The migrations of @fw/workflow's tables: the workflow entities (`fw_workflow_entity`). Their
 * numbers are shared with the other fw libraries' migrations, so apply them with those of the
 * libraries in use in one `migrateDatabase` call, which applies the union in number order.
 *
 * @example
 * await migrateDatabase(database, [...workflowMigrations(), ...otherLibraryMigrations()]);
 */
export function workflowMigrations(): Migration[] {
  return readMigrationFolder(MIGRATIONS_DIR);
}
