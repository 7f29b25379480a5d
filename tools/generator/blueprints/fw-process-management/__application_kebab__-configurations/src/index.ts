// {{application}}'s process definitions and cron triggers (generated from the processSpec by fw-gen
// {{blueprintName}} {{blueprintVersion}}). Definition source: {{definitionSource}}.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Database } from '@fw/core';
import type { ProcessDef } from '@fw/process-api';

/** The JSON files, shipped in this package (also readable by a JSON-sourced host or by hand). */
export const DEFINITIONS_FILE = path.resolve(__dirname, '../../definitions/process-definitions.json');
export const CRON_TRIGGERS_FILE = path.resolve(__dirname, '../../definitions/cron-triggers.json');

export interface CronTriggerSeed {
  name: string;
  cronExpression: string;
  timezone: string;
  processType: string;
  tenant: string;
  args: Record<string, unknown>;
}

/** Read at call time, so an edited JSON file counts without a rebuild. */
export function processDefinitions(): ProcessDef[] {
  return JSON.parse(readFileSync(DEFINITIONS_FILE, 'utf8')) as ProcessDef[];
}

export function cronTriggers(): CronTriggerSeed[] {
  return JSON.parse(readFileSync(CRON_TRIGGERS_FILE, 'utf8')) as CronTriggerSeed[];
}

export interface SeedResult {
  inserted: string[];
  kept: string[];
}

async function run(database: Database, sqlText: string, params: unknown[]): Promise<Record<string, unknown>[]> {
  if (database.query) return database.query(sqlText, params);
  return database.withSession((session) => session.query(sqlText, params));
}

/**
 * Seeds `process_definition` with the generated definitions. A definition that is already there is
 * left as it is: an administrator may have edited it since (through the administration API), and
 * a deployment must not undo that. Delete a row to have it seeded again.
 */
export async function seedDefinitions(database: Database, definitions: ProcessDef[] = processDefinitions()): Promise<SeedResult> {
  const result: SeedResult = { inserted: [], kept: [] };
  for (const def of definitions) {
    const rows = await run(database, 'insert into process_definition (process_type, definition) values ($1, $2) on conflict (process_type) do nothing returning process_type', [def.processType, JSON.stringify(def)]);
    (rows.length > 0 ? result.inserted : result.kept).push(def.processType);
  }
  return result;
}

/**
 * Seeds the cron triggers into `fw_crontab`, disabled: a schedule starts work, so an administrator
 * turns it on (dashboard or `PUT /process-management/api/crontabs/{id}`) when the system is ready.
 * An existing crontab of the same tenant and name is left as it is.
 */
export async function seedCronTriggers(database: Database, triggers: CronTriggerSeed[] = cronTriggers()): Promise<SeedResult> {
  const result: SeedResult = { inserted: [], kept: [] };
  for (const t of triggers) {
    const payload = JSON.stringify({ processDefName: t.processType, args: t.args });
    const rows = await run(
      database,
      'insert into fw_crontab (id, tenant, name, cron_expression, timezone, enabled, payload) values ($1, $2, $3, $4, $5, false, $6) on conflict (tenant, name) do nothing returning id',
      [randomUUID(), t.tenant, t.name, t.cronExpression, t.timezone, payload],
    );
    (rows.length > 0 ? result.inserted : result.kept).push(t.name);
  }
  return result;
}
