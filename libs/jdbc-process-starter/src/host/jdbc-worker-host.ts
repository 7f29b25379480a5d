/**
 * The durable worker host in one call: the process manager in outbox mode with its dispatcher,
 * the work-item starter, a work-item runner over the application's workers (through the batch
 * service of `@fw/process-utils`), one recovery time for both leases, and one `stop()` that
 * takes all of it down in the right order — or `stopOnSignals()`, which does it on SIGTERM/SIGINT.
 *
 * @example
 * const host = makeJdbcWorkerHost({ database, configurator, workers: [new SplitText(), new CountChunk()] });
 * host.start();
 * host.stopOnSignals({ drainMillis: 20_000 });          // SIGTERM: drain, give leases back, close, exit
 * await host.manager.createProcess({ processDefName: 'word-count', args: { text } });
 */
import { createLogger, installGracefulShutdown, type Database, type Logger } from '@fw/core';
import type { ProcessConfigurator } from '@fw/process-api';
import { makeProcessManager, processDb, type ProcessManager, type ProcessOutboxSettings } from '@fw/process-service';
import { makeBatchService, makeManagerEventSink, type Worker } from '@fw/process-utils';
import type { FwMetrics, MetricsProfile, MetricsServer } from '@fw/telemetry';
import { workLimitsOfConfigurator } from '../fairness/work-limits';
import { makeSinkFailureReporter } from '../reporting/failure-reporter';
import {
  makeWorkItemRunner,
  type StopResult,
  type WorkItemRunner,
  type WorkItemRunnerOptions,
} from '../runner/work-item-runner';
import { makeWorkItemStarter, type WorkItemStarter } from '../starter/work-item-starter';
import { makeWorkerHostMetrics } from './worker-host-metrics';

/** Default of {@link JdbcWorkerHostOptions.recoverySeconds}. */
export const DEFAULT_RECOVERY_SECONDS = 60;
/** Default of the drain in {@link JdbcWorkerHost.stop}. */
export const DEFAULT_DRAIN_MILLIS = 20_000;

export interface JdbcWorkerHostOptions {
  /**
   * The process database (`fw_process*` tables applied with `fw-migrate`). The host runs its
   * transactions with `idle_in_transaction_session_timeout` and `lock_timeout` at most
   * `recoverySeconds` (`Database.capTimeouts`), unless they were given to `createDatabase`
   * explicitly: a host frozen mid-transaction (SIGSTOP, a long GC pause, a VM freeze) then holds
   * its row locks no longer than its claims, and the others move on within one lease.
   */
  database: Database;
  /** Where process definitions come from (`makeJsonProcessConfigurator`, `makeDatabaseProcessConfigurator`). */
  configurator: ProcessConfigurator;
  /** The workers this host runs; an empty list makes a host that only creates processes and dispatches. */
  workers: readonly Worker[];
  /** Work items run at the same time by this host (default 8). */
  concurrency?: number;
  /**
   * How long the work of a host that died (kill -9, lost machine) waits before another host takes
   * it over, in seconds (default 60): the lease of a claimed work item and of a claimed outbox
   * command. Leases are renewed every third of it while the work runs, so a step may take longer.
   * A host that stops cleanly gives its leases back at once. `runner.leaseSeconds` and
   * `outbox.lockSeconds` (`fw.process.outbox.lock-seconds`) still win when given; the session
   * timeouts follow the shortest of the three.
   */
  recoverySeconds?: number;
  /** Attempts of a work item before it is DEAD and its failure reported (default 5). */
  maxAttempts?: number;
  /** Close `database` in `stop()` (default true: the host owns it). */
  closeDatabase?: boolean;
  /** Further runner settings (see `makeWorkItemRunner`). */
  runner?: Partial<Omit<WorkItemRunnerOptions<unknown>, 'database' | 'handler' | 'batchService' | 'onDead'>>;
  /** Further outbox settings (`fw.process.outbox.*`; outbox mode is always on here). */
  outbox?: Omit<ProcessOutboxSettings, 'enabled'>;
  logger?: Logger;
  /**
   * Where the manager and the runner record the fw_* series (`makeFwMetrics()` of
   * `@fw/telemetry`). Absent: the host makes its own when a metrics port is set, else records nothing.
   */
  metrics?: FwMetrics;
  /**
   * Port of the host's `GET /metrics` (default `FW_METRICS_PORT`; neither: no server). Served from
   * `start()` to `stop()`, with the queue gauges read from `database` at most every 5 seconds.
   */
  metricsPort?: number;
  /** Access rule of `GET /metrics`: `production` (default) needs `FW_METRICS_TOKEN`; `dev` serves it openly. */
  metricsProfile?: MetricsProfile;
}

export interface JdbcWorkerHostStopResult extends StopResult {
  /** Milliseconds the whole stop took. */
  millis: number;
}

