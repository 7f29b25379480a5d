/**
 * An administration API for tests: the express app of {@link makeProcessManagementRouter} over a
 * database, with a process manager whose workers the test drives itself (its starter launches
 * nothing), the real trigger service (dispatching ProcessCreate in process) and crontab store of
 * `@fw/trigger`, and a scheduler stand-in that counts its reloads.
 *
 * @example
 * const { app, manager } = makeAdminHarness(testDb, { source: 'json' });
 * await request(app).post('/process-management/api/triggers').set(harnessHeaders('acme')).send({ payload: { processDefName: 'wordcount' } });
 */
import type { Database } from '@fw/core';
import type { ProcessDef } from '@fw/process-api';
import {
  makeDatabaseProcessConfigurator,
  makeJsonProcessConfigurator,
  makeProcessEventHandlers,
  makeProcessManager,
  processDb,
  type ProcessManager,
} from '@fw/process-service';
import { makeCrontabStore, makeTriggerService, processCreateDispatch } from '@fw/trigger';
import express, { type Express } from 'express';
import type { ManagementAccessOptions } from '../access/access-guard';
import { MANAGEMENT_KEY_HEADER } from '../auth/key-guard';
import type { ManagementPorts } from '../ports/management-ports';
import { makeProcessManagementRouter, type ManagementRouterInternals } from '../router/management-router';

/** The API key every harness accepts (38 characters; real hosts need 32 or more of their own). */
export const HARNESS_API_KEY = 'k'.repeat(16) + '-0123456789abcdef-test';

/**
 * The definitions of the harness: a `wordcount` tree with `chunk` children and a `report`
 * successor, and a lone `single` leaf. The JSON source serves them; seed them with
 * {@link seedHarnessDefinitions} for the database source.
 */
export const HARNESS_DEFINITIONS: readonly ProcessDef[] = [
  { processType: 'wordcount', leaf: false, config: { chunkSize: '2' } },
  { processType: 'chunk', leaf: true, parentProcessType: 'wordcount' },
  { processType: 'report', leaf: true, predecessorProcessType: 'wordcount', predecessorArgs: 'OUTPUT' },
  { processType: 'single', leaf: true },
];

/** Writes definitions (default {@link HARNESS_DEFINITIONS}) into `process_definition`; present ones stay as they are. */
export async function seedHarnessDefinitions(
  database: Pick<Database, 'db'>,
  defs: readonly ProcessDef[] = HARNESS_DEFINITIONS,
): Promise<void> {
  await processDb(database)
    .insertInto('process_definition')
    .values(defs.map((d) => ({ process_type: d.processType, definition: JSON.stringify(d) })))
    .onConflict((oc) => oc.column('process_type').doNothing())
    .execute();
}

/** Headers of a call with {@link HARNESS_API_KEY} for `tenant`. */
export function harnessHeaders(tenant: string): Record<string, string> {
  return { [MANAGEMENT_KEY_HEADER]: HARNESS_API_KEY, 'x-fw-tenant-id': tenant };
}

export interface AdminHarness {
  /** An express app with only the administration API mounted. */
  app: Express;
  /** The process manager behind it; send the workers' events to it to move processes on. */
  manager: ProcessManager;
  /** How often the API asked the scheduler to reload its crontabs. */
  reloads: { count: number };
}

export interface AdminHarnessOptions {
  /** Where definitions come from: `database` (default; writable, seed it first) or `json` ({@link HARNESS_DEFINITIONS}). */
  source?: 'json' | 'database';
  /** A scheduler to reload on crontab changes (default true); without one, crontab writes answer 503. */
  withScheduler?: boolean;
  /** The crontab store (default true); false leaves out the scheduler too. */
  withCron?: boolean;
  internals?: ManagementRouterInternals;
  /**
   * Credentials beside {@link HARNESS_API_KEY} (keys with roles, bearer tokens). Wrong keys are
   * never locked out unless `failureLimit` is given here, so a test may send as many as it likes.
   */
  access?: ManagementAccessOptions;
  /** Ports set over the harness's own (a `countExactLimit`, a `logger`, a `basePath`). */
  ports?: Partial<ManagementPorts>;
}

/** Builds the harness over the database of `holder` (a test database, or `{ database }`). */
export function makeAdminHarness(holder: { database: Database }, options: AdminHarnessOptions = {}): AdminHarness {
  const { database } = holder;
  const source = options.source ?? 'database';
  const configurator =
    source === 'database'
      ? makeDatabaseProcessConfigurator({ db: processDb(database) })
      : makeJsonProcessConfigurator({ definitions: [...HARNESS_DEFINITIONS] });
  const manager = makeProcessManager({
    db: processDb(database),
    configurator,
    workerStarter: { startWorker: () => undefined },
  });
  const triggerService = makeTriggerService({
    database,
    dispatch: processCreateDispatch(makeProcessEventHandlers(manager)),
  });
  const reloads = { count: 0 };
  const withCron = options.withCron !== false;
  const ports: ManagementPorts = {
    database,
    apiKey: HARNESS_API_KEY,
    access: { failureLimit: { maxFailures: Number.MAX_SAFE_INTEGER }, ...options.access },
    definitions: { source, configurator },
    triggerService,
    ...(withCron ? { crontabs: makeCrontabStore(database) } : {}),
    ...(withCron && options.withScheduler !== false ? { scheduler: { reload: () => void (reloads.count += 1) } } : {}),
    ...options.ports,
  };
  const app = express();
  app.use(makeProcessManagementRouter(ports, options.internals));
  return { app, manager, reloads };
}
