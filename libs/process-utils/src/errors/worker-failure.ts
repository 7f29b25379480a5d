/**
 * Worker failures: every way a worker step can fail is reported to
 * the process as an error event (`doneWithErrors`, `splitDoneWithErrors`,
 * `aggregationDoneWithErrors`), so a step never stays pending without an error record.
 *
 * @example
 * // inside a worker's validate hook or author code: fail with a precise kind
 * throw new WorkerPayloadError('INCOMPATIBLE_FIELD_TYPE', "'count' must be a number", 'input.count');
 */
import { FwError, isFwError } from '@fw/core';
import type { ErrorPayload } from '@fw/process-api';

/** Codes of the worker errors: they describe a step's failure and are never answered over HTTP (not exposed). */
export const WorkerErrorCodes = {
  payload: 'PU_WORKER_PAYLOAD',
  nonRetryable: 'PU_NON_RETRYABLE',
} as const;

export const WorkerFailureKinds = {
  /** The worker message or the process input is not the JSON it must be (not an object, required field absent, bad JSON text). */
  malformedPayload: 'MALFORMED_PAYLOAD',
  /** A known field has the wrong type (for example a string where a number is declared). */
  incompatibleFieldType: 'INCOMPATIBLE_FIELD_TYPE',
  /** No worker (hence no payload type) is registered for the message's processType and workerType. */
  missingPayloadType: 'MISSING_PAYLOAD_TYPE',
  /** The author's code threw. */
  invocationFailure: 'INVOCATION_FAILURE',
  /** The process service refused the worker's result (for example a child of an unknown processType). */
  eventRejected: 'EVENT_REJECTED',
} as const;

export type WorkerFailureKind = (typeof WorkerFailureKinds)[keyof typeof WorkerFailureKinds];

/** A failure as the batch service reports it. */
export interface WorkerFailure {
  kind: WorkerFailureKind;
  message: string;
  /** Path of the offending field (`input.count`, `subProcessResults[2].output.total`), when known. */
  field?: string;
  /** The thrown error, when there was one. */
  cause?: unknown;
}

/**
 * Thrown by payload schemas and validate hooks (or by author code) to report a payload failure of
 * a given kind. Any other error thrown by author code counts as `INVOCATION_FAILURE`.
 */
export class WorkerPayloadError extends FwError {
  constructor(
    readonly kind: WorkerFailureKind,
    message: string,
    field?: string,
  ) {
    super({ code: 400, subErrorCode: WorkerErrorCodes.payload, description: message, field, expose: false });
    this.name = 'WorkerPayloadError';
  }
}

/**
 * Thrown by author code for a failure that another attempt cannot fix (a record that does not
 * exist, a refused business rule): the step fails at once, without the retries of its
 * definition's `retry` policy. Any other error is retried while attempts are left.
 *
 * @example
 * if (!customer) throw new NonRetryableError(`customer ${input.customerId} does not exist`);
 */
export class NonRetryableError extends FwError {
  constructor(message: string, options?: { cause?: unknown }) {
    super({
      code: 500,
      subErrorCode: WorkerErrorCodes.nonRetryable,
      description: message,
      expose: false,
      cause: options?.cause,
    });
    this.name = 'NonRetryableError';
  }
}

/** True for a {@link NonRetryableError}, also across package copies. */
export function isNonRetryableError(value: unknown): value is NonRetryableError {
  return isFwError(value) && value.subErrorCode === WorkerErrorCodes.nonRetryable;
}

/** True for a {@link WorkerPayloadError}, also across package copies. */
export function isWorkerPayloadError(value: unknown): value is WorkerPayloadError {
  return isFwError(value) && value.subErrorCode === WorkerErrorCodes.payload;
}

/** The failure a thrown value stands for: a WorkerPayloadError keeps its kind, anything else is `fallback`. */
export function failureOf(error: unknown, fallback: WorkerFailureKind): WorkerFailure {
  if (isWorkerPayloadError(error))
    return { kind: error.kind, message: error.message, field: error.field, cause: error };
  const message = error instanceof Error ? error.message : String(error);
  return { kind: fallback, message, cause: error };
}

/**
 * The error event payload of a failure:
 * `errors: ["<KIND>: <message>"]`, `exceptionMessage: "<Error name>: <message>"`, `stackTrace`
 * (the author's stack for invocation failures, null for payload failures found by the framework).
 */
export function errorPayloadOf(failure: WorkerFailure): ErrorPayload {
  const cause = failure.cause;
  const isAuthorError = cause instanceof Error && !isWorkerPayloadError(cause);
  return {
    errors: [`${failure.kind}: ${failure.message}`],
    exceptionMessage: cause instanceof Error ? `${cause.name}: ${cause.message}` : failure.message,
    stackTrace: isAuthorError ? (cause.stack ?? null) : null,
  };
}
