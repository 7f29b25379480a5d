/**
 * The worker runner: claims due items in batches with one `FOR UPDATE SKIP LOCKED` statement,
 * runs them (at most `concurrency` at a time), renews the leases of running items (one statement
 * per heartbeat for all of them), completes fenced by the claim token, retries with exponential
 * backoff, marks DEAD after the last attempt, reports DEAD items to their processes and deletes
 * SUCCESS items after their retention (default 7 days). Polling is the guarantee; `wake()` and an optional LISTEN
 * source cut the latency. The lease mechanics and the lifecycle (poll loop, heartbeat, retention,
 * outage reports, stop order) are those of `@fw/leased-queue` (`makeLeasedLoop`).
 *
 * @example
 * const runner = makeWorkItemRunner({
 *   database,                                        // createDatabase(...) of @fw/core
 *   batchService,                                    // makeBatchService(...) of @fw/process-utils
 *   onDead: makeSinkFailureReporter(sink),
 *   concurrency: 8,
 * });
 * runner.start();
 * process.on('SIGTERM', () => void runner.stop({ timeoutMillis: 20_000 }));
 */
import { coalesce } from '@fw/leased-queue';
import { makeWorkItemRepository, type ClaimedWorkItem } from '../repository/work-item-repository';
import { workItemDb } from '../schema/work-item-tables';
import { makeAttemptSettlement } from './attempt-settlement';
import { resolveRunnerConfig } from './runner-config';
import { makeRunnerEvents } from './runner-events';
import { makeWorkItemEventRecorder } from './work-item-metrics';
import { makeRunningItems } from './running-items';
import { makeWorkItemExecution } from './work-item-execution';
import { makeWorkItemRunnerLoop } from './work-item-runner-loop';

export type {
  StopResult,
  WakeSource,
  WorkItemRunner,
  WorkItemRunnerEvent,
  WorkItemRunnerEventType,
  WorkItemRunnerOptions,
  WorkItemRunnerStats,
} from './work-item-runner-types';
import type { WorkItemRunner, WorkItemRunnerOptions } from './work-item-runner-types';

/** Makes a runner; nothing happens until `start()`. */
export function makeWorkItemRunner<DB>(options: WorkItemRunnerOptions<DB>): WorkItemRunner {
  const db = workItemDb(options.database);
  const repo = makeWorkItemRepository();
  const config = resolveRunnerConfig(options, repo);
  const { logger, workerId, leaseMillis } = config;
  const completeOne = (item: ClaimedWorkItem) => repo.complete(db, item.id, item.claimToken);
  const complete =
    options.coalesceAcks === false
      ? completeOne
      : coalesce(async (items: ClaimedWorkItem[]) => {
          const done = await repo.completeMany(db, items);
          return items.map((i) => done.has(i.id));
        });
  if (options.onDead === undefined)
    logger.warn({ workerId }, 'no onDead reporter: DEAD work items will not be reported to their processes');

  const counters = { claimed: 0, completed: 0, retried: 0, dead: 0, released: 0, staleAcks: 0 };
  const events = makeRunnerEvents({ workerId, logger, onEvent: options.onEvent });
  const { emit } = events;
  const record = makeWorkItemEventRecorder(options.metrics, leaseMillis);
  const itemEvent: typeof events.itemEvent =
    record === undefined
      ? events.itemEvent
      : (type, item, error) => {
          record(type, item);
          events.itemEvent(type, item, error);
        };
  const settlement = makeAttemptSettlement({
    db,
    repo,
    logger,
    leaseMillis,
    backoff: config.backoff,
    complete,
    counters,
    itemEvent,
    onDead: options.onDead,
    maxAttempts: options.maxAttempts,
  });
  // `loop` (the lifecycle, made below) is called by these parts only once the runner runs.
  const leases = {
    hold: (items: Iterable<ClaimedWorkItem>) => loop.hold(items),
    release: (items: Iterable<ClaimedWorkItem>) => loop.release(items),
  };
  const execution = makeWorkItemExecution({ handler: config.handler, settlement, leases, workerId });
  const running = makeRunningItems({
    execution,
    leases,
    db,
    repo,
    logger,
    itemEvent,
    outageFailed: (err) => loop.outage.failed(err),
    wake: () => loop.wake(),
    counters,
  });

  const loop = makeWorkItemRunnerLoop({
    config,
    options,
    db,
    repo,
    running,
    settlement,
    events: { emit, itemEvent },
    counters,
  });

  return {
    workerId,
    start: () => loop.start(),
    wake: () => loop.wake(),
    stop: (stopOptions = {}) =>
      loop.stop({ timeoutMillis: stopOptions.timeoutMillis ?? options.stopTimeoutMillis ?? 30_000 }),
    stats: () => ({ inFlight: running.size, ...counters }),
  };
}
