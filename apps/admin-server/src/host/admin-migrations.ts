import type { Migration } from '@fw/core';
import { jdbcProcessStarterMigrations } from '@fw/jdbc-process-starter';
import { processManagementMigrations } from '@fw/process-management';
import { processOutboxMigrations } from '@fw/process-outbox';
import { processServiceMigrations } from '@fw/process-service';
import { triggerMigrations } from '@fw/trigger';
import { workflowMigrations } from '@fw/workflow';

/**
 * The schema the dev profile applies: the migrations of the libraries whose tables the server uses
 * (processes and definitions, work items, outbox, triggers and cron, workflow entities, the audit
 * trail), each from its library's entry point. `migrateDatabase` applies them in number order.
 */
export function adminServerMigrations(): Migration[] {
  return [
    ...processServiceMigrations(),
    ...jdbcProcessStarterMigrations(),
    ...processOutboxMigrations(),
    ...triggerMigrations(),
    ...workflowMigrations(),
    ...processManagementMigrations(),
  ];
}
