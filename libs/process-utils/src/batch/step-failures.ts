/**
 * How a step's failures are told apart and turned into outcomes, shared by the one-message path
 * (`BatchService.run`) and the many-executors path (`runExecutorBatch`): the error event of each
 * worker type, the two failure carriers, a step's delivery of its events, the refusal classes of a
 * sink error, the retry rule and the tenant context author code runs in.
 */
import { restoreRequestContext, type RequestContext } from '@fw/core';
import { canonicalErrorCode, FwError } from '@fw/core';
import { ProcessErrorCodes, ProcessEvents, type WorkerDto, type WorkerType } from '@fw/process-api';
import {
  failureOf,
  isNonRetryableError,
  WorkerFailureKinds,
  type WorkerFailure,
  type WorkerFailureKind,
} from '../errors/worker-failure';
import type { ProcessEventSink } from '../ports/process-event-sink';

/** What a retrying launch mode (the JDBC work-item runner) tells the batch service about an attempt. */
export interface StepAttempt {
  /** This attempt's number, 1 for the first. */
  attempt: number;
  /** Attempts in all (the definition's `retry.attempts`, else the starter's default). */
  maxAttempts: number;
  /** Aborted when the result can no longer count (see `WorkerContext.signal`). */
  signal?: AbortSignal;
  /** The previous attempt's error, named in the final report. */
  previousError?: string | null;
}

/** The event that reports a failed step of each worker type. */
export const ERROR_EVENT: Readonly<Record<WorkerType, string>> = {
  SPLITTER: ProcessEvents.splitDoneWithErrors,
  EXECUTOR: ProcessEvents.doneWithErrors,
  AGGREGATOR: ProcessEvents.aggregationDoneWithErrors,
};

/** Codes of the batch step errors (never answered over HTTP: both are internal, not exposed). */
export const StepErrorCodes = {
  stepFailed: 'PU_STEP_FAILED',
  deliveryFailed: 'PU_DELIVERY_FAILED',
} as const;

/** A step failure travelling to the single place that reports it. */
export class StepFailure extends FwError {
  constructor(readonly failure: WorkerFailure) {
    super({ code: 500, subErrorCode: StepErrorCodes.stepFailed, description: failure.message, expose: false });
    this.name = 'StepFailure';
  }
}

/** The sink refused or failed an event. */
export class DeliveryFailure extends FwError {
  constructor(
    readonly eventId: string,
    readonly error: unknown,
  ) {
    super({
      code: 500,
      subErrorCode: StepErrorCodes.deliveryFailed,
      description: `delivery of ${eventId} failed`,
      expose: false,
    });
    this.name = 'DeliveryFailure';
  }
}

/**
 * A step's `deliver`: sends one event to the step's process through the sink and records it in
 * `events` (what the outcome says was delivered); a sink failure becomes a {@link DeliveryFailure}.
 */
export function stepDelivery(
  sink: ProcessEventSink,
  worker: WorkerDto,
  events: string[],
): (eventId: string, payload: unknown) => Promise<void> {
  return async (eventId, payload) => {
    try {
      await sink.deliver(worker.processId, eventId, payload, worker.tenant);
    } catch (err) {
      throw new DeliveryFailure(eventId, err);
    }
    events.push(eventId);
  };
}

export type Refusal = 'stale' | 'rejected' | 'undeliverable';

/** How a sink error is treated, from its HTTP-like `code` / `subErrorCode`. */
export function classify(error: unknown): Refusal {
  const e = error as { code?: unknown; subErrorCode?: unknown } | null;
  const code = typeof e?.code === 'number' ? e.code : undefined;
  if (code === 422) return 'stale';
  // A concurrent change (409, also in its former spelling from an older server) is not a refusal.
  const concurrent =
    typeof e?.subErrorCode === 'string' &&
    canonicalErrorCode(e.subErrorCode) === ProcessErrorCodes.concurrentModification;
  if (code === 400 || (code === 409 && !concurrent)) return 'rejected';
  return 'undeliverable';
}

export function describe(error: unknown): string {
  const e = error as { description?: unknown; message?: unknown } | null;
  if (typeof e?.description === 'string') return e.description;
  return typeof e?.message === 'string' ? e.message : String(error);
}

/**
 * Retried: the author's code threw (not a NonRetryableError), nothing was delivered yet (a
 * splitter that already sent a partial split is not run twice), and attempts are left.
 */
export function retryable(
  failure: WorkerFailure,
  attempt: StepAttempt | undefined,
  delivered: readonly string[],
): boolean {
  if (attempt === undefined || attempt.attempt >= attempt.maxAttempts || delivered.length > 0) return false;
  return failure.kind === WorkerFailureKinds.invocationFailure && !isNonRetryableError(failure.cause);
}

/** The final failure names the attempts made (and the previous attempt's error). */
export function withAttempts(failure: WorkerFailure, attempt: StepAttempt | undefined): WorkerFailure {
  if (attempt === undefined || attempt.maxAttempts <= 1 || failure.kind !== WorkerFailureKinds.invocationFailure)
    return failure;
  const why = isNonRetryableError(failure.cause)
    ? 'not retryable'
    : `attempt ${attempt.attempt} of ${attempt.maxAttempts}`;
  const earlier = attempt.previousError ? `; the previous attempt failed with: ${attempt.previousError}` : '';
  return { ...failure, message: `${failure.message} (${why}${earlier})` };
}

function asStepError(err: unknown, kind: WorkerFailureKind): unknown {
  return err instanceof StepFailure || err instanceof DeliveryFailure ? err : new StepFailure(failureOf(err, kind));
}

export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Runs author code, turning what it throws (or rejects with) into a {@link StepFailure} of `kind`.
 * Synchronous code stays synchronous: no promise is made for a step that returns a plain value
 * (on a large fan-out that is two promises fewer per leaf).
 */
export function guard<T>(fn: () => T | Promise<T>, kind: WorkerFailureKind): T | Promise<T> {
  let result: T | Promise<T>;
  try {
    result = fn();
  } catch (err) {
    throw asStepError(err, kind);
  }
  if (!isThenable(result)) return result;
  return Promise.resolve(result).then(undefined, (err: unknown) => {
    throw asStepError(err, kind);
  });
}

/**
 * The request context author code runs in: the one that created the process, rebuilt from what its
 * row stores (tenant, trigger id; the headers `x-fw-tenant-id`, `x-fw-trigger-id` agree with them).
 */
export function requestContextOf(worker: WorkerDto): RequestContext {
  return restoreRequestContext(worker);
}
