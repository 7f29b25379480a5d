/**
 * `BatchService.runMany`: the steps of many executor messages run side by side and their results
 * reach the process service together — one `deliverMany` of the sink for the whole batch instead
 * of one promise chain and one `deliver` per leaf. A fan-out's leaves are claimed hundreds at a
 * time, so this is where their per-leaf cost is decided. Each message still gets exactly the
 * outcome `BatchService.run` would have given it: failures, refusals and retries take the same
 * code ({@link ExecutorBatchDeps.outcomeOfError}), and every message that is not a readable
 * executor step goes through the one-message path.
 */
import { runWithContext } from '@fw/core';
import { ProcessEvents, type WorkerDto } from '@fw/process-api';
import { WorkerFailureKinds } from '../errors/worker-failure';
import type { EventDelivery, ProcessEventSink } from '../ports/process-event-sink';
import type { ExecutorBase } from '../workers/executor-base';
import type { WorkerContext } from '../workers/worker-context';
import { DeliveryFailure, guard, isThenable, requestContextOf, stepDelivery, type StepAttempt } from './step-failures';
import { readWorkerMessage } from './worker-message';
import type { WorkerOutcome } from './worker-outcome';

/** One message of `runMany` with its attempt (see `BatchService.run`). */
export interface StepRequest {
  message: unknown;
  attempt?: StepAttempt;
}

/** What the batch path borrows from the batch service. */
export interface ExecutorBatchDeps {
  /** The executor registered for an EXECUTOR message, else undefined (the message goes to `runOne`). */
  executorOf(dto: WorkerDto): ExecutorBase<unknown, unknown> | undefined;
  /** `BatchService.run`. */
  runOne(message: unknown, attempt: StepAttempt | undefined): Promise<WorkerOutcome>;
  contextOf(
    dto: WorkerDto,
    attempt: StepAttempt | undefined,
    deliver: (eventId: string, payload: unknown) => Promise<void>,
  ): WorkerContext;
  /** The outcome of a step that threw (a StepFailure or a DeliveryFailure) after delivering `events`. */
  outcomeOfError(
    err: unknown,
    dto: WorkerDto,
    attempt: StepAttempt | undefined,
    events: string[],
  ): Promise<WorkerOutcome>;
  sink: ProcessEventSink;
}

interface ExecutorStep {
  index: number;
  dto: WorkerDto;
  attempt: StepAttempt | undefined;
  events: string[];
  output: unknown;
  failed: boolean;
  error: unknown;
}

/**
 * Runs the author's code of an executor step: parse, then execute, each failure becoming a
 * StepFailure; synchronous code answers its output itself, without a promise.
 */
export function executeStep(executor: ExecutorBase<unknown, unknown>, dto: WorkerDto, ctx: WorkerContext): unknown {
  const input = guard(() => executor.parseInput(dto.input), WorkerFailureKinds.malformedPayload);
  if (isThenable(input))
    return Promise.resolve(input).then((value) =>
      guard(() => executor.execute(value, ctx), WorkerFailureKinds.invocationFailure),
    );
  return guard(() => executor.execute(input, ctx), WorkerFailureKinds.invocationFailure);
}

/** The payload of an executor's `doneSuccessfully` (`undefined` reported as `null`). */
export function outputPayload(output: unknown): { output: unknown } {
  return { output: output === undefined ? null : output };
}

/** Every event delivered at once: the sink's `deliverMany`, or one `deliver` each. */
async function deliverAll(
  sink: ProcessEventSink,
  events: readonly EventDelivery[],
): Promise<ReadonlyArray<{ ok: true } | { ok: false; error: unknown }>> {
  if (sink.deliverMany !== undefined) return sink.deliverMany(events);
  return Promise.all(
    events.map((e) =>
      sink.deliver(e.processId, e.eventId, e.payload, e.tenant).then(
        () => ({ ok: true as const }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
    ),
  );
}

/** Starts every executor step of `requests` (the others go to `runOne`); fills `outcomes` for those. */
function startSteps(
  requests: readonly StepRequest[],
  deps: ExecutorBatchDeps,
  outcomes: Array<Promise<WorkerOutcome> | WorkerOutcome>,
): { steps: ExecutorStep[]; pending: Promise<void>[] } {
  const steps: ExecutorStep[] = [];
  const pending: Promise<void>[] = [];
  for (let index = 0; index < requests.length; index++) {
    const { message, attempt } = requests[index];
    const read = readWorkerMessage(message);
    const executor = read.ok ? deps.executorOf(read.worker) : undefined;
    if (!read.ok || executor === undefined) {
      outcomes[index] = deps.runOne(message, attempt);
      continue;
    }
    const dto = read.worker;
    const step: ExecutorStep = { index, dto, attempt, events: [], output: undefined, failed: false, error: undefined };
    steps.push(step);
    const ctx = deps.contextOf(dto, attempt, stepDelivery(deps.sink, dto, step.events));
    try {
      const result = runWithContext(requestContextOf(dto), () => executeStep(executor, dto, ctx));
      if (isThenable(result)) {
        pending.push(
          Promise.resolve(result).then(
            (output) => void (step.output = output),
            (error: unknown) => {
              step.failed = true;
              step.error = error;
            },
          ),
        );
      } else {
        step.output = result;
      }
    } catch (error) {
      step.failed = true;
      step.error = error;
    }
  }
  return { steps, pending };
}

/** Runs the messages; outcomes in the order of `requests`. Never rejects unless `runOne` does. */
export async function runExecutorBatch(
  requests: readonly StepRequest[],
  deps: ExecutorBatchDeps,
): Promise<WorkerOutcome[]> {
  const outcomes = new Array<Promise<WorkerOutcome> | WorkerOutcome>(requests.length);
  const { steps, pending } = startSteps(requests, deps, outcomes);
  if (pending.length > 0) await Promise.all(pending);
  const failedOutcome = (step: ExecutorStep, error: unknown) =>
    runWithContext(requestContextOf(step.dto), () => deps.outcomeOfError(error, step.dto, step.attempt, step.events));
  const done = steps.filter((s) => !s.failed);
  const results = await deliverAll(
    deps.sink,
    done.map((s) => ({
      processId: s.dto.processId,
      eventId: ProcessEvents.doneSuccessfully,
      payload: outputPayload(s.output),
      tenant: s.dto.tenant,
    })),
  );
  done.forEach((step, i) => {
    const result = results[i];
    if (result?.ok === true) {
      step.events.push(ProcessEvents.doneSuccessfully);
      outcomes[step.index] = {
        status: 'succeeded',
        processId: step.dto.processId,
        workerType: step.dto.workerType,
        events: step.events,
      };
    } else {
      outcomes[step.index] = failedOutcome(
        step,
        new DeliveryFailure(
          ProcessEvents.doneSuccessfully,
          result === undefined ? new Error('the sink answered fewer results than events') : result.error,
        ),
      );
    }
  });
  for (const step of steps) if (step.failed) outcomes[step.index] = failedOutcome(step, step.error);
  return Promise.all(outcomes.map((outcome) => Promise.resolve(outcome)));
}
