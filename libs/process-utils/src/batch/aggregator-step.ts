/**
 * An aggregator's step: parses the input and the children's outputs (from the message, or loaded
 * through `loadChildResults`), aggregates them and delivers `aggregationDone`.
 */
import { ProcessEvents, type SubProcessResult, type WorkerDto } from '@fw/process-api';
import { WorkerFailureKinds } from '../errors/worker-failure';
import type { ChildResultsLoader } from '../ports/process-event-sink';
import type { AggregatorBase, ChildResult } from '../workers/aggregator-base';
import type { WorkerContext } from '../workers/worker-context';
import type { StepDeliver } from './step-context';
import { DeliveryFailure, guard, StepFailure } from './step-failures';

async function childResultsOf(
  dto: WorkerDto,
  loadChildResults: ChildResultsLoader | undefined,
): Promise<SubProcessResult[]> {
  if (dto.subProcessResults !== undefined) return dto.subProcessResults;
  if (loadChildResults === undefined) {
    throw new StepFailure({
      kind: WorkerFailureKinds.malformedPayload,
      message: "aggregator message has no 'subProcessResults' and no loadChildResults is configured",
      field: 'subProcessResults',
    });
  }
  try {
    return await loadChildResults(dto.processId, dto.tenant);
  } catch (err) {
    throw new DeliveryFailure('loadChildResults', err);
  }
}

/**
 * Runs the aggregator on `dto`; author and payload failures become StepFailures, a failed load or
 * delivery a DeliveryFailure.
 */
export async function runAggregatorStep(
  worker: AggregatorBase<unknown, unknown, unknown>,
  dto: WorkerDto,
  ctx: WorkerContext,
  deliver: StepDeliver,
  loadChildResults: ChildResultsLoader | undefined,
): Promise<void> {
  const input = await guard(() => worker.parseInput(dto.input), WorkerFailureKinds.malformedPayload);
  const results = await childResultsOf(dto, loadChildResults);
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
