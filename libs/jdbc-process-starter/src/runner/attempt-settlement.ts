/**
 * What the runner does once an attempt is over (or could not start): SUCCESS, a retry after its
 * backoff, or DEAD and the report to the process; every write fenced by the item's claim token, a
 * refused one counted as a stale acknowledgement. Shared by the one-item path and the batch path
 * of `makeWorkItemRunner`, which differ only in how the handler is called.
 *
 * @example
 * const settlement = makeAttemptSettlement({ db, repo, logger, leaseMillis, backoff, complete, counters, itemEvent, onDead });
 * if (!(await settlement.expiredOnLastAttempt(item))) await settlement.settle(item, { failed: false, result: undefined });
 */
import type { Logger } from '@fw/core';
import type { WorkerDto } from '@fw/process-api';
import type { Kysely } from 'kysely';
import type { ClaimedWorkItem, WorkItemRepository } from '../repository/work-item-repository';
import type { WorkItemTables } from '../schema/work-item-tables';
import { exponentialBackoff, type BackoffPolicy } from './backoff';
import type { WorkItemResult } from './work-item-handler';
import type { WorkItemRunnerEventType, WorkItemRunnerOptions } from './work-item-runner-types';

/** How one attempt ended: the handler's result, or what it threw. */
export type AttemptResult = { failed: false; result: WorkItemResult } | { failed: true; failure: unknown };

/** The runner's counters this module adds to. */
export interface SettlementCounters {
  completed: number;
  retried: number;
  dead: number;
  staleAcks: number;
}

export interface AttemptSettlementDeps {
  db: Kysely<WorkItemTables>;
  repo: WorkItemRepository;
  logger: Logger;
  leaseMillis: number;
  /** The runner's backoff (a definition's `retry.backoff` wins). */
  backoff: BackoffPolicy;
  /** RUNNING → SUCCESS for one item (the runner coalesces these). */
  complete(item: ClaimedWorkItem): Promise<boolean>;
  counters: SettlementCounters;
  itemEvent(type: WorkItemRunnerEventType, item: ClaimedWorkItem, error?: string): void;
  onDead: WorkItemRunnerOptions<unknown>['onDead'];
  /** The runner's `maxAttempts`, overriding each item's. */
  maxAttempts: number | undefined;
}

export interface AttemptSettlement {
  /** The attempts an item may make (the runner's setting, else the item's). */
  maxAttemptsOf(item: ClaimedWorkItem): number;
  /** True when the item's lease expired on its last attempt: it must not run again. */
  overdue(item: ClaimedWorkItem): boolean;
  /** True (and the item marked DEAD) when its lease expired on its last attempt: it is not run again. */
  expiredOnLastAttempt(item: ClaimedWorkItem): Promise<boolean>;
  /** What a finished attempt leads to: SUCCESS, DEAD (reported, or after the last attempt) or a retry. */
  settle(item: ClaimedWorkItem, attempt: AttemptResult): Promise<void>;
  /** SUCCESS for many items that succeeded, in ONE statement (each fenced by its own token). */
  completeAll(items: readonly ClaimedWorkItem[]): Promise<void>;
  /** Reports a DEAD item (the runner holds its report lease) and records that it was reported. */
  report(item: ClaimedWorkItem, error: string, stackTrace: string | null): Promise<void>;
}

export function errorText(error: unknown): { message: string; stack: string | null } {
  if (error instanceof Error) return { message: error.message || error.name, stack: error.stack ?? null };
  return { message: String(error), stack: null };
}

/** Reports a DEAD item to its process (the runner holds its report lease) and records that it was reported. */
async function reportDead(
  deps: Pick<AttemptSettlementDeps, 'onDead' | 'repo' | 'db' | 'logger' | 'itemEvent'>,
  item: ClaimedWorkItem,
  error: string,
  stackTrace: string | null,
): Promise<void> {
  const { repo, db, logger, itemEvent } = deps;
  if (deps.onDead === undefined) return;
  try {
    await deps.onDead({
      id: item.id,
      processId: item.processId,
      processType: item.processType,
      workerType: item.workerType,
      tenant: item.tenant,
      attempts: item.attempts,
      error,
      stackTrace,
    });
    await repo.markReported(db, item.id, item.claimToken);
    itemEvent('reported', item);
  } catch (err) {
    logger.error(
      { err, itemId: item.id, processId: item.processId },
      'could not report a DEAD work item; it will be retried',
    );
    itemEvent('error', item, `report failed: ${errorText(err).message}`);
  }
}

