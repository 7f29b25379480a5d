/**
 * Test support: the administration API harness of the package's public test entry point under
 * the names these tests use, plus a word count run by hand and the error envelope check.
 */
import type { Database } from '@fw/core';
import type { Process } from '@fw/process-api';
import { processDb, type ProcessManager } from '@fw/process-service';
import {
  HARNESS_API_KEY,
  HARNESS_DEFINITIONS,
  harnessHeaders,
  seedHarnessDefinitions,
} from '@fw/process-management/testing';

export { makeAdminHarness } from '@fw/process-management/testing';
export type { AdminHarness } from '@fw/process-management/testing';

export const KEY = HARNESS_API_KEY;
export const T1 = 'tenant-1';
export const T2 = 'tenant_2';
export const DEFINITIONS = HARNESS_DEFINITIONS;
export const seedDefinitions = seedHarnessDefinitions;

/** Headers of an authorised call. */
export function auth(tenant: string = T1): Record<string, string> {
  return harnessHeaders(tenant);
}

export const API = '/process-management/api';

/**
 * Runs a word count tree by hand: root → splitDone with `chunks` children → each child done →
 * aggregationDone → PROCESSED; the successor `report` is then completed too.
 */
export async function runTree(
  manager: ProcessManager,
  database: Pick<Database, 'db'>,
  root: Process,
  chunks: string[],
): Promise<{ children: string[]; successor: Process }> {
  const tenant = root.tenant;
  await manager.sendEvent(
    root.id,
    'splitDone',
    { subProcesses: chunks.map((text) => ({ processType: 'chunk', args: { text } })) },
    { tenant },
  );
  const tree = await manager.getProcessTree(root.id, { tenant });
  const children = tree.slice(1).map((p) => p.id);
  for (const [i, id] of children.entries())
    await manager.sendEvent(id, 'doneSuccessfully', { output: { words: chunks[i].split(' ').length } }, { tenant });
  await manager.sendEvent(
    root.id,
    'aggregationDone',
    { output: { words: chunks.join(' ').split(' ').length } },
    { tenant },
  );
  const successorId = (
    await processDb(database)
      .selectFrom('fw_process')
      .select('id')
      .where('predecessor_id', '=', root.id)
      .executeTakeFirstOrThrow()
  ).id;
  const successor = (await manager.sendEvent(successorId, 'doneSuccessfully', { output: { top: ['a'] } }, { tenant }))
    .mutatedEntity;
  return { children, successor };
}

/**
 * Asserts that `res` is an error answer of the administration API: the framework error envelope
 * (`code` = the status, a `PM`/`P`/`T`/`FW` code) whose `message` repeats its description, with
 * no stack trace.
 */
export function expectErrorEnvelope(res: { status: number; body: Record<string, unknown>; text: string }): void {
  expect(res.body).toMatchObject({
    success: false,
    code: res.status,
    subErrorCode: expect.stringMatching(/^(PM|P|T|FW)[0-9A-Z_]+$/),
    description: expect.any(String),
    message: res.body.description,
    payload: null,
  });
  expect(res.text).not.toMatch(/at .*\.ts:\d+/);
}
