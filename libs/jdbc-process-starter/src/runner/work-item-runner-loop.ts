/**
 * The runner as a leased loop (`makeLeasedLoop` of `@fw/leased-queue`): its claim turn, a
 * heartbeat whose lost lease aborts the running item, retention of SUCCESS items, the wake source,
 * and the running items as the background work `stop` drains and releases.
 */
import { makeLeasedLoop, type LeasedLoop } from '@fw/leased-queue';
import type { Kysely } from 'kysely';
import type { ClaimedWorkItem, WorkItemRepository } from '../repository/work-item-repository';
import type { WorkItemTables } from '../schema/work-item-tables';
import { errorText, type AttemptSettlement } from './attempt-settlement';
import type { RunnerConfig } from './runner-config';
import type { RunnerEvents } from './runner-events';
import type { RunningItems } from './running-items';
import { makeWorkItemClaimTurn } from './work-item-claim-turn';
import type { WorkItemRunnerOptions } from './work-item-runner-types';

export interface WorkItemRunnerLoopDeps {
  config: RunnerConfig;
  options: Pick<
    WorkItemRunnerOptions<unknown>,
    'processTypes' | 'onDead' | 'retentionIntervalMillis' | 'retentionBatchSize' | 'wakeSource'
  >;
  db: Kysely<WorkItemTables>;
  repo: WorkItemRepository;
  running: RunningItems;
  settlement: AttemptSettlement;
  events: RunnerEvents;
  counters: { claimed: number };
}

/** Makes the runner's lifecycle; nothing runs until its `start()`. */
export function makeWorkItemRunnerLoop(deps: WorkItemRunnerLoopDeps): LeasedLoop<ClaimedWorkItem> {
  const { config, options, db, repo, running, events } = deps;
  const { logger, workerId, leaseMillis, retentionMillis } = config;

  /** A lost lease aborts the item it belongs to. */
  function leaseLost(item: ClaimedWorkItem): void {
    const entry = running.get(item.id);
    if (entry === undefined || entry.item.claimToken !== item.claimToken || entry.abort.signal.aborted) return;
    logger.warn({ itemId: item.id, processId: item.processId }, 'lease lost while the item was running');
    events.itemEvent('lease-lost', item);
    entry.abort.abort(new Error('work item lease lost'));
  }

  const loop: LeasedLoop<ClaimedWorkItem> = makeLeasedLoop<ClaimedWorkItem>({
    subject: 'work-item runner',
    workerId,
    logger,
    pollIntervalMillis: config.pollMillis,
    turn: makeWorkItemClaimTurn({
      ...config,
      db,
      repo,
      running,
      settlement: deps.settlement,
      outage: { succeeded: () => loop.outage.succeeded() },
      itemEvent: events.itemEvent,
      counters: deps.counters,
      claimOptions: { workerId, leaseMillis, processTypes: options.processTypes },
      reportsDead: options.onDead !== undefined,
    }),
    turnFailed: {
      message: 'claiming work items failed; retrying after the poll interval',
      notify: (err) => events.emit({ type: 'error', error: errorText(err).message }),
    },
    // Items finishing together wake the loop once each: let them all settle first, so the next
    // claim sees every free slot.
    afterPause: () => new Promise<void>((resolve) => setImmediate(resolve)),
    // One heartbeat statement renews every running item's lease; a lost lease aborts that item.
    heartbeat: {
      intervalMillis: config.heartbeatMillis,
      renew: (items) => repo.heartbeatMany(db, items, leaseMillis),
      onLost: leaseLost,
      failureMessage: 'heartbeat failed; retrying at the next beat',
    },
    // Now and then (and in the background) delete SUCCESS items past their retention, in batches.
    retention: {
      retentionMillis,
      intervalMillis: options.retentionIntervalMillis,
      batchSize: options.retentionBatchSize,
      purge: (limit) =>
        repo.purgeSucceeded(db, { olderThanMillis: retentionMillis, limit, processTypes: options.processTypes }),
      purgedMessage: 'deleted SUCCESS work items past their retention',
      failureMessage: 'deleting old SUCCESS work items failed; retried at the next interval',
    },
    wakeSource: options.wakeSource,
    backgroundWork: running,
  });
  return loop;
}
