/**
 * What the runner executes for each claimed item: a plain handler, or the application's
 * BatchService of `@fw/process-utils` adapted by {@link batchServiceHandler}.
 *
 * @example
 * const handler: WorkItemHandler = async (worker, ctx) => {
 *   await importRows(worker.input, { signal: ctx.signal });
 *   await sink.deliver(worker.processId, 'doneSuccessfully', { output: null }, worker.tenant);
 * };
 */
import { FwError } from '@fw/core';
import type { WorkerDto } from '@fw/process-api';

export interface WorkItemContext {
  itemId: string;
  /** This attempt's number (1 for the first). */
  attempt: number;
  maxAttempts: number;
  workerId: string;
  /** Aborted when the lease is lost (re-claimed elsewhere) or the runner gave up waiting at stop. */
  signal: AbortSignal;
  /** The error of the previous attempt, if any. */
  previousError?: string | null;
}

/**
 * Resolving completes the item (SUCCESS). Resolving `{ reportedFailure }` means the handler has
 * already recorded a failure on the process: the item is DEAD at once, without retry or report.
 * Throwing fails the attempt: retried with backoff, DEAD (and reported) after the last attempt.
 */
export type WorkItemResult = void | { reportedFailure: string };

export type WorkItemHandler = (worker: WorkerDto, context: WorkItemContext) => Promise<WorkItemResult>;

/** A batch-service attempt as the runner describes it. */
export interface BatchAttempt {
  attempt: number;
  maxAttempts: number;
  signal?: AbortSignal;
  previousError?: string | null;
}

/** A batch-service outcome, as far as the runner reads it. */
export interface BatchOutcomeLike {
  status: string;
  error?: unknown;
  failure?: { message: string };
}

/** What the runner needs of `BatchService` (`@fw/process-utils`). */
export interface BatchServiceLike {
  run(message: unknown, attempt?: BatchAttempt): Promise<BatchOutcomeLike>;
  /**
   * Optional: runs many messages, outcomes in order (`BatchService.runMany`). With it the runner
   * hands each claimed batch over whole and completes its successful items with one statement.
   */
  runMany?(requests: ReadonlyArray<{ message: unknown; attempt?: BatchAttempt }>): Promise<BatchOutcomeLike[]>;
}

/** Thrown for a batch-service outcome that must be retried (an FwError the runner keeps to itself). */
export class WorkItemAttemptError extends FwError {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super({ code: 500, subErrorCode: 'JPS_ATTEMPT_FAILED', description: message, expose: false, cause });
    this.name = 'WorkItemAttemptError';
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  const e = error as { description?: unknown } | null;
  return typeof e?.description === 'string' ? e.description : String(error);
}

/**
 * Adapts a BatchService: `succeeded` and `stale` (the step was already completed) complete the
 * item; `retry` (the author's code threw and attempts are left) fails the attempt, so it is
 * retried with backoff; `failed` (the failure was reported to the process) makes it DEAD without retry;
 * `undeliverable` and `ignored` (no worker registered here) fail the attempt, so it is retried
 * and, at the end, reported by the runner.
 */
export function batchServiceHandler(batchService: BatchServiceLike): WorkItemHandler {
  return async (worker, ctx) =>
    resultOfOutcome(
      await batchService.run(worker, {
        attempt: ctx.attempt,
        maxAttempts: ctx.maxAttempts,
        get signal() {
          return ctx.signal;
        },
        previousError: ctx.previousError,
      }),
      worker,
    );
}

/**
 * What a handler would answer for a batch-service outcome (see {@link batchServiceHandler}):
 * nothing (SUCCESS), `{ reportedFailure }` (DEAD at once), or it throws (the attempt failed).
 */
export function resultOfOutcome(
  outcome: BatchOutcomeLike,
  worker: { workerType: string; processType: string },
): WorkItemResult {
  switch (outcome.status) {
    case 'succeeded':
    case 'stale':
      return;
    case 'retry':
      throw new WorkItemAttemptError(outcome.failure?.message ?? 'the worker failed', outcome.error);
    case 'failed':
      return { reportedFailure: outcome.failure?.message ?? 'worker failed (reported to the process)' };
    case 'ignored':
      throw new WorkItemAttemptError(
        `no ${worker.workerType} worker is registered for process type '${worker.processType}' in this runner`,
      );
    default:
      throw new WorkItemAttemptError(
        `worker outcome '${outcome.status}': ${outcome.error === undefined ? (outcome.failure?.message ?? 'no detail') : messageOf(outcome.error)}`,
        outcome.error,
      );
  }
}
