/**
 * The batch service (a factory in place of a `BatchServiceBase` class): receives worker messages, finds the worker
 * registered for (processType, workerType), checks the payload, runs the author's code inside the
 * process's tenant context and reports the outcome as a state-machine event through a
 * {@link ProcessEventSink}. Every failure it can attribute to a process is reported as the error
 * event of the step (`doneWithErrors`, `splitDoneWithErrors`, `aggregationDoneWithErrors`).
 *
 * @example
 * const batchService = makeBatchService({
 *   workers: [new SplitBook(), new CountWords(), new SumWords()],
 *   sink: makeManagerEventSink(manager),
 * });
 * const outcome = await batchService.run(workerDto); // { status: 'succeeded', events: ['doneSuccessfully'] }
 */
import { createLogger, type Logger } from '@fw/core';
import type { WorkerType } from '@fw/process-api';
import type { ChildResultsLoader, ProcessEventSink } from '../ports/process-event-sink';
import { runExecutorBatch, type StepRequest } from './executor-batch';
import { makeMessageRunner } from './message-runner';
import { stepContextOf } from './step-context';
import type { StepAttempt } from './step-failures';
import { makeStepOutcomes } from './step-outcomes';
import { makeWorkerRegistry, type Worker } from './worker-registry';
import type { WorkerOutcome } from './worker-outcome';

export type { StepAttempt } from './step-failures';
export type { StepRequest } from './executor-batch';
export type { Worker } from './worker-registry';

export interface BatchServiceOptions {
  /** One worker per (processType, workerType); a duplicate fails here. */
  workers: readonly Worker[];
  /** Where events go: `makeManagerEventSink(manager)` or a `@fw/process-delegate` client. */
  sink: ProcessEventSink;
  /**
   * For aggregator messages without `subProcessResults` (other launch modes, and splits of more than
   * a thousand children). Default: the sink's `loadChildResults`.
   */
  loadChildResults?: ChildResultsLoader;
  /**
   * A message for a processType with no registered worker: `'fail'` (default) reports
   * MISSING_PAYLOAD_TYPE to the process; `'ignore'` leaves it to another service.
   */
  unknownWorkers?: 'fail' | 'ignore';
  logger?: Logger;
}

export interface BatchService {
  /**
   * Runs one worker message (a WorkerDto or its JSON text). Never rejects: see {@link WorkerOutcome}.
   * With `attempt` (durable launch modes), an error thrown by the author's code before any event
   * was delivered answers `retry` while attempts are left, instead of being reported; a
   * `NonRetryableError` and payload failures are reported at once.
   */
  run(message: unknown, attempt?: StepAttempt): Promise<WorkerOutcome>;
  /**
   * Runs many messages; the outcomes come in the same order, each what {@link BatchService.run}
   * would have answered. The executor steps among them run side by side and report their results
   * together (one `deliverMany` when the sink has it, e.g. {@link makeBatchingEventSink}); every
   * other message takes the one-message path. For launch modes that claim work in batches.
   */
  runMany(requests: readonly StepRequest[]): Promise<WorkerOutcome[]>;
  /** True when a worker is registered for the pair. */
  has(processType: string, workerType: WorkerType): boolean;
}

/**
 * Makes the batch service from its parts: the worker registry, the step outcomes (report, retry or
 * refusal), the one-message runner and the executor batch path.
 */
export function makeBatchService(options: BatchServiceOptions): BatchService {
  const logger = options.logger ?? createLogger({ name: 'process-utils' });
  const registry = makeWorkerRegistry(options.workers);
  const { sink } = options;
  const outcomes = makeStepOutcomes({ sink, logger });
  const run = makeMessageRunner({
    registry,
    sink,
    outcomes,
    logger,
    loadChildResults: options.loadChildResults ?? sink.loadChildResults,
    unknownWorkers: options.unknownWorkers,
  });
  return {
    run,
    runMany: (requests) =>
      runExecutorBatch(requests, {
        executorOf: registry.executorOf,
        runOne: run,
        contextOf: stepContextOf,
        outcomeOfError: outcomes.outcomeOfError,
        sink,
      }),
    has: (processType, workerType) => registry.has(processType, workerType),
  };
}
