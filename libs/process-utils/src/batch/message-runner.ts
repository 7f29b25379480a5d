/**
 * `BatchService.run`: reads one worker message, finds its worker, runs the step inside the
 * process's tenant context and turns whatever happened into a {@link WorkerOutcome}.
 */
import { runWithContext, type Logger } from '@fw/core';
import { ProcessEvents, WorkerType, type WorkerDto } from '@fw/process-api';
import { WorkerFailureKinds, type WorkerFailure } from '../errors/worker-failure';
import type { ChildResultsLoader, ProcessEventSink } from '../ports/process-event-sink';
import { runAggregatorStep } from './aggregator-step';
import { executeStep, outputPayload } from './executor-batch';
import { runSplitterStep } from './splitter-step';
import { stepContextOf } from './step-context';
import { requestContextOf, stepDelivery, type StepAttempt } from './step-failures';
import type { StepOutcomes } from './step-outcomes';
import type { Worker, WorkerRegistry } from './worker-registry';
import { readWorkerMessage } from './worker-message';
import type { WorkerOutcome } from './worker-outcome';

export interface MessageRunnerDeps {
  registry: Pick<WorkerRegistry, 'get'>;
  sink: ProcessEventSink;
  outcomes: StepOutcomes;
  logger: Pick<Logger, 'error'>;
  loadChildResults?: ChildResultsLoader;
  /** What a message for an unregistered worker gets: a MISSING_PAYLOAD_TYPE report, or nothing. */
  unknownWorkers?: 'fail' | 'ignore';
}

/** Runs one message (a WorkerDto or its JSON text); never rejects. */
export type RunMessage = (message: unknown, attempt?: StepAttempt) => Promise<WorkerOutcome>;

export function makeMessageRunner(deps: MessageRunnerDeps): RunMessage {
  const { outcomes, logger } = deps;

  async function runWorker(worker: Worker, dto: WorkerDto, attempt: StepAttempt | undefined): Promise<WorkerOutcome> {
    const events: string[] = [];
    const deliver = stepDelivery(deps.sink, dto, events);
    const ctx = stepContextOf(dto, attempt, deliver);
    try {
      if (worker.workerType === WorkerType.SPLITTER) await runSplitterStep(worker, dto, ctx, deliver);
      else if (worker.workerType === WorkerType.AGGREGATOR)
        await runAggregatorStep(worker, dto, ctx, deliver, deps.loadChildResults);
      else await deliver(ProcessEvents.doneSuccessfully, outputPayload(await executeStep(worker, dto, ctx)));
      return { status: 'succeeded', processId: dto.processId, workerType: dto.workerType, events };
    } catch (err) {
      return outcomes.outcomeOfError(err, dto, attempt, events);
    }
  }

  return async function run(message, attempt) {
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
        outcomes.reportFailure(read.processId, read.workerType, read.tenant, read.failure, []),
      );
    }
    const dto = read.worker;
    const worker = deps.registry.get(dto.processType, dto.workerType);
    if (worker === undefined) {
      if (deps.unknownWorkers === 'ignore')
        return { status: 'ignored', processId: dto.processId, workerType: dto.workerType, events: [] };
      const failure: WorkerFailure = {
        kind: WorkerFailureKinds.missingPayloadType,
        message: `no ${dto.workerType} worker is registered for process type '${dto.processType}'`,
        field: 'processType',
      };
      return outcomes.reportFailure(dto.processId, dto.workerType, dto.tenant, failure, []);
    }
    return runWithContext(requestContextOf(dto), () => runWorker(worker, dto, attempt));
  };
}
