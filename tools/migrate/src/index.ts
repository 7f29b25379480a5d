// Public entry point of @fw/migrate: the framework's schema (the migrations of this release) and
// the fw-migrate command for embedding. Every export is listed explicitly.
export {
  DEFAULT_MIGRATIONS_DIR,
  MIGRATE_USAGE,
  MIGRATE_VERSION,
  UsageError,
  parseMigrateArgs,
  readFwMigrations,
  runMigrate,
  migrateMain,
} from './migrate-cli';
export type { MigrateOptions } from './migrate-cli';
