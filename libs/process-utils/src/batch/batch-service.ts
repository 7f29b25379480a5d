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
import { createLogger, runWithContext, type Logger } from '@fw/core';
import {
  ProcessEvents,
  WorkerType,
  type SubProcessRequest,
  type SubProcessResult,
  type WorkerDto,
} from '@fw/process-api';
import { errorPayloadOf, WorkerFailureKinds, type WorkerFailure } from '../errors/worker-failure';
import type { ChildResultsLoader, ProcessEventSink } from '../ports/process-event-sink';
import type { AggregatorBase, ChildResult } from '../workers/aggregator-base';
import type { ExecutorBase } from '../workers/executor-base';
import type { SplitterBase } from '../workers/splitter-base';
import type { WorkerContext } from '../workers/worker-context';
import { childRequest, splitBatches } from './split-batches';
import {
  classify,
  DeliveryFailure,
  describe,
  ERROR_EVENT,
  guard,
  requestContextOf,
  retryable,
  stepDelivery,
  StepFailure,
  withAttempts,
  type StepAttempt,
} from './step-failures';
import { executeStep, outputPayload, runExecutorBatch, type StepRequest } from './executor-batch';
import type { WorkerOutcome } from './worker-outcome';
import { readWorkerMessage } from './worker-message';

export type { StepAttempt } from './step-failures';
export type { StepRequest } from './executor-batch';

/** Any worker the batch service can run. */
export type Worker =
  SplitterBase<unknown, unknown> | ExecutorBase<unknown, unknown> | AggregatorBase<unknown, unknown, unknown>;

