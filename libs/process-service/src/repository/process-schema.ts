/**
 * Tables the process service needs (`migrations/0002_process.sql`). Hosts outside the dev profile
 * check them with `assertTablesExist(database, PROCESS_TABLES)` instead of creating schema.
 */
export const PROCESS_TABLES: readonly string[] = [
  'fw_process',
  'fw_process_error',
  'fw_process_child_report',
  'fw_process_completion_event',
  'process_definition',
];
