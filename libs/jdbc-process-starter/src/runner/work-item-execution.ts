/**
 * One attempt of claimed items: the handler called for one item, or the batch service's `runMany`
 * for a whole claimed batch, with the items' leases kept by the heartbeat while they run and let go
 * before their settlement (so that no renewal races the acknowledgement).
 */
import type { Claim } from '@fw/leased-queue';
import type { WorkerDto } from '@fw/process-api';
import { endSpan, inMessagingSpan } from '@fw/telemetry';
import type { ClaimedWorkItem } from '../repository/work-item-repository';
import type { AttemptResult, AttemptSettlement } from './attempt-settlement';
import type { RunMany } from './runner-config';
import { resultOfOutcome, type BatchOutcomeLike, type WorkItemHandler, type WorkItemResult } from './work-item-handler';
import {
  launchContextOf,
  runManyInSpans,
  startProcessSpans,
  startSettleSpan,
  workItemSpanOptions,
} from './work-item-tracing';

/** A running item and what aborts it. */
export interface RunningItem {
  item: ClaimedWorkItem;
  abort: AbortController;
  done: Promise<void>;
}

/** The heartbeat, as the execution uses it. */
export interface HeldLeases {
  hold(claims: Iterable<ClaimedWorkItem>): void;
  release(claims: Iterable<Claim>): Promise<void>;
}

export interface WorkItemExecutionDeps {
  handler: WorkItemHandler;
  settlement: AttemptSettlement;
  leases: HeldLeases;
  workerId: string;
}

export interface WorkItemExecution {
  /** Runs one item and settles it. */
  execute(item: ClaimedWorkItem, abort: AbortController): Promise<void>;
  /**
   * A claimed batch handed to the batch service whole (`runMany`): one call for all its items, and
   * one statement completing every item that succeeded; the others are settled one by one.
   */
  executeBatch(entries: readonly RunningItem[], runMany: RunMany): Promise<void>;
}

/**
 * Settles a batch's items from their results: one statement completes every success, the
 * others are settled one by one. Every settlement is waited for before a failure is thrown (a
 * lost connection fails several at once; none may be left unobserved).
 */
async function settleBatch(
  settlement: AttemptSettlement,
  items: readonly ClaimedWorkItem[],
  resultOf: (item: ClaimedWorkItem, index: number) => WorkItemResult,
): Promise<void> {
  const succeeded: ClaimedWorkItem[] = [];
  const others: Array<Promise<void>> = [];
  items.forEach((item, i) => {
    let attempt: AttemptResult;
    try {
      attempt = { failed: false, result: resultOf(item, i) };
    } catch (failure) {
      attempt = { failed: true, failure };
    }
    if (!attempt.failed && !attempt.result) succeeded.push(item);
    else others.push(settlement.settle(item, attempt));
  });
  const settled = await Promise.allSettled([settlement.completeAll(succeeded), ...others]);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}

export function makeWorkItemExecution(deps: WorkItemExecutionDeps): WorkItemExecution {
  const { handler, settlement, leases, workerId } = deps;

  // The signal is read when the step asks for it: Node makes an AbortSignal on first read, and
  // that costs more than a short step (about 4 µs), for a signal most steps never look at.
  const attemptOf = (item: ClaimedWorkItem, abort: AbortController) => ({
    attempt: item.attempts,
    maxAttempts: settlement.maxAttemptsOf(item),
    get signal() {
      return abort.signal;
    },
    previousError: item.lastError,
  });

  async function execute(item: ClaimedWorkItem, abort: AbortController): Promise<void> {
    if (await settlement.expiredOnLastAttempt(item)) return;
    leases.hold([item]);
    const worker = item.payload as WorkerDto;
    const span = workItemSpanOptions(worker);
    await inMessagingSpan('process', { ...span, parent: launchContextOf(worker) }, async () => {
      let attempt: AttemptResult;
      try {
        const { attempt: n, maxAttempts, previousError } = attemptOf(item, abort);
        attempt = {
          failed: false,
          result: await handler(worker, {
            itemId: item.id,
            attempt: n,
            maxAttempts,
            workerId,
            get signal() {
              return abort.signal;
            },
            previousError,
          }),
        };
      } catch (failure) {
        attempt = { failed: true, failure };
      } finally {
        // Before the acknowledgement, so that no renewal races it.
        await leases.release([item]);
      }
      await inMessagingSpan('settle', span, () => settlement.settle(item, attempt));
    });
  }

  async function executeBatch(entries: readonly RunningItem[], runMany: RunMany): Promise<void> {
    // Items whose lease ran out on their last attempt are marked DEAD instead (rare: checked first).
    const overdue = entries.filter((e) => settlement.overdue(e.item));
    if (overdue.length > 0) await Promise.all(overdue.map((e) => settlement.expiredOnLastAttempt(e.item)));
    const live = overdue.length === 0 ? entries : entries.filter((e) => !overdue.includes(e));
    if (live.length === 0) return;
    const items = live.map((e) => e.item);
    const workers = items.map((item) => item.payload as WorkerDto);
    const spans = startProcessSpans(workers);
    leases.hold(items);
    let outcomes: BatchOutcomeLike[] | undefined;
    let thrown: unknown;
    try {
      const requests = live.map((e) => ({ message: e.item.payload, attempt: attemptOf(e.item, e.abort) }));
      outcomes = await runManyInSpans(runMany, requests, workers, spans);
    } catch (err) {
      thrown = err;
    } finally {
      await leases.release(items);
    }
    const settling = spans.map((span, i) => startSettleSpan(workers[i], span));
    try {
      await settleBatch(settlement, items, (item, i) => {
        if (outcomes === undefined) throw thrown;
        return resultOfOutcome(outcomes[i], item);
      });
    } finally {
      settling.forEach((span) => endSpan(span));
      spans.forEach((span) => endSpan(span));
    }
  }

  return { execute, executeBatch };
}
