// The `@fw/process-management/testing` entry point: the administration API assembled for tests
// (real router, process manager, trigger service and crontab store over a database you give it).
// Kept out of the main entry so that hosts never load test scaffolding. Every export is listed explicitly.
export {
  makeAdminHarness,
  seedHarnessDefinitions,
  harnessHeaders,
  HARNESS_API_KEY,
  HARNESS_DEFINITIONS,
} from './testing/admin-harness';
export type { AdminHarness, AdminHarnessOptions } from './testing/admin-harness';
