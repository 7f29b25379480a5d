/**
 * Composes the admin server: process manager (database definitions, outbox, JDBC work-item
 * starter enqueuing only), its outbox dispatcher, the trigger service, crontabs and the cron
 * scheduler (one owner per database), the `/process` routes (envelope) and the administration API,
 * every route behind the key except `/info`, `/service-info` and `/health-check` (which probes the
 * process database; see admin-services.ts). The dev profile adds the schema, a generated key, the example
 * definitions and workers (a JDBC work-item runner in this process); the process dashboard is served at `/` in both profiles.
 *
 * Every startup problem throws a ConfigError (one line naming what to fix) before anything
 * listens.
 *
 * @example
 * const server = await createAdminServer({ config: adminConfigFromEnv('dev', process.env, process.cwd()) });
 * const { url } = await server.listen();
 * // ... later
 * await server.close();
 */
import {
  assertTablesExist,
  ConfigError,
  createDatabase,
  createLogger,
  isConfigError,
  migrateDatabase,
  type Database,
  type Logger,
} from '@fw/core';
import { adminServerMigrations } from './admin-migrations';
import { WORK_ITEM_TABLES, type WorkItemRunner } from '@fw/jdbc-process-starter';
import { AUDIT_TABLES, type HistorySweeper } from '@fw/process-management';
import { OUTBOX_TABLES } from '@fw/process-outbox';
import { PROCESS_TABLES, type ProcessManager } from '@fw/process-service';
import { defaultSchedulerOwnerId, TRIGGER_TABLES, type CronScheduler, type TriggerService } from '@fw/trigger';
import type { FwMetrics } from '@fw/telemetry';
import type { Express } from 'express';
import type { Server } from 'node:http';
import type { AdminServerConfig } from '../config/admin-config';
import { seedDefinitions } from '../dev/dev-profile';
import { WORD_COUNT_DEFINITIONS } from '../example/word-count-workers';
import { resolveAdminApiKey } from './admin-api-key';
import { makeAdminApp } from './admin-app';
import { makeAdminComponents } from './admin-components';
import { makeAdminLifecycle } from './admin-lifecycle';
import { makeAdminMetrics } from './admin-metrics';

export interface AdminServerOptions {
  config: AdminServerConfig;
  /** A database to use instead of opening `config.database` (the server then does not close it). */
  database?: Database;
  logger?: Logger;
  /** Cron scheduler identity (default `<host>:<pid>:<random>`). */
  ownerId?: string;
  /** Cron lease in seconds (default 30) and renewal interval (default a third of it). */
  schedulerLeaseSeconds?: number;
  schedulerRenewMillis?: number;
  /** Outbox idle poll (default 1000 ms; local commits wake it at once). */
  outboxPollMillis?: number;
  /** Run the example workers in this process (default: dev profile only). */
  exampleWorkers?: boolean;
  /** History sweeper's lease in seconds (default 60; renewed every third of it during a pass). */
  historyLeaseSeconds?: number;
}

export interface AdminServer {
  readonly app: Express;
  readonly config: AdminServerConfig;
  /** The key in use (generated in dev when none was set). Never logged. */
  readonly apiKey: string;
  /** Where a generated dev key is stored, when it was read from or written to a file. */
  readonly apiKeyFile: string | undefined;
  readonly apiKeyGenerated: boolean;
  readonly database: Database;
  /** The server's series (served at `GET /metrics`), recorded by its engine, runner and trigger service. */
  readonly metrics: FwMetrics;
  readonly manager: ProcessManager;
  readonly triggerService: TriggerService;
  readonly scheduler: CronScheduler;
  /** The example workers' runner (dev), else undefined. */
  readonly runner: WorkItemRunner | undefined;
  /** The history sweeper (one owner among the servers of a database), undefined when turned off. */
  readonly historySweeper: HistorySweeper | undefined;
  /** Starts the scheduler and runner, then listens; resolves with the bound address. */
  listen(): Promise<{ address: string; port: number; url: string }>;
  server(): Server | undefined;
  /** Stops the scheduler, the server, the runner, the dispatcher and the pool (idempotent). */
  close(): Promise<void>;
}

/** Tables the server needs; outside dev they must exist (`fw-migrate`, or `npm run migrate` in the checkout). */
export const ADMIN_SERVER_TABLES: readonly string[] = [
  ...PROCESS_TABLES,
  ...WORK_ITEM_TABLES,
  ...OUTBOX_TABLES,
  ...TRIGGER_TABLES,
  ...AUDIT_TABLES,
];

async function prepareSchema(config: AdminServerConfig, database: Database): Promise<void> {
  if (config.profile === 'dev') {
    await migrateDatabase(database, adminServerMigrations());
    await seedDefinitions(database, WORD_COUNT_DEFINITIONS);
    return;
  }
  try {
    await assertTablesExist(database, ADMIN_SERVER_TABLES);
  } catch (err) {
    if (isConfigError(err))
      throw new ConfigError(
        `${err.message.replace('<url>', 'PROCESS_DATABASE_URL')} (the admin server never creates schema outside the dev profile)`,
      );
    throw new ConfigError(`Cannot reach PROCESS_DATABASE_URL ${database.displayUrl}: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/**
 * Builds the server (nothing listens and no timer fires until {@link AdminServer.listen}) from its
 * parts: the key, the schema, the components, the app and the lifecycle (one file each beside this one).
 */
export async function createAdminServer(options: AdminServerOptions): Promise<AdminServer> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ name: 'admin-server' });
  const apiKey = resolveAdminApiKey(config);

  const ownsDatabase = options.database === undefined;
  const database =
    options.database ??
    createDatabase({ ...config.database, baseDir: config.baseDir, applicationName: 'fw-admin-server' });
  const exampleWorkers = options.exampleWorkers ?? config.profile === 'dev';
  try {
    await prepareSchema(config, database);
  } catch (err) {
    if (ownsDatabase) await database.close().catch(() => undefined);
    throw err;
  }

  const metrics = makeAdminMetrics(database, logger);
  const components = makeAdminComponents({
    config,
    database,
    ownerId: options.ownerId ?? defaultSchedulerOwnerId(),
    exampleWorkers,
    schedulerLeaseSeconds: options.schedulerLeaseSeconds,
    schedulerRenewMillis: options.schedulerRenewMillis,
    outboxPollMillis: options.outboxPollMillis,
    historyLeaseSeconds: options.historyLeaseSeconds,
    metrics,
    logger,
  });
  const { manager, triggerService, scheduler, runner, historySweeper } = components;
  const { app, registry } = makeAdminApp({
    config,
    key: apiKey.key,
    database,
    components,
    exampleWorkers,
    metrics,
    logger,
  });
  const lifecycle = makeAdminLifecycle({
    app,
    config,
    registry,
    database,
    ownsDatabase,
    scheduler,
    historySweeper,
    runner,
    manager,
    logger,
  });

  return {
    app,
    config,
    apiKey: apiKey.key,
    apiKeyFile: apiKey.file,
    apiKeyGenerated: apiKey.generated,
    database,
    metrics,
    manager,
    triggerService,
    scheduler,
    runner,
    historySweeper,
    server: lifecycle.server,
    listen: lifecycle.listen,
    close: lifecycle.close,
  };
}
