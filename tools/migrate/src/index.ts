export { DEFAULT_MIGRATIONS_DIR, MIGRATE_USAGE, UsageError, parseMigrateArgs, runMigrate, migrateMain } from './migrate-cli';
export type { MigrateOptions } from './migrate-cli';
