// Public entry point of @fw/migrate: the framework's schema (the migrations every fw library ships
// for its own tables, composed) and the fw-migrate command for embedding. Every export is listed
// explicitly.
export {
  fwMigrations,
  MIGRATE_USAGE,
  MIGRATE_VERSION,
  UsageError,
  parseMigrateArgs,
  readFwMigrations,
  runMigrate,
  migrateMain,
} from './migrate-cli';
export type { MigrateOptions } from './migrate-cli';
