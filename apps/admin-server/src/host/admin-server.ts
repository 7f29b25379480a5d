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
  errorEnvelope,
  FwError,
  isConfigError,
  migrateDatabase,
  type Database,
  type Logger,
} from '@fw/core';
import { makeErrorMiddleware, makeNotFoundHandler } from '@fw/core/http';
import { adminServerMigrations } from './admin-migrations';
import {
  makeSinkFailureReporter,
  makeWorkItemRunner,
  makeWorkItemStarter,
  WORK_ITEM_TABLES,
  type WorkItemRunner,
} from '@fw/jdbc-process-starter';
import { makeAdminUiRouter } from '@fw/admin-ui';
import {
  assertManagementKey,
  HISTORY_SWEEPER_LEASE,
  makeAuditStore,
  makeHistoryRetentionStore,
  makeHistorySweeper,
  AUDIT_TABLES,
  makeAccessGuard,
  makeProcessManagementRouter,
  resolveManagementAccess,
  retentionSettingsFromEnv,
  type HistorySweeper,
} from '@fw/process-management';
import { OUTBOX_TABLES } from '@fw/process-outbox';
import {
  makeDatabaseProcessConfigurator,
  makeProcessEventHandlers,
  makeProcessManager,
  PROCESS_TABLES,
  processDb,
  type ProcessManager,
} from '@fw/process-service';
import { makeProcessRouter } from '@fw/process-service/http';
import { makeBatchService, makeManagerEventSink } from '@fw/process-utils';
import {
  defaultSchedulerOwnerId,
  makeCronScheduler,
  makeCrontabStore,
  makeSchedulerLease,
  makeTriggerService,
  processCreateDispatch,
  TRIGGER_TABLES,
  type CronScheduler,
  type TriggerService,
} from '@fw/trigger';
import { makeRegistryDelegate, makeServiceRegistry, makeServiceRouter, type RegistryDelegate } from '@fw/service';
import { makeMcpRouter } from '@fw/service/mcp';
import express, { type Express } from 'express';
import adminServerPackage from '../../package.json';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AdminServerConfig } from '../config/admin-config';
import { makeAdminServices, MANAGEMENT_KEY_GUARD } from './admin-services';
import type { ProcessDef } from '@fw/process-api';
import { makeDashboardRouter, servicePathPrefixes } from '../dashboard/dashboard-router';
import { ensureDevKey, seedDefinitions } from '../dev/dev-profile';
import { WORD_COUNT_DEFINITIONS, wordCountWorkers } from '../example/word-count-workers';

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
 * The history sweeper: removes finished trees past their retention, on one admin server of the
 * database at a time (a lease row, as the cron scheduler's). Undefined when the interval is off.
 */
function makeAdminHistorySweeper(
  config: AdminServerConfig,
  database: Database,
  ownerId: string,
  definitions: () => Promise<readonly ProcessDef[]>,
  leaseSeconds: number | undefined,
  logger: Logger,
): HistorySweeper | undefined {
  const history = config.history ?? { retention: retentionSettingsFromEnv({}), sweepIntervalMillis: 60_000 };
  if (history.sweepIntervalMillis === undefined) return undefined;
  const lease = makeSchedulerLease({
    database,
    name: HISTORY_SWEEPER_LEASE,
    ownerId,
    leaseSeconds: leaseSeconds ?? 60,
  });
  return makeHistorySweeper({
    store: makeHistoryRetentionStore(database),
    audit: makeAuditStore(database.db),
    lease,
    settings: history.retention,
    definitions,
    intervalMillis: history.sweepIntervalMillis,
    logger,
  });
}

/** Builds the server (nothing listens and no timer fires until {@link AdminServer.listen}). */
export async function createAdminServer(options: AdminServerOptions): Promise<AdminServer> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ name: 'admin-server' });
  let apiKey = config.apiKey;
  let apiKeyFile: string | undefined;
  let apiKeyGenerated = false;
  if (apiKey === undefined && config.profile === 'dev' && config.dataDir !== undefined) {
    const stored = ensureDevKey(config.dataDir);
    ({ key: apiKey, file: apiKeyFile, generated: apiKeyGenerated } = stored);
  }
  const key = assertManagementKey(apiKey, 'PROCESS_MANAGEMENT_API_KEY');

  const ownsDatabase = options.database === undefined;
  const database =
    options.database ??
    createDatabase({ ...config.database, baseDir: config.baseDir, applicationName: 'fw-admin-server' });
  const examples = options.exampleWorkers ?? config.profile === 'dev';
  try {
    await prepareSchema(config, database);
  } catch (err) {
    if (ownsDatabase) await database.close().catch(() => undefined);
    throw err;
  }

  const ownerId = options.ownerId ?? defaultSchedulerOwnerId();
  const db = processDb(database);
  const configurator = makeDatabaseProcessConfigurator({ db });
  const starter = makeWorkItemStarter();
  const manager = makeProcessManager({
    db,
    configurator,
    workerStarter: starter,
    logger,
    outbox: {
      enabled: true,
      runDispatcher: true,
      pollIntervalMillis: options.outboxPollMillis ?? 1000,
      workerId: ownerId,
    },
  });
  const triggerService = makeTriggerService({
    database,
    dispatch: processCreateDispatch(makeProcessEventHandlers(manager)),
    logger,
  });
  const crontabs = makeCrontabStore(database);
  const scheduler = makeCronScheduler({
    database,
    crontabs,
    triggerService,
    ownerId,
    logger,
    ...(options.schedulerLeaseSeconds === undefined ? {} : { leaseSeconds: options.schedulerLeaseSeconds }),
    ...(options.schedulerRenewMillis === undefined ? {} : { renewIntervalMillis: options.schedulerRenewMillis }),
  });
  const historySweeper = makeAdminHistorySweeper(
    config,
    database,
    ownerId,
    () => configurator.list(),
    options.historyLeaseSeconds,
    logger,
  );
  let runner: WorkItemRunner | undefined;
  if (examples) {
    const sink = makeManagerEventSink(manager);
    runner = makeWorkItemRunner({
      database,
      batchService: makeBatchService({ workers: wordCountWorkers(), sink, logger }),
      onDead: makeSinkFailureReporter(sink),
      concurrency: 4,
      pollIntervalMillis: 500,
      logger,
    });
    const wake = runner;
    starter.onEnqueued(() => wake.wake());
  }

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const registry = makeServiceRegistry({
    host: {
      name: 'admin-server',
      version: adminServerPackage.version,
      description: 'fw process administration server',
      license: { name: adminServerPackage.license, identifier: adminServerPackage.license },
    },
    services: makeAdminServices({
      version: adminServerPackage.version,
      profile: config.profile,
      database,
      manager,
      exampleWorkers: examples,
      isSchedulerOwner: () => scheduler.isOwner(),
      logger,
    }),
    logger,
  });
  // The admin UI (static, read-only, no data of its own) before the key guard, like the info endpoints it reads.
  app.use(makeAdminUiRouter({ proxyAllowedOrigins: config.adminUiProxyOrigins ?? [] }));
  // Before the key guard: load balancers, orchestrators and the admin UI read these without the
  // management key (behind X-Fw-Info-Key when FW_INFO_ACCESS_KEY is set).
  app.use(
    makeServiceRouter(registry, {
      serve: { operations: false },
      infoAccessKey: config.infoAccessKey,
      openApi: { operationsGuard: MANAGEMENT_KEY_GUARD },
      logger,
    }),
  );
  // One key set, token cache and failure count for the administration API and the routes below.
  const access = resolveManagementAccess({
    access: {
      keys: [key, ...(config.access?.keys ?? [])].map((k) => ({
        key: k,
        role: config.access?.keyRole ?? 'admin',
        tenants: config.access?.keyTenants ?? '*',
      })),
      ...(config.access?.jwt === undefined ? {} : { jwt: config.access.jwt }),
    },
    logger,
  });
  app.use(
    makeProcessManagementRouter({
      database,
      access,
      definitions: { source: 'database', configurator },
      triggerService,
      crontabs,
      scheduler,
      logger,
      countExactLimit: config.countExactLimit,
    }),
  );
  // The process dashboard at / in both profiles (PROCESS_ADMIN_DASHBOARD=off turns it off): static files
  // holding no data; it asks for the key and every call carries it. Deep links answer its index.
  if (config.dashboardEnabled !== false)
    app.use(makeDashboardRouter({ reservedPrefixes: servicePathPrefixes(registry.list()) }));
  // The /process routes, the registry's services and MCP are not scoped per tenant or operation:
  // they take a credential that is admin over every tenant (the workers' key).
  const envelope = (status: number, message: string) =>
    errorEnvelope(new FwError({ code: status, subErrorCode: `PM${status}`, description: message }));
  app.use(makeAccessGuard(access, { logger, errorBody: envelope, require: { role: 'admin', allTenants: true } }));
  app.use(makeProcessRouter({ manager, logger }));
  // Services the registry serves itself (the dev profile's support-ticket workflow), behind the key.
  app.use(makeServiceRouter(registry, { serve: { info: false }, logger }));
  // MCP (FW_MCP_ENABLED; on in dev): every operation as a tool, behind the key like the routes.
  if (config.mcpEnabled)
    app.use(
      makeMcpRouter(registry, {
        instructions:
          'fw process administration: processes, definitions, triggers, crontabs' +
          (config.profile === 'dev' ? ', support tickets' : ''),
        logger,
      }),
    );
  app.use(makeNotFoundHandler());
  app.use(makeErrorMiddleware(logger));

  let server: Server | undefined;
  let closing: Promise<void> | undefined;
  let delegate: RegistryDelegate | undefined;
  let started = false;

  return {
    app,
    config,
    apiKey: key,
    apiKeyFile,
    apiKeyGenerated,
    database,
    manager,
    triggerService,
    scheduler,
    runner,
    historySweeper,
    server: () => server,
    async listen() {
      if (server) throw new Error('admin server is already listening');
      if (!started) {
        started = true;
        await scheduler.start();
        historySweeper?.start();
        runner?.start();
      }
      const { port, bindAddress } = config;
      return new Promise((resolve, reject) => {
        const candidate = app.listen(port, bindAddress);
        candidate.once('error', (err: NodeJS.ErrnoException) => {
          const why =
            err.code === 'EADDRINUSE'
              ? 'is already in use'
              : err.code === 'EADDRNOTAVAIL'
                ? 'is not an address of this machine'
                : `cannot be used (${err.message})`;
          reject(
            new ConfigError(
              `PROCESS_ADMIN_BIND_ADDRESS ${bindAddress} port ${port} ${why}: change PROCESS_ADMIN_PORT or PROCESS_ADMIN_BIND_ADDRESS`,
            ),
          );
        });
        candidate.once('listening', () => {
          server = candidate;
          candidate.keepAliveTimeout = 65_000;
          const address = candidate.address() as AddressInfo;
          const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          logger.info(
            { address: address.address, port: address.port, profile: config.profile, database: database.displayUrl },
            'admin server listening',
          );
          const url = `http://${host}:${address.port}`;
          if (config.serviceRegistry) {
            delegate = makeRegistryDelegate({
              registryUrl: config.serviceRegistry.url,
              baseUrl: config.serviceRegistry.baseUrl ?? url,
              registry,
              logger,
            });
            delegate.start();
          }
          resolve({ address: address.address, port: address.port, url });
        });
      });
    },
    close() {
      closing ??= (async () => {
        await delegate?.stop();
        await scheduler.stop().catch((err: unknown) => logger.warn({ err }, 'cron scheduler did not stop cleanly'));
        await historySweeper?.stop();
        if (server) {
          const current = server;
          await new Promise<void>((resolve) => {
            current.close(() => resolve());
            current.closeIdleConnections();
          });
        }
        await runner?.stop({ timeoutMillis: 10_000 });
        await manager.close();
        if (ownsDatabase) await database.close();
      })();
      return closing;
    },
  };
}
