/**
 * What becomes of a failed step: it is reported to the process as the step's error event, retried
 * (while attempts are left and nothing was delivered yet), or recorded as stale or undeliverable
 * when the process service refused or could not take an event.
 */
import type { Logger } from '@fw/core';
import type { WorkerDto, WorkerType } from '@fw/process-api';
import { errorPayloadOf, WorkerFailureKinds, type WorkerFailure } from '../errors/worker-failure';
import type { ProcessEventSink } from '../ports/process-event-sink';
import {
  classify,
  DeliveryFailure,
  describe,
  ERROR_EVENT,
  retryable,
  StepFailure,
  withAttempts,
  type StepAttempt,
} from './step-failures';
import type { WorkerOutcome } from './worker-outcome';

export interface StepOutcomesDeps {
  sink: Pick<ProcessEventSink, 'deliver'>;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
}

export interface StepOutcomes {
  /** Reports `failure` as the error event of the step; the outcome says whether that reached the process. */
  reportFailure(
    processId: string,
    workerType: WorkerType,
    tenant: string | null,
    failure: WorkerFailure,
    events: string[],
  ): Promise<WorkerOutcome>;
  /** The outcome of a step that threw `err` after delivering `events` (reported, retried or refused). */
  outcomeOfError(
    err: unknown,
    dto: WorkerDto,
    attempt: StepAttempt | undefined,
    events: string[],
  ): Promise<WorkerOutcome>;
}

export function makeStepOutcomes({ sink, logger }: StepOutcomesDeps): StepOutcomes {
  async function reportFailure(
    processId: string,
    workerType: WorkerType,
    tenant: string | null,
    failure: WorkerFailure,
    events: string[],
  ): Promise<WorkerOutcome> {
    const eventId = ERROR_EVENT[workerType];
    logger.warn(
      { processId, workerType, kind: failure.kind, field: failure.field, err: failure.cause },
      `worker failed: ${failure.message}`,
    );
    try {
      await sink.deliver(processId, eventId, errorPayloadOf(failure), tenant);
      return { status: 'failed', processId, workerType, events: [...events, eventId], failure };
    } catch (error) {
      const status = classify(error) === 'stale' ? 'stale' : 'undeliverable';
      logger.error({ processId, workerType, err: error }, `could not report the failure with ${eventId}`);
      return { status, processId, workerType, events, failure, error };
    }
  }

  async function outcomeOfError(
    err: unknown,
    dto: WorkerDto,
    attempt: StepAttempt | undefined,
    events: string[],
  ): Promise<WorkerOutcome> {
    const base = { processId: dto.processId, workerType: dto.workerType };
    if (err instanceof StepFailure) {
      if (attempt?.signal?.aborted && events.length === 0) {
        // Abandoned (the host stops, or the lease is gone): the step runs again elsewhere, so
        // its failure here is no verdict on the process and is not reported.
        logger.info({ ...base, err: err.failure.cause }, 'step abandoned after its signal was aborted');
        return { status: 'retry', ...base, events, failure: err.failure, error: err.failure.cause };
      }
      if (retryable(err.failure, attempt, events)) {
        logger.warn(
          { ...base, attempt: attempt?.attempt, maxAttempts: attempt?.maxAttempts, err: err.failure.cause },
          `worker failed; retrying: ${err.failure.message}`,
        );
        return { status: 'retry', ...base, events, failure: err.failure, error: err.failure.cause };
      }
      return reportFailure(dto.processId, dto.workerType, dto.tenant, withAttempts(err.failure, attempt), events);
    }
    const failed = err instanceof DeliveryFailure ? err : new DeliveryFailure('unknown', err);
    const refusal = classify(failed.error);
    if (refusal === 'rejected') {
      const failure: WorkerFailure = {
        kind: WorkerFailureKinds.eventRejected,
        message: `the process service refused ${failed.eventId}: ${describe(failed.error)}`,
        cause: failed.error,
      };
      return reportFailure(dto.processId, dto.workerType, dto.tenant, failure, events);
    }
    if (refusal === 'stale')
      logger.warn(
        { ...base, eventId: failed.eventId },
        'event not allowed in the current state: the step was already completed',
      );
    else logger.error({ ...base, eventId: failed.eventId, err: failed.error }, 'event could not be delivered');
    return { status: refusal, ...base, events, error: failed.error };
  }

  return { reportFailure, outcomeOfError };
}
