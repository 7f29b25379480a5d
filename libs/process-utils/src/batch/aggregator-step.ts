/**
 * An aggregator's step: parses the input and the children's outputs (from the message, or loaded
 * through `loadChildResults`, in pages when it pages), aggregates them — folding page by page for a
 * `ReducingAggregatorBase`, in one list otherwise — and delivers `aggregationDone`.
 */
import { ProcessEvents, type SubProcessResult, type WorkerDto } from '@fw/process-api';
import { WorkerFailureKinds } from '../errors/worker-failure';
import type { ChildResultsLoader } from '../ports/process-event-sink';
import type { AggregatorBase, ChildResult } from '../workers/aggregator-base';
import { ReducingAggregatorBase } from '../workers/reducing-aggregator-base';
import type { WorkerContext } from '../workers/worker-context';
import type { StepDeliver } from './step-context';
import { DeliveryFailure, guard, StepFailure } from './step-failures';

function isPaged(value: unknown): value is AsyncIterable<readonly SubProcessResult[]> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === 'function';
}

/**
 * The children's results in pages: the message's own (one page), or what `loadChildResults`
 * gives (one list, or pages). A failed load is a DeliveryFailure, wherever in the pages it fails.
 */
async function* childResultPagesOf(
  dto: WorkerDto,
  loadChildResults: ChildResultsLoader | undefined,
): AsyncGenerator<readonly SubProcessResult[]> {
  if (dto.subProcessResults !== undefined) {
    yield dto.subProcessResults;
    return;
  }
  if (loadChildResults === undefined) {
    throw new StepFailure({
      kind: WorkerFailureKinds.malformedPayload,
      message: "aggregator message has no 'subProcessResults' and no loadChildResults is configured",
      field: 'subProcessResults',
    });
  }
  let pages: AsyncIterator<readonly SubProcessResult[]> | undefined;
  try {
    const loaded = loadChildResults(dto.processId, dto.tenant);
    if (!isPaged(loaded)) {
      yield await loaded;
      return;
    }
    pages = loaded[Symbol.asyncIterator]();
  } catch (err) {
    throw new DeliveryFailure('loadChildResults', err);
  }
  for (;;) {
    let next: IteratorResult<readonly SubProcessResult[]>;
    try {
      next = await pages.next();
    } catch (err) {
      throw new DeliveryFailure('loadChildResults', err);
    }
    if (next.done) return;
    yield next.value;
  }
}

/** One result as the aggregator sees it; a child output that fails its schema is a payload failure. */
function childResultOf(
  worker: AggregatorBase<unknown, unknown, unknown>,
  r: SubProcessResult,
  index: number,
): ChildResult<unknown> {
  return {
    processId: r.processId,
    processType: r.processType,
    stateId: r.stateId,
    successful: r.successful,
    output: r.successful ? worker.parseChildOutput(r.output, `subProcessResults[${index}].output`) : null,
  };
}

/** Folds the pages one child at a time (memory independent of the number of children). */
async function reduceChildren(
  worker: ReducingAggregatorBase<unknown, unknown, unknown, unknown>,
  input: unknown,
  pages: AsyncIterable<readonly SubProcessResult[]>,
  ctx: WorkerContext,
): Promise<unknown> {
  let accumulator = await guard(() => worker.initial(input, ctx), WorkerFailureKinds.invocationFailure);
  let index = 0;
  for await (const page of pages) {
    const children = await guard(
      () => page.map((r) => childResultOf(worker, r, index++)),
      WorkerFailureKinds.malformedPayload,
    );
    accumulator = await guard(
      () => children.reduce((acc, child) => worker.reduce(acc, child, ctx), accumulator),
      WorkerFailureKinds.invocationFailure,
    );
  }
  return guard(() => worker.finish(accumulator, input, ctx), WorkerFailureKinds.invocationFailure);
}

/** Hands every child to `aggregate` in one list. */
async function aggregateChildren(
  worker: AggregatorBase<unknown, unknown, unknown>,
  input: unknown,
  pages: AsyncIterable<readonly SubProcessResult[]>,
  ctx: WorkerContext,
): Promise<unknown> {
  const results: SubProcessResult[] = [];
  for await (const page of pages) results.push(...page);
  const children = await guard(
    () => results.map((r, i) => childResultOf(worker, r, i)),
    WorkerFailureKinds.malformedPayload,
  );
  return guard(() => worker.aggregate(input, children, ctx), WorkerFailureKinds.invocationFailure);
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
  const pages = childResultPagesOf(dto, loadChildResults);
  const output =
    worker instanceof ReducingAggregatorBase
      ? await reduceChildren(worker, input, pages, ctx)
      : await aggregateChildren(worker, input, pages, ctx);
  await deliver(ProcessEvents.aggregationDone, { output: output === undefined ? null : output });
}