export interface BatchServiceOptions {
  /** One worker per (processType, workerType); a duplicate fails here. */
  workers: readonly Worker[];
  /** Where events go: `makeManagerEventSink(manager)` or a `@fw/process-delegate` client. */
  sink: ProcessEventSink;
  /** For aggregator messages without `subProcessResults` (other launch modes). */
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
 * Partial split batches delivered at the same time: while one batch's transaction inserts its
 * children, the next is already on its way (each inserts its children before it locks the parent,
 * so the two overlap). `splitDone` still waits for all of them.
 */
const SPLIT_BATCHES_IN_FLIGHT = 2;

/**
 * Up to `limit` deliveries at once. `add` waits while `limit` are running; `drain` waits for all.
 * A failure is rethrown (at the next `add`, or at `drain`) only once every delivery still running
 * has settled, so what was delivered is known before the step's failure is handled. `settle` waits
 * for every running delivery without throwing (before another error leaves the splitter).
 */
function deliveriesInFlight(limit: number): {
  add(delivery: Promise<void>): Promise<void>;
  drain(): Promise<void>;
  settle(): Promise<void>;
} {
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  const settle = async (): Promise<void> => {
    await Promise.all(running);
  };
  const rethrow = async (): Promise<void> => {
    if (failure === undefined) return;
    await settle();
    throw failure.error;
  };
  return {
    async add(delivery) {
      const tracked: Promise<void> = delivery.then(
        () => void running.delete(tracked),
        (error: unknown) => {
          running.delete(tracked);
          failure ??= { error };
        },
      );
      running.add(tracked);
      while (running.size >= limit && failure === undefined) await Promise.race(running);
      await rethrow();
    },
    async drain() {
      await settle();
      await rethrow();
    },
    settle,
  };
}

/** A signal for launch modes that never abort a step. */
const NEVER_ABORTED = new AbortController().signal;

/** Makes the batch service. */
export function makeBatchService(options: BatchServiceOptions): BatchService {
  const logger = options.logger ?? createLogger({ name: 'process-utils' });
  const registry = new Map<string, Worker>();
  const keyOf = (processType: string, workerType: string) => `${workerType}\u0000${processType}`;
  for (const worker of options.workers) {
    const key = keyOf(worker.processType, worker.workerType);
    if (registry.has(key))
      throw new Error(`Two ${worker.workerType} workers registered for process type '${worker.processType}'`);
    registry.set(key, worker);
  }
  const sink = options.sink;

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

  function contextOf(
    worker: WorkerDto,
    attempt: StepAttempt | undefined,
    deliver: (eventId: string, payload: unknown) => Promise<void>,
  ): WorkerContext {
    return {
      signal: attempt?.signal ?? NEVER_ABORTED,
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

  async function runSplitter(
    worker: SplitterBase<unknown, unknown>,
    dto: WorkerDto,
    ctx: WorkerContext,
    deliver: (eventId: string, payload: unknown) => Promise<void>,
  ): Promise<void> {
    const input = await guard(() => worker.parseInput(dto.input), WorkerFailureKinds.malformedPayload);
    const result = await guard(() => worker.split(input, ctx), WorkerFailureKinds.invocationFailure);
    const batches = splitBatches(result, worker.batchSize);
    const partials = deliveriesInFlight(SPLIT_BATCHES_IN_FLIGHT);
    let pending: SubProcessRequest[] | undefined;
    let index = 0;
    try {
      for (;;) {
        const next = await guard(async () => {
          const step = await batches.next();
          return step.done
            ? undefined
            : step.value.map((spec) => childRequest(spec, dto.processId, index++, worker.deterministicChildIds));
        }, WorkerFailureKinds.invocationFailure);
        if (next === undefined) break;
        if (pending !== undefined)
          await partials.add(deliver(ProcessEvents.splitPartiallyDone, { subProcesses: pending }));
        pending = next;
      }
      // The last batch only once every earlier one is in: splitDone closes the split.
      await partials.drain();
    } catch (err) {
      // A failure is handled (reported, or retried) only once no batch is on its way any more.
      await partials.settle();
      throw err;
    }
    await deliver(ProcessEvents.splitDone, { subProcesses: pending ?? [] });
  }

  async function childResultsOf(dto: WorkerDto): Promise<SubProcessResult[]> {
    if (dto.subProcessResults !== undefined) return dto.subProcessResults;
    if (options.loadChildResults === undefined) {
      throw new StepFailure({
        kind: WorkerFailureKinds.malformedPayload,
        message: "aggregator message has no 'subProcessResults' and no loadChildResults is configured",
        field: 'subProcessResults',
      });
    }
    try {
      return await options.loadChildResults(dto.processId, dto.tenant);
    } catch (err) {
      throw new DeliveryFailure('loadChildResults', err);
    }
  }

  async function runAggregator(
    worker: AggregatorBase<unknown, unknown, unknown>,
    dto: WorkerDto,
    ctx: WorkerContext,
    deliver: (eventId: string, payload: unknown) => Promise<void>,
  ): Promise<void> {
    const input = await guard(() => worker.parseInput(dto.input), WorkerFailureKinds.malformedPayload);
    const results = await childResultsOf(dto);
    const children = await guard(
      () =>
        results.map((r, i): ChildResult<unknown> => ({
          processId: r.processId,
          processType: r.processType,
          stateId: r.stateId,
          successful: r.successful,
          output: r.successful ? worker.parseChildOutput(r.output, `subProcessResults[${i}].output`) : null,
        })),
      WorkerFailureKinds.malformedPayload,
    );
    const output = await guard(() => worker.aggregate(input, children, ctx), WorkerFailureKinds.invocationFailure);
    await deliver(ProcessEvents.aggregationDone, { output: output === undefined ? null : output });
  }

  async function runExecutor(
    worker: ExecutorBase<unknown, unknown>,
    dto: WorkerDto,
    ctx: WorkerContext,
    deliver: (eventId: string, payload: unknown) => Promise<void>,
  ): Promise<void> {
    await deliver(ProcessEvents.doneSuccessfully, outputPayload(await executeStep(worker, dto, ctx)));
  }

  async function runWorker(worker: Worker, dto: WorkerDto, attempt: StepAttempt | undefined): Promise<WorkerOutcome> {
    const events: string[] = [];
    const deliver = stepDelivery(sink, dto, events);
    const ctx = contextOf(dto, attempt, deliver);
    try {
      if (worker.workerType === WorkerType.SPLITTER) await runSplitter(worker, dto, ctx, deliver);
      else if (worker.workerType === WorkerType.AGGREGATOR) await runAggregator(worker, dto, ctx, deliver);
      else await runExecutor(worker, dto, ctx, deliver);
      return { status: 'succeeded', processId: dto.processId, workerType: dto.workerType, events };
    } catch (err) {
      return outcomeOfError(err, dto, attempt, events);
    }
  }

  /** The outcome of a step that threw `err` after delivering `events` (reported, retried or refused). */
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

  async function run(message: unknown, attempt?: StepAttempt): Promise<WorkerOutcome> {
    const read = readWorkerMessage(message);
    if (!read.ok) {
      if (read.processId === undefined || read.workerType === undefined) {
        logger.error(
          { processId: read.processId, failure: read.failure.message },
          'worker message not attributable to a process: nothing reported',
        );
        return { status: 'undeliverable', processId: read.processId, events: [], failure: read.failure };
      }
      return runWithContext({ tenantId: read.tenant ?? undefined, headers: {} }, () =>
        reportFailure(read.processId, read.workerType, read.tenant, read.failure, []),
      );
    }
    const dto = read.worker;
    const worker = registry.get(keyOf(dto.processType, dto.workerType));
    if (worker === undefined) {
      if (options.unknownWorkers === 'ignore')
        return { status: 'ignored', processId: dto.processId, workerType: dto.workerType, events: [] };
      const failure: WorkerFailure = {
        kind: WorkerFailureKinds.missingPayloadType,
        message: `no ${dto.workerType} worker is registered for process type '${dto.processType}'`,
        field: 'processType',
      };
      return reportFailure(dto.processId, dto.workerType, dto.tenant, failure, []);
    }
    return runWithContext(requestContextOf(dto), () => runWorker(worker, dto, attempt));
  }

  const executorOf = (dto: WorkerDto): ExecutorBase<unknown, unknown> | undefined => {
    if (dto.workerType !== WorkerType.EXECUTOR) return undefined;
    const worker = registry.get(keyOf(dto.processType, dto.workerType));
    return worker?.workerType === WorkerType.EXECUTOR ? worker : undefined;
  };

  return {
    run,
    runMany: (requests) => runExecutorBatch(requests, { executorOf, runOne: run, contextOf, outcomeOfError, sink }),
    has: (processType, workerType) => registry.has(keyOf(processType, workerType)),
  };
}