export interface JdbcWorkerHost {
  readonly manager: ProcessManager;
  readonly runner: WorkItemRunner;
  readonly starter: WorkItemStarter;
  /** What the host records into (undefined: no metrics). */
  readonly metrics: FwMetrics | undefined;
  /** The `GET /metrics` server once listening (undefined without a metrics port, or before `start()`). */
  metricsServer(): Promise<MetricsServer | undefined>;
  /** Starts claiming work items (the outbox dispatcher runs from construction). Idempotent. */
  start(): void;
  /**
   * Stops everything, in order: no new claims; running items get up to `drainMillis` (default
   * 20 s) to finish, the rest are aborted and released at once (no waiting for their lease); the
   * outbox dispatcher finishes the commands it holds and stops; the database closes. Nothing of
   * the host then keeps the process alive. Idempotent: later calls return the first result.
   */
  stop(options?: { drainMillis?: number }): Promise<JdbcWorkerHostStopResult>;
  /**
   * On SIGTERM/SIGINT: `stop()`, then the process exits 0 (1 when stopping failed or took longer
   * than the drain plus 10 s). Returns the function that runs the same stop without a signal.
   */
  stopOnSignals(options?: { drainMillis?: number; signals?: NodeJS.Signals[] }): () => Promise<void>;
}

/** Composes a durable worker host over `database`; see {@link JdbcWorkerHost}. */
export function makeJdbcWorkerHost(options: JdbcWorkerHostOptions): JdbcWorkerHost {
  const logger = options.logger ?? createLogger({ name: 'worker-host' });
  const recoverySeconds = options.recoverySeconds ?? DEFAULT_RECOVERY_SECONDS;
  if (!(Number.isFinite(recoverySeconds) && recoverySeconds > 0))
    throw new RangeError(
      `recoverySeconds must be a positive number of seconds, got ${String(options.recoverySeconds)}`,
    );
  const leaseMillis = Math.max(
    1,
    Math.round(
      1000 *
        Math.min(recoverySeconds, options.runner?.leaseSeconds ?? Infinity, options.outbox?.lockSeconds ?? Infinity),
    ),
  );
  // Everything the host runs goes through the capped handle; `options.database` is still the one closed.
  const database = options.database.capTimeouts?.(leaseMillis) ?? options.database;
  const starter = makeWorkItemStarter({ maxAttempts: options.maxAttempts ?? 5 });
  const hostMetrics = makeWorkerHostMetrics({ ...options, database, logger });
  const { metrics } = hostMetrics;
  const manager = makeProcessManager({
    ...(metrics ? { metrics } : {}),
    db: processDb(database),
    configurator: options.configurator,
    workerStarter: starter,
    logger,
    outbox: {
      lockSeconds: recoverySeconds,
      ...options.outbox,
      enabled: true,
      runDispatcher: options.outbox?.runDispatcher ?? true,
    },
  });
  const sink = makeManagerEventSink(manager);
  const runner = makeWorkItemRunner({
    concurrency: options.concurrency ?? 8,
    leaseSeconds: recoverySeconds,
    logger,
    // The definitions' concurrency and rate limits, held across every host claiming their types.
    limits: workLimitsOfConfigurator(options.configurator),
    ...(metrics ? { metrics } : {}),
    ...options.runner,
    database,
    batchService: makeBatchService({ workers: options.workers, sink, logger }),
    onDead: makeSinkFailureReporter(sink),
  });
  // Work enqueued by this host is claimed at once, without waiting for the poll.
  starter.onEnqueued(() => runner.wake());

  let stopping: Promise<JdbcWorkerHostStopResult> | undefined;
  const stop = (stopOptions: { drainMillis?: number } = {}): Promise<JdbcWorkerHostStopResult> => {
    stopping ??= (async () => {
      const started = Date.now();
      const drained = await runner.stop({ timeoutMillis: stopOptions.drainMillis ?? DEFAULT_DRAIN_MILLIS });
      await manager.close();
      await hostMetrics.close();
      if (options.closeDatabase ?? true) await options.database.close();
      const result = { ...drained, millis: Date.now() - started };
      logger.info(result, 'worker host stopped');
      return result;
    })();
    return stopping;
  };

  return {
    manager,
    runner,
    starter,
    metrics,
    metricsServer: () => hostMetrics.server(),
    start: () => {
      hostMetrics.start();
      runner.start();
    },
    stop,
    stopOnSignals(signalOptions = {}) {
      const drainMillis = signalOptions.drainMillis ?? DEFAULT_DRAIN_MILLIS;
      return installGracefulShutdown({
        logger,
        steps: [async () => void (await stop({ drainMillis }))],
        timeoutMillis: drainMillis + 10_000,
        ...(signalOptions.signals ? { signals: signalOptions.signals } : {}),
      });
    },
  };
}
