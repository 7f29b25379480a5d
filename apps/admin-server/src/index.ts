// Public entry point of the admin server (for tests and hosts embedding it). Every export is listed explicitly.
export { createAdminServer, ADMIN_SERVER_TABLES } from './host/admin-server';
export type { AdminServer, AdminServerOptions } from './host/admin-server';
export { adminConfigFromEnv, parseAdminArgs, ADMIN_SERVER_USAGE, UsageError } from './config/admin-config';
export type { AdminServerConfig, AdminProfile, AdminArgs } from './config/admin-config';
export { startAdminServer, exampleCurl, ADMIN_SERVER_VERSION } from './main-cli';
export type { AdminIo } from './main-cli';
export { ensureDevKey, seedDefinitions, DEV_KEY_FILE } from './dev/dev-profile';
export { makeDashboardRouter, DASHBOARD_MISSING_HTML, SERVER_PATH_PREFIXES } from './dashboard/dashboard-router';
export type { DashboardRouterOptions } from './dashboard/dashboard-router';
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
