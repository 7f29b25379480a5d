/**
 * A splitter's step: parses the input, splits it, and delivers the children batch by batch
 * (`splitPartiallyDone` for all but the last, `splitDone` for the last).
 */
import { ProcessEvents, type SubProcessRequest, type WorkerDto } from '@fw/process-api';
import { WorkerFailureKinds } from '../errors/worker-failure';
import type { SplitterBase } from '../workers/splitter-base';
import type { WorkerContext } from '../workers/worker-context';
import { deliveriesInFlight } from './deliveries-in-flight';
import { childRequest, splitBatches } from './split-batches';
import type { StepDeliver } from './step-context';
import { guard } from './step-failures';

/**
 * Partial split batches delivered at the same time: while one batch's transaction inserts its
 * children, the next is already on its way (each inserts its children before it locks the parent,
 * so the two overlap). `splitDone` still waits for all of them.
 */
const SPLIT_BATCHES_IN_FLIGHT = 2;

/** Runs the splitter on `dto`; author failures become StepFailures, sink failures DeliveryFailures. */
export async function runSplitterStep(
  worker: SplitterBase<unknown, unknown>,
  dto: WorkerDto,
  ctx: WorkerContext,
  deliver: StepDeliver,
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
