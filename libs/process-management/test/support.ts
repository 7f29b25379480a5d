/**
 * Test support: an express app with the administration API over a test database, a process
 * manager whose workers are driven by the test (a starter that launches nothing), the real trigger
 * service and crontab store of `@fw/trigger`, and a scheduler stand-in that counts reloads.
 */
import type { Database } from '@fw/core';
import type { Process, ProcessDef } from '@fw/process-api';
import {
  makeDatabaseProcessConfigurator,
  makeJsonProcessConfigurator,
  makeProcessManager,
  processDb,
  type ProcessManager,
} from '@fw/process-service';
import type { TestDatabase } from '@fw/test-support';
import { makeCrontabStore, makeTriggerService } from '@fw/trigger';
import express, { type Express } from 'express';
import {
  makeProcessManagementRouter,
  type ManagementAccessOptions,
  type ManagementPorts,
  type ManagementRouterInternals,
} from '../src';

export const KEY = 'k'.repeat(16) + '-0123456789abcdef-test';
export const T1 = 'tenant-1';
export const T2 = 'tenant_2';

export const DEFINITIONS: ProcessDef[] = [
  { processType: 'wordcount', leaf: false, config: { chunkSize: '2' } },
  { processType: 'chunk', leaf: true, parentProcessType: 'wordcount' },
  { processType: 'report', leaf: true, predecessorProcessType: 'wordcount', predecessorArgs: 'OUTPUT' },
  { processType: 'single', leaf: true },
];

export async function seedDefinitions(
  database: Pick<Database, 'db'>,
  defs: readonly ProcessDef[] = DEFINITIONS,
): Promise<void> {
  await processDb(database)
    .insertInto('process_definition')
    .values(defs.map((d) => ({ process_type: d.processType, definition: JSON.stringify(d) })))
    .onConflict((oc) => oc.column('process_type').doNothing())
    .execute();
}

export interface AdminHarness {
  app: Express;
  manager: ProcessManager;
  reloads: { count: number };
}

export interface HarnessOptions {
  source?: 'json' | 'database';
  withScheduler?: boolean;
  withCron?: boolean;
  internals?: ManagementRouterInternals;
  /** Credentials beside KEY (keys with roles, bearer tokens, the failure limit). */
  access?: ManagementAccessOptions;
}

export function makeAdminHarness(testDb: TestDatabase, options: HarnessOptions = {}): AdminHarness {
  const database = testDb.database;
  const source = options.source ?? 'database';
  const configurator =
    source === 'database'
      ? makeDatabaseProcessConfigurator({ db: processDb(database) })
      : makeJsonProcessConfigurator({ definitions: DEFINITIONS });
  const manager = makeProcessManager({
    db: processDb(database),
    configurator,
    workerStarter: { startWorker: () => undefined },
  });
  const triggerService = makeTriggerService({
    database,
    dispatch: async (dto) => ({
      processId: (
        await manager.createProcess(
          { processDefName: dto.processDefName, args: dto.args, triggerId: dto.triggerId },
          { tenant: dto.tenant },
        )
      ).mutatedEntity.id,
    }),
  });
  const reloads = { count: 0 };
  const ports: ManagementPorts = {
    database,
    apiKey: KEY,
    // Tests send wrong keys on purpose (hundreds, in the property tests): no failure limit unless a test sets one.
    access: { failureLimit: { maxFailures: Number.MAX_SAFE_INTEGER }, ...options.access },
    definitions: { source, configurator },
    triggerService,
    ...(options.withCron === false ? {} : { crontabs: makeCrontabStore(database) }),
    ...(options.withScheduler === false || options.withCron === false
      ? {}
      : { scheduler: { reload: () => void (reloads.count += 1) } }),
  };
  const app = express();
  app.use(makeProcessManagementRouter(ports, options.internals));
  return { app, manager, reloads };
}

/** Headers of an authorised call. */
export function auth(tenant: string = T1): Record<string, string> {
  return { 'X-Process-Management-Key': KEY, 'x-fw-tenant-id': tenant };
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
