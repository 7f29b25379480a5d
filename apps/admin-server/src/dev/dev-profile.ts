/**
 * The dev profile's conveniences: a generated key kept under
 * `./.data/`, and the example definitions seeded into `process_definition`.
 *
 * @example
 * const key = ensureDevKey('/work/app/.data');   // reads .data/admin-api-key, or writes a new one
 */
import type { Database } from '@fw/core';
import type { ProcessDef } from '@fw/process-api';
import { processDb } from '@fw/process-service';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/** File holding the generated dev key. */
export const DEV_KEY_FILE = 'admin-api-key';

/**
 * The key stored in `<dataDir>/admin-api-key`, or a new random one (64 hex characters) written
 * there with mode 0600. A stored key shorter than 32 characters is replaced.
 */
export function ensureDevKey(dataDir: string): { key: string; file: string; generated: boolean } {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, DEV_KEY_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return { key: stored, file, generated: false };
  }
  const key = randomBytes(32).toString('hex');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return { key, file, generated: true };
}

/** Inserts the definitions that are not there yet (existing rows, possibly edited, are kept). */
export async function seedDefinitions(database: Pick<Database, 'db'>, defs: readonly ProcessDef[]): Promise<number> {
  const rows = await processDb(database)
    .insertInto('process_definition')
    .values(defs.map((d) => ({ process_type: d.processType, definition: JSON.stringify(d) })))
    .onConflict((oc) => oc.column('process_type').doNothing())
    .returning('process_type')
    .execute();
  return rows.length;
}
