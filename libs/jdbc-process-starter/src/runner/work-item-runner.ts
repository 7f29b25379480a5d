/**
 * The worker runner: claims due items in batches with one `FOR UPDATE SKIP LOCKED` statement,
 * runs them (at most `concurrency` at a time), renews the leases of running items (one statement
 * per heartbeat for all of them), completes fenced by the claim token, retries with exponential
 * backoff, marks DEAD after the last attempt, reports DEAD items to their processes and deletes
 * SUCCESS items after their retention (default 7 days). Polling is the guarantee; `wake()` and an optional LISTEN
 * source cut the latency. The lease mechanics are those of `@fw/leased-queue`.
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
import { createLogger } from '@fw/core';
import {
  coalesce,
  DEFAULT_RETENTION_MILLIS,
  heartbeatIntervalMillis,
  makeLeaseKeeper,
  makePollLoop,
  isConnectionError,
  makeOutageTracker,
  makeRetentionSweeper,
  type LeaseKeeper,
  type RetentionSweeper,
} from '@fw/leased-queue';
import type { WorkerDto } from '@fw/process-api';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { makeFairClaimer } from '../fairness/fair-claimer';
import { fixedWorkLimits, type WorkLimitsSource } from '../fairness/work-limits';
import { makeWorkItemRepository, type ClaimedWorkItem } from '../repository/work-item-repository';
import { workItemDb } from '../schema/work-item-tables';
import { exponentialBackoff } from './backoff';
import { errorText, makeAttemptSettlement, type AttemptResult } from './attempt-settlement';
import {
  batchServiceHandler,
  resultOfOutcome,
  type BatchOutcomeLike,
  type BatchServiceLike,
  type WorkItemHandler,
} from './work-item-handler';

export type {
  StopResult,
  WakeSource,
  WorkItemRunner,
  WorkItemRunnerEvent,
  WorkItemRunnerEventType,
  WorkItemRunnerOptions,
  WorkItemRunnerStats,
} from './work-item-runner-types';
import type {
  StopResult,
  WorkItemRunner,
  WorkItemRunnerEvent,
  WorkItemRunnerEventType,
  WorkItemRunnerOptions,
  WorkItemRunnerStats,
} from './work-item-runner-types';

interface Running {
  item: ClaimedWorkItem;
  abort: AbortController;
  done: Promise<void>;
}

/**
 * A claimed batch as one batch per tenant: a tenant's few items then finish with their own
 * `runMany` call instead of waiting for the end of another tenant's large batch.
 */
function batchesByTenant(items: readonly ClaimedWorkItem[]): ClaimedWorkItem[][] {
  const byTenant = new Map<string | null, ClaimedWorkItem[]>();
  for (const item of items) {
    const batch = byTenant.get(item.tenant);
    if (batch) batch.push(item);
    else byTenant.set(item.tenant, [item]);
  }
  return [...byTenant.values()];
}

/** The runner's `limits` option as a source (none: an empty one). */
function limitsSourceOf(limits: WorkItemRunnerOptions<unknown>['limits']): WorkLimitsSource | undefined {
  if (limits === undefined) return undefined;
  return 'current' in limits && typeof limits.current === 'function'
    ? (limits as WorkLimitsSource)
    : fixedWorkLimits(limits as Parameters<typeof fixedWorkLimits>[0]);
}

