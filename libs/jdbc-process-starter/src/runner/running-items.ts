/**
 * The items a runner has launched and not yet settled: each runs in the background (one by one,
 * or a claimed tenant batch in one `runMany` call); a finished one frees its slot and wakes the
 * poll loop. At shutdown the unfinished ones are aborted and released back to PENDING.
 */
import type { Logger } from '@fw/core';
import type { BackgroundWork } from '@fw/leased-queue';
import type { Kysely } from 'kysely';
import type { ClaimedWorkItem, WorkItemRepository } from '../repository/work-item-repository';
import type { WorkItemTables } from '../schema/work-item-tables';
import { errorText } from './attempt-settlement';
import type { RunMany } from './runner-config';
import type { RunnerEvents } from './runner-events';
import type { HeldLeases, RunningItem, WorkItemExecution } from './work-item-execution';

export interface RunningItemsDeps {
  execution: WorkItemExecution;
  leases: HeldLeases;
  db: Kysely<WorkItemTables>;
  repo: Pick<WorkItemRepository, 'release'>;
  logger: Logger;
  itemEvent: RunnerEvents['itemEvent'];
  /** Counts `err` into the database outage; false when it is not one (then it is logged here). */
  outageFailed(err: unknown): boolean;
  /** A slot is free: the poll loop may claim again. */
  wake(): void;
  counters: { released: number };
}

export interface RunningItems extends BackgroundWork {
  /** Runs one item in the background. */
  launch(item: ClaimedWorkItem): void;
  /** Runs the items of one tenant's batch in one `runMany` call, in the background. */
  launchBatch(items: readonly ClaimedWorkItem[], runMany: RunMany): void;
  /** The running item with this id, if any (the heartbeat aborts it when its lease is lost). */
  get(id: string): RunningItem | undefined;
}

type FailureDeps = Pick<RunningItemsDeps, 'logger' | 'itemEvent' | 'outageFailed'>;

/** Bookkeeping that failed after an attempt: the lease expires and the item is claimed again. */
function bookkeepingFailed(deps: FailureDeps, item: ClaimedWorkItem, err: unknown): void {
  const { logger, itemEvent } = deps;
  // A lost database is one outage report, not a line per running item.
  if (!deps.outageFailed(err))
    logger.error(
      { err, itemId: item.id },
      'work item bookkeeping failed; the lease will expire and the item be claimed again',
    );
  itemEvent('error', item, errorText(err).message);
}

/** The same for a batch run with `runMany`. */
function batchBookkeepingFailed(deps: FailureDeps, items: readonly ClaimedWorkItem[], err: unknown): void {
  const { logger, itemEvent } = deps;
  if (!deps.outageFailed(err))
    logger.error(
      { err, items: items.length },
      'work item bookkeeping failed for a batch; the leases will expire and the items be claimed again',
    );
  for (const item of items) itemEvent('error', item, errorText(err).message);
}

export function makeRunningItems(deps: RunningItemsDeps): RunningItems {
  const { execution, logger, itemEvent } = deps;
  const running = new Map<string, RunningItem>();

  function launchBatch(items: readonly ClaimedWorkItem[], runMany: RunMany): void {
    const entries: RunningItem[] = items.map((item) => ({
      item,
      abort: new AbortController(),
      done: Promise.resolve(),
    }));
    const done = execution
      .executeBatch(entries, runMany)
      .catch((err) => batchBookkeepingFailed(deps, items, err))
      .finally(() => {
        for (const item of items) running.delete(item.id);
        deps.wake();
      });
    for (const entry of entries) {
      entry.done = done;
      running.set(entry.item.id, entry);
    }
  }

  function launch(item: ClaimedWorkItem): void {
    const abort = new AbortController();
    const entry: RunningItem = { item, abort, done: Promise.resolve() };
    entry.done = execution
      .execute(item, abort)
      .catch((err) => bookkeepingFailed(deps, item, err))
      .finally(() => {
        running.delete(item.id);
        deps.wake();
      });
    running.set(item.id, entry);
  }

  async function abandon(): Promise<{ unfinished: number; released: number }> {
    const unfinished = [...running.values()];
    let released = 0;
    for (const entry of unfinished) {
      entry.abort.abort(new Error('runner stopped'));
      try {
        await deps.leases.release([entry.item]);
        if (await deps.repo.release(deps.db, entry.item.id, entry.item.claimToken)) {
          released++;
          deps.counters.released++;
          itemEvent('released', entry.item);
        }
      } catch (err) {
        logger.error({ err, itemId: entry.item.id }, 'could not release a work item; its lease will expire');
      }
    }
    return { unfinished: unfinished.length, released };
  }

  return {
    launch,
    launchBatch,
    get size() {
      return running.size;
    },
    settled: () => Promise.all([...running.values()].map((r) => r.done)),
    abandon,
    get: (id) => running.get(id),
  };
}
