// Test support: a migrated PGlite database in memory, the real worker host on it, and the inputs
// of each process (a real file for the file processes).
// The custom processes' expected "not implemented" failures would be logged as warnings: keep the
// test output to real errors (FW_LOG_LEVEL is read by @fw/core's logger; set it to see them).
process.env.FW_LOG_LEVEL ??= 'error';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createDatabase, migrateDatabase, type Database } from '@fw/core';
import { jdbcProcessStarterMigrations, type JdbcWorkerHost } from '@fw/jdbc-process-starter';
import { processOutboxMigrations } from '@fw/process-outbox';
import { processServiceMigrations } from '@fw/process-service';
import type { Process } from '@fw/process-api';
import { seedDefinitions } from '{{scope}}/{{applicationKebab}}-configurations';
import { makeHost } from '../src/host';

export const TENANT = 'test';
const FINAL = new Set(['PROCESSED', 'PROCESSED_WITH_ERRORS']);

/** Sample inputs by process type (the types of the processSpec's fields). */
export const SAMPLE_ARGS: Record<string, Record<string, unknown>> = {
{{#processes}}
  '{{processType}}': {{{sampleArgsJson}}},
{{/processes}}
};
/** The processes whose `path` must name a real file, with their chunk size (fileSplit) or 0. */
const FILE_PROCESSES: Record<string, number> = {
{{#processes}}
{{#isFileSplit}}
  '{{processType}}': {{chunkSize}},
{{/isFileSplit}}
{{#isFileRead}}
  '{{processType}}': 0,
{{/isFileRead}}
{{/processes}}
};

export interface TestEnv {
  database: Database;
  host: JdbcWorkerHost;
  dir: string;
  close(): Promise<void>;
}

export async function startTestEnv(): Promise<TestEnv> {
  const database = createDatabase({ url: 'pglite:memory:' });
  // The worker host's tables: processes and definitions, the outbox, the work items.
  await migrateDatabase(database, [...processServiceMigrations(), ...processOutboxMigrations(), ...jdbcProcessStarterMigrations()]);
  await seedDefinitions(database);
  const host = makeHost({ database, recoverySeconds: 5, tuning: { closeDatabase: false, runner: { pollIntervalMillis: 50 }, outbox: { pollIntervalMillis: 50 } } });
  host.start();
  const dir = mkdtempSync(path.join(tmpdir(), '{{applicationKebab}}-test-'));
  return {
    database,
    host,
    dir,
    async close() {
      await host.stop({ drainMillis: 1000 });
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The sample input of a process; for a file process a real file of a few chunks plus a tail. */
export function argsFor(env: TestEnv, processType: string): Record<string, unknown> {
  const args = { ...SAMPLE_ARGS[processType] };
  const chunk = FILE_PROCESSES[processType];
  if (chunk === undefined) return args;
  const file = path.join(env.dir, `${processType}-${Date.now()}.bin`);
  writeFileSync(file, randomBytes((chunk || 64 * 1024) * 3 + 1234));
  return { ...args, path: file };
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function chunkSizeOf(processType: string): number {
  return FILE_PROCESSES[processType] ?? 0;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, millis = 30_000): Promise<T> {
  const until = Date.now() + millis;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function finished(env: TestEnv, id: string): Promise<Process> {
  return waitFor(`process ${id} to finish`, async () => {
    const { mutatedEntity } = await env.host.manager.getProcess(id, { tenant: TENANT });
    return FINAL.has(mutatedEntity.state.stateId) ? mutatedEntity : undefined;
  });
}

/** Creates a process (as a root, even a child type: in-process creation allows it for tests) and waits for its end. */
export async function runToEnd(env: TestEnv, processType: string, args: Record<string, unknown>): Promise<Process> {
  const { mutatedEntity } = await env.host.manager.createProcess({ processDefName: processType, args }, { tenant: TENANT });
  return finished(env, mutatedEntity.id);
}

export async function successorOf(env: TestEnv, predecessorId: string, processType: string): Promise<Process> {
  const id = await waitFor(`the ${processType} successor of ${predecessorId}`, async () => {
    const rows = await env.database.withSession((s) => s.query<{ id: string }>('select id from fw_process where predecessor_id = $1 and process_type = $2', [predecessorId, processType]));
    return rows[0]?.id;
  });
  return finished(env, id);
}