/** Makes a runner; nothing happens until `start()`. */
export function makeWorkItemRunner<DB>(options: WorkItemRunnerOptions<DB>): WorkItemRunner {
  const given = options.handler ?? (options.batchService ? batchServiceHandler(options.batchService) : undefined);
  if (given === undefined) throw new TypeError('makeWorkItemRunner needs a handler or a batchService');
  const handler: WorkItemHandler = given;
  // A batch service that takes whole batches gets each claimed batch in one call (not with a custom handler).
  const runMany =
    options.handler === undefined && options.batchService?.runMany !== undefined
      ? options.batchService.runMany.bind(options.batchService)
      : undefined;
  const db = workItemDb(options.database);
  const repo = makeWorkItemRepository();
  const logger = options.logger ?? createLogger({ name: 'jdbc-process-starter' });
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? concurrency));
  const leaseMillis = Math.max(1, (options.leaseSeconds ?? 300) * 1000);
  const heartbeatMillis = heartbeatIntervalMillis(options.heartbeat, leaseMillis);
  const backoff = typeof options.backoff === 'function' ? options.backoff : exponentialBackoff(options.backoff);
  const pollMillis = Math.max(1, options.pollIntervalMillis ?? 1000);
  const minClaim = Math.min(concurrency, Math.max(1, Math.floor(options.minClaim ?? 1)));
  const completeOne = (item: ClaimedWorkItem) => repo.complete(db, item.id, item.claimToken);
  const complete =
    options.coalesceAcks === false
      ? completeOne
      : coalesce(async (items: ClaimedWorkItem[]) => {
          const done = await repo.completeMany(db, items);
          return items.map((i) => done.has(i.id));
        });
  const claimOptions = { workerId, leaseMillis, processTypes: options.processTypes };
  const fair = options.fair !== false;
  const claimer = fair ? makeFairClaimer({ limits: limitsSourceOf(options.limits) }) : { claim: repo.claim };
  if (options.onDead === undefined)
    logger.warn({ workerId }, 'no onDead reporter: DEAD work items will not be reported to their processes');

  const running = new Map<string, Running>();
  const counters = { claimed: 0, completed: 0, retried: 0, dead: 0, released: 0, staleAcks: 0 };
  let started = false;
  let stopWakeSource: (() => Promise<void>) | undefined;
  let lastSweep = 0;

  const emit = (event: Omit<WorkItemRunnerEvent, 'workerId'>): void => {
    if (options.onEvent === undefined) return;
    try {
      options.onEvent({ workerId, ...event });
    } catch (err) {
      logger.error({ err }, 'onEvent listener failed');
    }
  };
  const itemEvent = (type: WorkItemRunnerEventType, item: ClaimedWorkItem, error?: string) => {
    if (options.onEvent !== undefined)
      emit({ type, itemId: item.id, processId: item.processId, attempts: item.attempts, error });
  };

  // A lost database is said once (and once when it is back), not on every poll, beat or sweep.
  const outage = makeOutageTracker({
    isOutage: isConnectionError,
    onLost: (err) =>
      logger.warn(
        { err, workerId },
        'work-item runner lost its database: claims, heartbeats and sweeps retry quietly until it answers again',
      ),
    onBack: ({ millis, failures }) =>
      logger.info(
        { workerId, outageMillis: millis, failedAttempts: failures },
        `work-item runner has its database back after ${millis} ms (${failures} failed attempts)`,
      ),
  });

  // One heartbeat statement renews every running item's lease; a lost lease aborts that item.
  const keeper: LeaseKeeper<ClaimedWorkItem> | undefined =
    heartbeatMillis === undefined
      ? undefined
      : makeLeaseKeeper<ClaimedWorkItem>({
          intervalMillis: heartbeatMillis,
          renew: (items) => repo.heartbeatMany(db, items, leaseMillis),
          onLost(item) {
            const entry = running.get(item.id);
            if (entry === undefined || entry.item.claimToken !== item.claimToken || entry.abort.signal.aborted) return;
            logger.warn({ itemId: item.id, processId: item.processId }, 'lease lost while the item was running');
            itemEvent('lease-lost', item);
            entry.abort.abort(new Error('work item lease lost'));
          },
          onError: (err) => {
            if (!outage.failed(err)) logger.warn({ err, workerId }, 'heartbeat failed; retrying at the next beat');
          },
        });

  // Now and then (and in the background) delete SUCCESS items past their retention, in batches.
  const retentionMillis = Math.max(0, options.successRetentionMillis ?? DEFAULT_RETENTION_MILLIS);
  const retention: RetentionSweeper | undefined =
    retentionMillis === 0
      ? undefined
      : makeRetentionSweeper({
          intervalMillis: options.retentionIntervalMillis,
          batchSize: options.retentionBatchSize,
          purge: (limit) =>
            repo.purgeSucceeded(db, { olderThanMillis: retentionMillis, limit, processTypes: options.processTypes }),
          onPurged: (rows) =>
            logger.info({ workerId, rows, retentionMillis }, 'deleted SUCCESS work items past their retention'),
          onError: (err) => {
            if (!outage.failed(err))
              logger.warn({ err, workerId }, 'deleting old SUCCESS work items failed; retried at the next interval');
          },
        });

  const settlement = makeAttemptSettlement({
    db,
    repo,
    logger,
    leaseMillis,
    backoff,
    complete,
    counters,
    itemEvent,
    onDead: options.onDead,
    maxAttempts: options.maxAttempts,
  });

  const attemptOf = (item: ClaimedWorkItem, abort: AbortController) => ({
    attempt: item.attempts,
    maxAttempts: settlement.maxAttemptsOf(item),
    signal: abort.signal,
    previousError: item.lastError,
  });

  async function execute(item: ClaimedWorkItem, abort: AbortController): Promise<void> {
    if (await settlement.expiredOnLastAttempt(item)) return;
    keeper?.hold([item]);
    let attempt: AttemptResult;
    try {
      const { attempt: n, maxAttempts, signal, previousError } = attemptOf(item, abort);
      attempt = {
        failed: false,
        result: await handler(item.payload as WorkerDto, {
          itemId: item.id,
          attempt: n,
          maxAttempts,
          workerId,
          signal,
          previousError,
        }),
      };
    } catch (failure) {
      attempt = { failed: true, failure };
    } finally {
      // Before the acknowledgement, so that no renewal races it.
      await keeper?.release([item]);
    }
    await settlement.settle(item, attempt);
  }

  /**
   * A claimed batch handed to the batch service whole (`runMany`): one call for all its items, and
   * one statement completing every item that succeeded; the others are settled one by one.
   */
  async function executeBatch(
    entries: readonly Running[],
    runMany: NonNullable<BatchServiceLike['runMany']>,
  ): Promise<void> {
    // Items whose lease ran out on their last attempt are marked DEAD instead (rare: checked first).
    const overdue = entries.filter((e) => settlement.overdue(e.item));
    if (overdue.length > 0) await Promise.all(overdue.map((e) => settlement.expiredOnLastAttempt(e.item)));
    const live = overdue.length === 0 ? entries : entries.filter((e) => !overdue.includes(e));
    if (live.length === 0) return;
    const items = live.map((e) => e.item);
    keeper?.hold(items);
    let outcomes: BatchOutcomeLike[] | undefined;
    let thrown: unknown;
    try {
      outcomes = await runMany(live.map((e) => ({ message: e.item.payload, attempt: attemptOf(e.item, e.abort) })));
    } catch (err) {
      thrown = err;
    } finally {
      await keeper?.release(items);
    }
    const succeeded: ClaimedWorkItem[] = [];
    const others: Array<Promise<void>> = [];
    live.forEach(({ item }, i) => {
      let attempt: AttemptResult;
      try {
        if (outcomes === undefined) throw thrown;
        attempt = { failed: false, result: resultOfOutcome(outcomes[i], item) };
      } catch (failure) {
        attempt = { failed: true, failure };
      }
      if (!attempt.failed && !attempt.result) succeeded.push(item);
      else others.push(settlement.settle(item, attempt));
    });
    await settlement.completeAll(succeeded);
    await Promise.all(others);
  }

  /** Bookkeeping that failed after an attempt: the lease expires and the item is claimed again. */
  function bookkeepingFailed(item: ClaimedWorkItem, err: unknown): void {
    // A lost database is one outage report, not a line per running item.
    if (!outage.failed(err))
      logger.error(
        { err, itemId: item.id },
        'work item bookkeeping failed; the lease will expire and the item be claimed again',
      );
    itemEvent('error', item, errorText(err).message);
  }

  function launchBatch(items: readonly ClaimedWorkItem[], runMany: NonNullable<BatchServiceLike['runMany']>): void {
    const entries: Running[] = items.map((item) => ({ item, abort: new AbortController(), done: Promise.resolve() }));
    const done = executeBatch(entries, runMany)
      .catch((err) => {
        if (!outage.failed(err))
          logger.error(
            { err, items: items.length },
            'work item bookkeeping failed for a batch; the leases will expire and the items be claimed again',
          );
        for (const item of items) itemEvent('error', item, errorText(err).message);
      })
      .finally(() => {
        for (const item of items) running.delete(item.id);
        loop.wake();
      });
    for (const entry of entries) {
      entry.done = done;
      running.set(entry.item.id, entry);
    }
  }

  function launch(item: ClaimedWorkItem): void {
    const abort = new AbortController();
    const entry: Running = { item, abort, done: Promise.resolve() };
    entry.done = execute(item, abort)
      .catch((err) => bookkeepingFailed(item, err))
      .finally(() => {
        running.delete(item.id);
        loop.wake();
      });
    running.set(item.id, entry);
  }

  async function sweepUnreported(): Promise<void> {
    if (options.onDead === undefined || Date.now() - lastSweep < pollMillis) return;
    lastSweep = Date.now();
    for (const item of await repo.claimUnreported(db, { ...claimOptions, limit: batchSize })) {
      await settlement.report(item, item.lastError ?? 'work item is DEAD', null);
    }
  }

  /** One turn of the poll loop: claims when enough slots are free; true when the batch was full. */
  async function turn(): Promise<boolean> {
    retention?.poke();
    const free = concurrency - running.size;
    if (!(free >= minClaim || (free > 0 && running.size === 0))) return false;
    try {
      const want = Math.min(batchSize, free);
      const items = await claimer.claim(db, { ...claimOptions, limit: want });
      outage.succeeded();
      counters.claimed += items.length;
      for (const item of items) itemEvent('claimed', item);
      if (runMany !== undefined && items.length > 0)
        for (const batch of batchesByTenant(items)) launchBatch(batch, runMany);
      else for (const item of items) launch(item);
      const full = items.length === want;
      if (!full) await sweepUnreported();
      return full;
    } catch (err) {
      if (!outage.failed(err))
        logger.error({ err, workerId }, 'claiming work items failed; retrying after the poll interval');
      emit({ type: 'error', error: errorText(err).message });
      return false;
    }
  }

  const loop = makePollLoop({
    pollIntervalMillis: pollMillis,
    turn,
    // Items finishing together wake the loop once each: let them all settle first, so the next
    // claim sees every free slot.
    afterPause: () => new Promise<void>((resolve) => setImmediate(resolve)),
  });

  return {
    workerId,
    start() {
      if (started) return;
      started = true;
      loop.start();
      if (options.wakeSource) {
        options.wakeSource
          .subscribe(() => loop.wake())
          .then(
            (unsubscribe) => {
              if (loop.stopping) void unsubscribe();
              else stopWakeSource = unsubscribe;
            },
            (err) => logger.warn({ err }, 'wake source failed to start; polling only'),
          );
      }
    },
    wake: () => loop.wake(),
    async stop(stopOptions = {}) {
      await loop.stop();
      await stopWakeSource?.().catch(() => undefined);
      // No sweep starts from here on; one in progress ends after its batch (awaited at the end,
      // so that it never delays what `stop` counts as finished).
      const retentionStopped = retention?.stop();
      const before = running.size;
      const timeout = stopOptions.timeoutMillis ?? options.stopTimeoutMillis ?? 30_000;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...running.values()].map((r) => r.done)),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeout);
        }),
      ]);
      clearTimeout(timer);
      const unfinished = [...running.values()];
      let released = 0;
      for (const entry of unfinished) {
        entry.abort.abort(new Error('runner stopped'));
        try {
          await keeper?.release([entry.item]);
          if (await repo.release(db, entry.item.id, entry.item.claimToken)) {
            released++;
            counters.released++;
            itemEvent('released', entry.item);
          }
        } catch (err) {
          logger.error({ err, itemId: entry.item.id }, 'could not release a work item; its lease will expire');
        }
      }
      await retentionStopped;
      return { finished: before - unfinished.length, released };
    },
    stats: () => ({ inFlight: running.size, ...counters }),
  };
}
