/**
 * What running one worker message came to: the batch service answers it for every message, and
 * the executor batch for each of its steps.
 */
import type { WorkerType } from '@fw/process-api';
import type { WorkerFailure } from '../errors/worker-failure';

/**
 * - `succeeded`: the success event(s) were delivered;
 * - `failed`: a failure was reported to the process with the step's error event;
 * - `ignored`: no worker here and `unknownWorkers: 'ignore'`;
 * - `stale`: the process refused the event as not allowed in its state (422): the step was
 *   already completed (a redelivered message);
 * - `undeliverable`: nothing could be reported (message not attributable to a process, or the
 *   sink failed); `error` says why. A durable starter should retry these.
 * - `retry`: the author's code threw and attempts are left: nothing was reported; the launch mode
 *   runs the step again after its backoff (`failure` says what happened).
 */
export type WorkerOutcomeStatus = 'succeeded' | 'failed' | 'ignored' | 'stale' | 'undeliverable' | 'retry';

export interface WorkerOutcome {
  status: WorkerOutcomeStatus;
  processId?: string;
  workerType?: WorkerType;
  /** Events delivered, in order. */
  events: string[];
  failure?: WorkerFailure;
  /** The sink's error for `stale` and `undeliverable`. */
  error?: unknown;
}
