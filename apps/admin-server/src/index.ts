// Public entry point of the admin server (for tests and hosts embedding it). Every export is listed explicitly.
export { createAdminServer, ADMIN_SERVER_TABLES } from './host/admin-server';
export type { AdminServer, AdminServerOptions } from './host/admin-server';
export { adminConfigFromEnv, parseAdminArgs, ADMIN_SERVER_USAGE, UsageError } from './config/admin-config';
export type { AdminServerConfig, AdminProfile } from './config/admin-config';
export { startAdminServer, exampleCurl } from './main-cli';
export type { AdminIo } from './main-cli';
export { ensureDevKey, seedDefinitions, MIGRATIONS_DIR, DEV_KEY_FILE } from './dev/dev-profile';
export { DASHBOARD_HTML } from './dashboard/dashboard-page';
export {
  wordCountWorkers,
  SplitText,
  CountChunk,
  MergeCounts,
  TopWords,
  WORD_COUNT,
  WORD_COUNT_CHUNK,
  WORD_COUNT_REPORT,
  WORD_COUNT_DEFINITIONS,
  EXAMPLE_TEXT,
} from './example/word-count-workers';
export type { ChunkCount, WordCountOutput, WordCountReport } from './example/word-count-workers';
