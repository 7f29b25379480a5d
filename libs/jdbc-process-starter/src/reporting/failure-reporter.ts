/**
 * How a DEAD item's failure reaches its process, so a run can never stay pending without an error
 * record. The runner calls a {@link DeadItemReporter} once per item that went DEAD; if it throws
 * the item stays "unreported" and a runner retries the report later.
 *
 * @example
 * const runner = makeWorkItemRunner({
 *   database,
 *   handler,
 *   onDead: makeSinkFailureReporter(makeManagerEventSink(manager)), // doneWithErrors & co.
 * });
 */
import { ProcessEvents, type ErrorPayload } from '@fw/process-api';

/** A work item that exhausted its attempts (or whose attempts all crashed). */
export interface DeadWorkItem {
  id: string;
  processId: string;
  processType: string;
  workerType: string;
  tenant: string | null;
  attempts: number;
  /** The last error message. */
  error: string;
  /** Stack of the last error when it was thrown in this runner. */
  stackTrace: string | null;
}

/** Reports one DEAD item to its process; a rejection means "not reported, try again later". */
export type DeadItemReporter = (item: DeadWorkItem) => Promise<void>;

/** The event sink of `@fw/process-utils` (`ProcessEventSink`) or of `@fw/process-delegate`. */
export interface FailureEventSink {
  deliver(processId: string, eventId: string, payload: unknown, tenant: string | null): Promise<void>;
}

/** The error event of each worker type. */
export const FAILURE_EVENT_BY_WORKER_TYPE: Readonly<Record<string, string>> = {
  SPLITTER: ProcessEvents.splitDoneWithErrors,
  EXECUTOR: ProcessEvents.doneWithErrors,
  AGGREGATOR: ProcessEvents.aggregationDoneWithErrors,
};

/** The error payload recorded on the process for a DEAD item. */
export function deadItemErrorPayload(item: DeadWorkItem): ErrorPayload {
  return {
    errors: [`${item.workerType} work item ${item.id} is DEAD after ${item.attempts} attempt(s): ${item.error}`],
    exceptionMessage: item.error,
    stackTrace: item.stackTrace,
  };
}

function isNotAllowed(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 422;
}

/**
 * A reporter that raises `doneWithErrors`, `splitDoneWithErrors` or `aggregationDoneWithErrors`
 * (by worker type) through an event sink. A 422 answer (the event is not allowed any more: the
 * step already completed or failed) counts as reported.
 */
export function makeSinkFailureReporter(sink: FailureEventSink): DeadItemReporter {
  return async (item) => {
    const eventId = FAILURE_EVENT_BY_WORKER_TYPE[item.workerType];
    if (eventId === undefined) throw new Error(`work item ${item.id} has an unknown worker type '${item.workerType}'`);
    try {
      await sink.deliver(item.processId, eventId, deadItemErrorPayload(item), item.tenant);
    } catch (error) {
      if (!isNotAllowed(error)) throw error;
    }
  };
}
