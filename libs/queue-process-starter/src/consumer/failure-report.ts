/**
 * Reporting a failure the worker code could not report itself (a message it could not read, a
 * plain handler that threw, a message that kept crashing its consumers) as the error event of the
 * step, through the same {@link ProcessEventSink} the BatchService uses, in the same format
 * (`errors: ["<KIND>: <message>"]`).
 *
 * @example
 * const verdict = await reportFailure(sink, { processId, workerType: 'EXECUTOR', tenant: 't1' }, failure);
 * // 'reported' | 'stale' (the step was already completed) | 'refused' (4xx: never retry) | 'retry'
 */
import { ProcessErrorCodes, ProcessEvents, type WorkerType } from '@fw/process-api';
import { errorPayloadOf, type ProcessEventSink, type WorkerFailure } from '@fw/process-utils';

/** The error event of each worker type. */
export const ERROR_EVENT_BY_WORKER_TYPE: Readonly<Record<WorkerType, string>> = {
  SPLITTER: ProcessEvents.splitDoneWithErrors,
  EXECUTOR: ProcessEvents.doneWithErrors,
  AGGREGATOR: ProcessEvents.aggregationDoneWithErrors,
};

/** The step a message belongs to. */
export interface StepRef {
  processId: string;
  workerType: WorkerType;
  tenant: string | null;
}

/**
 * - `reported`: the error event was recorded on the process;
 * - `stale`: refused with 422 (the step was already completed or failed): nothing left to report;
 * - `refused`: refused with another 4xx (unknown process, other tenant): reporting again cannot help;
 * - `retry`: the sink failed (process service down): try again later.
 */
export type ReportVerdict = 'reported' | 'stale' | 'refused' | 'retry';

export interface ReportResult {
  verdict: ReportVerdict;
  error?: unknown;
}

function statusOf(error: unknown): number | undefined {
  const e =
    typeof error === 'object' && error !== null ? (error as { code?: unknown; subErrorCode?: unknown }) : undefined;
  if (e?.code === 409 && e.subErrorCode === ProcessErrorCodes.concurrentModification) return undefined; // a conflict: retry
  return typeof e?.code === 'number' ? e.code : undefined;
}

/** Delivers the step's error event for `failure`. Never rejects. */
export async function reportFailure(
  sink: ProcessEventSink,
  step: StepRef,
  failure: WorkerFailure,
): Promise<ReportResult> {
  try {
    await sink.deliver(
      step.processId,
      ERROR_EVENT_BY_WORKER_TYPE[step.workerType],
      errorPayloadOf(failure),
      step.tenant,
    );
    return { verdict: 'reported' };
  } catch (error) {
    const status = statusOf(error);
    if (status === 422) return { verdict: 'stale', error };
    if (status !== undefined && status >= 400 && status < 500) return { verdict: 'refused', error };
    return { verdict: 'retry', error };
  }
}