/** The wait before the next attempt: the definition's retry backoff, when it sets one, else the runner's. */
function retryDelayOf(item: ClaimedWorkItem, backoff: BackoffPolicy): number {
  const own = (item.payload as Partial<WorkerDto> | null)?.retry?.backoff;
  return own ? exponentialBackoff(own)(item.attempts) : backoff(item.attempts);
}

/** An acknowledgement refused: the lease was lost and the item claimed again (or released). */
function refusedAck(
  deps: Pick<AttemptSettlementDeps, 'counters' | 'logger' | 'itemEvent'>,
  item: ClaimedWorkItem,
): void {
  const { counters, logger, itemEvent } = deps;
  counters.staleAcks++;
  logger.warn(
    { itemId: item.id, processId: item.processId },
    'acknowledgement refused: the lease was lost and the item claimed again (or released)',
  );
  itemEvent('stale-ack', item);
}

/** Makes the settlement of one runner. */
export function makeAttemptSettlement(deps: AttemptSettlementDeps): AttemptSettlement {
  const { db, repo, logger, leaseMillis, counters, itemEvent } = deps;
  const maxAttemptsOf = (item: ClaimedWorkItem): number => deps.maxAttempts ?? item.maxAttempts;
  const overdue = (item: ClaimedWorkItem): boolean => item.attempts > maxAttemptsOf(item);

  const report = (item: ClaimedWorkItem, error: string, stackTrace: string | null) =>
    reportDead(deps, item, error, stackTrace);

  const staleAck = (item: ClaimedWorkItem) => refusedAck(deps, item);

  async function markDead(item: ClaimedWorkItem, error: string, stack: string | null): Promise<void> {
    if (!(await repo.markDead(db, item.id, item.claimToken, error, { reported: false, leaseMillis })))
      return staleAck(item);
    counters.dead++;
    logger.error({ itemId: item.id, processId: item.processId, attempts: item.attempts, error }, 'work item is DEAD');
    itemEvent('dead', item, error);
    await report(item, error, stack);
  }

  function completed(item: ClaimedWorkItem): void {
    counters.completed++;
    itemEvent('completed', item);
  }

  return {
    maxAttemptsOf,
    overdue,
    report,

    async expiredOnLastAttempt(item) {
      if (!overdue(item)) return false;
      const earlier = item.lastError === null ? '' : ` (earlier error: ${item.lastError})`;
      await markDead(
        item,
        `the lease expired on the last of ${maxAttemptsOf(item)} attempt(s): the runner holding it stopped (crash or kill)${earlier}`,
        null,
      );
      return true;
    },

    async settle(item, attempt) {
      if (!attempt.failed) {
        const note = attempt.result ? attempt.result.reportedFailure : null;
        const ok =
          note === null
            ? await deps.complete(item)
            : await repo.markDead(db, item.id, item.claimToken, note, { reported: true, leaseMillis });
        if (!ok) return staleAck(item);
        if (note === null) return completed(item);
        counters.dead++;
        itemEvent('dead', item, note);
        return;
      }
      const { message, stack } = errorText(attempt.failure);
      if (item.attempts >= maxAttemptsOf(item)) return markDead(item, message, stack);
      const delay = retryDelayOf(item, deps.backoff);
      if (!(await repo.retry(db, item.id, item.claimToken, message, delay))) return staleAck(item);
      counters.retried++;
      logger.warn(
        { itemId: item.id, processId: item.processId, attempts: item.attempts, delay, error: message },
        'work item attempt failed; retrying',
      );
      itemEvent('retried', item, message);
    },

    async completeAll(items) {
      if (items.length === 0) return;
      const done = await repo.completeMany(db, items);
      for (const item of items) {
        if (done.has(item.id)) completed(item);
        else staleAck(item);
      }
    },
  };
}
