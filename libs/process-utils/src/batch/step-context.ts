/** The {@link WorkerContext} a step's author code receives. */
import { ProcessEvents, type WorkerDto } from '@fw/process-api';
import type { WorkerContext } from '../workers/worker-context';
import type { StepAttempt } from './step-failures';

/** Delivers one event of the step (and records it; see `stepDelivery`). */
export type StepDeliver = (eventId: string, payload: unknown) => Promise<void>;

/** A signal for launch modes that never abort a step. */
const NEVER_ABORTED = new AbortController().signal;

/** The context of `worker`'s step; progress reports go out through `deliver`. */
export function stepContextOf(
  worker: WorkerDto,
  attempt: StepAttempt | undefined,
  deliver: StepDeliver,
): WorkerContext {
  return {
    // Read when the author's code asks: a runner's signal is made on first read (see the runner).
    get signal() {
      return attempt?.signal ?? NEVER_ABORTED;
    },
    attempt: attempt?.attempt ?? 1,
    maxAttempts: attempt?.maxAttempts ?? 1,
    processId: worker.processId,
    processType: worker.processType,
    workerType: worker.workerType,
    tenant: worker.tenant,
    triggerId: worker.triggerId,
    parentId: worker.parentId,
    config: Object.freeze({ ...worker.config }),
    reportProgress: (percentComplete) => deliver(ProcessEvents.statusUpdate, { percentComplete }),
  };
}
