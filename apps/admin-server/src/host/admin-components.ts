/**
 * The parts of the admin server that do the work: the process manager (database definitions,
 * outbox and its dispatcher, a JDBC work-item starter that only enqueues), the trigger service,
 * crontabs and the cron scheduler, the history sweeper and, with the example workers, a JDBC
 * work-item runner in this process. Nothing here starts a timer; the server's `listen` does.
 */
import type { Database, Logger } from '@fw/core';
import {
  makeSinkFailureReporter,
  makeWorkItemRunner,
  workLimitsOfConfigurator,
  makeWorkItemStarter,
  type WorkItemRunner,
  type WorkItemStarter,
} from '@fw/jdbc-process-starter';
import type { ProcessConfigurator, ProcessDef } from '@fw/process-api';
import type { FwMetrics } from '@fw/telemetry';
import {
  HISTORY_SWEEPER_LEASE,
  makeAuditStore,
  makeHistoryRetentionStore,
  makeHistorySweeper,
  retentionSettingsFromEnv,
  type HistorySweeper,
} from '@fw/process-management';
import {
  makeDatabaseProcessConfigurator,
  makeProcessEventHandlers,
  makeProcessManager,
  processDb,
  type DatabaseProcessConfigurator,
  type ProcessManager,
} from '@fw/process-service';
import { makeBatchService, makeManagerEventSink } from '@fw/process-utils';
import {
  makeCronScheduler,
  makeCrontabStore,
  makeSchedulerLease,
  makeTriggerService,
  processCreateDispatch,
  type CronScheduler,
  type CrontabStore,
  type TriggerService,
} from '@fw/trigger';
import type { AdminServerConfig } from '../config/admin-config';
import { wordCountWorkers } from '../example/word-count-workers';

/** What the components are made of: the server's options after defaults. */
export interface AdminComponentsDeps {
  config: AdminServerConfig;
  database: Database;
  /** This instance's identity in the scheduler's and sweeper's leases and the outbox. */
  ownerId: string;
  /** Whether the example workers run in this process. */
  exampleWorkers: boolean;
  schedulerLeaseSeconds?: number;
  schedulerRenewMillis?: number;
  outboxPollMillis?: number;
  historyLeaseSeconds?: number;
  /** The server's series: the engine, the runner and the trigger service record into it. */
  metrics: FwMetrics;
  logger: Logger;
}

export interface AdminComponents {
  configurator: DatabaseProcessConfigurator;
  manager: ProcessManager;
  triggerService: TriggerService;
  crontabs: CrontabStore;
  scheduler: CronScheduler;
  /** Undefined when the history sweep interval is off. */
  historySweeper: HistorySweeper | undefined;
  /** Undefined without the example workers. */
  runner: WorkItemRunner | undefined;
}

/**
 * The history sweeper: removes finished trees past their retention, on one admin server of the
 * database at a time (a lease row, as the cron scheduler's). Undefined when the interval is off.
 */
function makeAdminHistorySweeper(
  deps: AdminComponentsDeps,
  definitions: () => Promise<readonly ProcessDef[]>,
): HistorySweeper | undefined {
  const { config, database, logger } = deps;
  const history = config.history ?? { retention: retentionSettingsFromEnv({}), sweepIntervalMillis: 60_000 };
  if (history.sweepIntervalMillis === undefined) return undefined;
  const lease = makeSchedulerLease({
    database,
    name: HISTORY_SWEEPER_LEASE,
    ownerId: deps.ownerId,
    leaseSeconds: deps.historyLeaseSeconds ?? 60,
  });
  return makeHistorySweeper({
    store: makeHistoryRetentionStore(database),
    audit: makeAuditStore(database.db),
    lease,
    settings: history.retention,
    definitions,
    intervalMillis: history.sweepIntervalMillis,
    ...(history.sweepDutyCycle === undefined ? {} : { dutyCycle: history.sweepDutyCycle }),
    logger,
  });
}

/**
 * The example workers' runner, woken whenever the starter enqueues a work item; the definitions'
 * concurrency and rate limits hold for it as for any worker host.
 */
function makeExampleRunner(
  deps: AdminComponentsDeps,
  manager: ProcessManager,
  starter: WorkItemStarter,
  configurator: Pick<ProcessConfigurator, 'list'>,
): WorkItemRunner {
  const { database, logger } = deps;
  const sink = makeManagerEventSink(manager);
  const runner = makeWorkItemRunner({
    database,
    batchService: makeBatchService({ workers: wordCountWorkers(), sink, logger }),
    onDead: makeSinkFailureReporter(sink),
    concurrency: 4,
    pollIntervalMillis: 500,
    limits: workLimitsOfConfigurator(configurator),
    logger,
    metrics: deps.metrics,
  });
  starter.onEnqueued(() => runner.wake());
  return runner;
}

/** Makes the components over `deps.database` (its schema must be in place). */
export function makeAdminComponents(deps: AdminComponentsDeps): AdminComponents {
  const { database, ownerId, logger } = deps;
  const db = processDb(database);
  const configurator = makeDatabaseProcessConfigurator({ db });
  const starter = makeWorkItemStarter();
  const manager = makeProcessManager({
    db,
    configurator,
    workerStarter: starter,
    logger,
    metrics: deps.metrics,
    outbox: {
      enabled: true,
      runDispatcher: true,
      pollIntervalMillis: deps.outboxPollMillis ?? 1000,
      workerId: ownerId,
    },
  });
  const triggerService = makeTriggerService({
    database,
    dispatch: processCreateDispatch(makeProcessEventHandlers(manager)),
    logger,
    metrics: deps.metrics,
  });
  const crontabs = makeCrontabStore(database);
  const scheduler = makeCronScheduler({
    database,
    crontabs,
    triggerService,
    ownerId,
    logger,
    ...(deps.schedulerLeaseSeconds === undefined ? {} : { leaseSeconds: deps.schedulerLeaseSeconds }),
    ...(deps.schedulerRenewMillis === undefined ? {} : { renewIntervalMillis: deps.schedulerRenewMillis }),
  });
  const historySweeper = makeAdminHistorySweeper(deps, () => configurator.list());
  const runner = deps.exampleWorkers ? makeExampleRunner(deps, manager, starter, configurator) : undefined;
  return { configurator, manager, triggerService, crontabs, scheduler, historySweeper, runner };
}
