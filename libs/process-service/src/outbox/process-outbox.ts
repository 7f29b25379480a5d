/**
 * The outbox mode of the manager (`fw.process.outbox.enabled`): commands collected during a
 * transaction are written to `fw_process_outbox` (one multi-row insert) before it commits, and the
 * local dispatcher is woken after the commit. The dispatcher runs the handlers of
 * {@link makeProcessCommandHandlers}.
 *
 * @example
 * const manager = makeProcessManager({ db, configurator, workerStarter, outbox: { enabled: true, pollIntervalMillis: 200 } });
 * // manager.outbox.dispatcher is polling; manager.close() stops it.
 */
import type { Logger } from '@fw/core';
import {
  makeOutboxDispatcher,
  makeOutboxWriter,
  resolveOutboxOptions,
  type OutboxBackoff,
  type OutboxDispatcher,
  type OutboxDispatcherOptions,
  type OutboxEvent,
  type OutboxExecutionContext,
  type OutboxOptions,
} from '@fw/process-outbox';
import type { WorkerDto } from '@fw/process-api';
import type { ProcessEngine, TxContext } from '../manager/process-engine';
import type { ProcessRepository } from '../repository/process-repository';
import type { ProcessDb, ProcessTables } from '../repository/process-tables';
import { makeProcessCommandHandlers } from './process-command-handlers';

/** `fw.process.outbox.*` (see `outboxOptionsFromProperties`) plus dispatcher tuning. */
export interface ProcessOutboxSettings extends Partial<OutboxOptions> {
  /** Most commands claimed per statement (default 500). */
  batchSize?: number;
  /** Command groups executed at the same time by one dispatcher (default 2). */
  concurrency?: number;
  /** Retry delays (default base 1 s, doubling, at most 300 s). */
  backoff?: OutboxBackoff;
  /** Wait after a wake-up before claiming, to group concurrent commits (default 10 ms). */
  wakeDelayMillis?: number;
  /** Receipt consumer name (default `process-service`). */
  consumer?: string;
  onEvent?: (event: OutboxEvent) => void;
  /** Lease renewal of claimed commands waiting for their group (default on, every lock-seconds / 3). */
  heartbeat?: OutboxDispatcherOptions<ProcessTables>['heartbeat'];
  /** Least time between two retention sweeps of a dispatcher (default 60 000 ms). */
  retentionIntervalMillis?: number;
  /** DONE commands deleted per retention statement (default 1000). */
  retentionBatchSize?: number;
}

export interface ProcessOutbox {
  /** The resolved properties. */
  readonly options: OutboxOptions;
  /** This instance's dispatcher when `runDispatcher` (started), else undefined. */
  readonly dispatcher: OutboxDispatcher | undefined;
  /**
   * Another dispatcher over the same handlers (not started), e.g. with a database pool of its own
   * or other options (tests, tools, extra throughput).
   */
  makeDispatcher(overrides?: Partial<ProcessOutboxSettings> & { db?: ProcessDb }): OutboxDispatcher;
  /** Writes the commands collected in `ctx` with its transaction (internal). */
  flush(ctx: TxContext): Promise<void>;
  /** Wakes the local dispatcher. */
  wake(): void;
  /** Stops the local dispatcher. */
  stop(): Promise<void>;
}

export interface ProcessOutboxDeps {
  db: ProcessDb;
  settings: ProcessOutboxSettings;
  logger: Logger;
  engine: ProcessEngine;
  repo: ProcessRepository;
  prepare(): Promise<void>;
  contextOf(ctx: OutboxExecutionContext<ProcessTables>): TxContext;
  /** See `ProcessCommandDeps.deliverWorker`. */
  deliverWorker?: (worker: WorkerDto) => Promise<void>;
}

export function makeProcessOutbox(deps: ProcessOutboxDeps): ProcessOutbox {
  const options = resolveOutboxOptions(outboxProperties(deps.settings));
  const writer = makeOutboxWriter({ maxAttempts: options.maxAttempts });
  let dispatcher: OutboxDispatcher | undefined;

  async function flush(ctx: TxContext): Promise<void> {
    const commands = ctx.commands;
    if (!commands || commands.length === 0) return;
    ctx.commands = [];
    await writer.enqueue<ProcessTables>(ctx.trx, commands);
    ctx.afterCommit(() => dispatcher?.wake());
  }

  const handlers = makeProcessCommandHandlers({
    engine: deps.engine,
    repo: deps.repo,
    prepare: deps.prepare,
    contextOf: deps.contextOf,
    flush,
    deliverWorker: deps.deliverWorker,
  });
  const makeDispatcher = (overrides: Partial<ProcessOutboxSettings> & { db?: ProcessDb } = {}): OutboxDispatcher =>
    makeOutboxDispatcher(dispatcherOptions(deps, handlers, options, overrides));

  if (options.runDispatcher) {
    dispatcher = makeDispatcher();
    dispatcher.start();
  }

  return {
    options,
    get dispatcher() {
      return dispatcher;
    },
    makeDispatcher,
    flush,
    wake: () => dispatcher?.wake(),
    stop: async () => {
      await dispatcher?.stop();
    },
  };
}

/** The `fw.process.outbox.*` properties of `settings`, without the dispatcher tuning. */
function outboxProperties(settings: Partial<ProcessOutboxSettings>): Partial<OutboxOptions> {
  const {
    batchSize: _batchSize,
    concurrency: _concurrency,
    backoff: _backoff,
    consumer: _consumer,
    onEvent: _onEvent,
    wakeDelayMillis: _wakeDelayMillis,
    heartbeat: _heartbeat,
    retentionIntervalMillis: _retentionIntervalMillis,
    retentionBatchSize: _retentionBatchSize,
    ...properties
  } = settings;
  return properties;
}

/** A dispatcher's options: `overrides` first, then the manager's settings, then the defaults. */
function dispatcherOptions(
  deps: ProcessOutboxDeps,
  handlers: OutboxDispatcherOptions<ProcessTables>['handlers'],
  options: OutboxOptions,
  overrides: Partial<ProcessOutboxSettings> & { db?: ProcessDb },
): OutboxDispatcherOptions<ProcessTables> {
  const settings = deps.settings;
  const { db, ...tuning } = overrides;
  return {
    db: db ?? deps.db,
    handlers,
    options: { ...options, ...outboxProperties(tuning) },
    consumer: tuning.consumer ?? settings.consumer ?? 'process-service',
    batchSize: tuning.batchSize ?? settings.batchSize,
    concurrency: tuning.concurrency ?? settings.concurrency,
    backoff: tuning.backoff ?? settings.backoff,
    onEvent: tuning.onEvent ?? settings.onEvent,
    wakeDelayMillis: tuning.wakeDelayMillis ?? settings.wakeDelayMillis,
    heartbeat: tuning.heartbeat ?? settings.heartbeat,
    retentionIntervalMillis: tuning.retentionIntervalMillis ?? settings.retentionIntervalMillis,
    retentionBatchSize: tuning.retentionBatchSize ?? settings.retentionBatchSize,
    logger: deps.logger,
  };
}
