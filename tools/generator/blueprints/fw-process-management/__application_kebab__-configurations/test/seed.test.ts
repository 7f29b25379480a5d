import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createDatabase, migrateDatabase, type Database } from '@fw/core';
import { processServiceMigrations } from '@fw/process-service';
import { triggerMigrations } from '@fw/trigger';
import { cronTriggers, processDefinitions, seedCronTriggers, seedDefinitions } from '../src/index';

let database: Database;

before(async () => {
  database = createDatabase({ url: 'pglite:memory:' });
  // The tables the seeds write: process_definition (@fw/process-service) and fw_crontab (@fw/trigger).
  await migrateDatabase(database, [...processServiceMigrations(), ...triggerMigrations()]);
});

after(async () => {
  await database.close();
});

async function definitionOf(processType: string): Promise<Record<string, unknown>> {
  const rows = await database.withSession((s) => s.query<{ definition: string }>('select definition from process_definition where process_type = $1', [processType]));
  return JSON.parse(rows[0].definition) as Record<string, unknown>;
}

test('the definitions are seeded; an administrator edit survives a second seed', async () => {
  const defs = processDefinitions();
  const first = await seedDefinitions(database);
  assert.deepEqual(first.inserted.sort(), defs.map((d) => d.processType).sort());
  const edited = { ...defs[0], config: { ...(defs[0].config ?? {}), editedBy: 'admin' } };
  await database.withSession((s) => s.query('update process_definition set definition = $2 where process_type = $1', [edited.processType, JSON.stringify(edited)]));
  const second = await seedDefinitions(database);
  assert.deepEqual(second.inserted, []);
  assert.equal(second.kept.length, defs.length);
  assert.deepEqual(await definitionOf(edited.processType), edited);
});

test('the cron triggers are seeded disabled, once', async () => {
  const triggers = cronTriggers();
  const first = await seedCronTriggers(database);
  assert.equal(first.inserted.length, triggers.length);
  const rows = await database.withSession((s) => s.query<{ name: string; enabled: boolean; payload: unknown }>('select name, enabled, payload from fw_crontab order by name'));
  assert.equal(rows.length, triggers.length);
  for (const row of rows) assert.equal(row.enabled, false);
  assert.deepEqual((await seedCronTriggers(database)).inserted, []);
});
