/**
 * The spans of the work-item runner: a `process` span per item, a child of the trace context its
 * launch stored with it (`WorkerDto.traceContext`), and a `settle` span under it for the
 * acknowledgement. Without a started OpenTelemetry SDK they are no-ops.
 */
import { WorkerType, type WorkerDto } from '@fw/process-api';
import {
  extractTraceContext,
  inSpanContext,
  isDroppedSpan,
  isTracingStarted,
  isUnsampledTraceContext,
  parseTraceContext,
  startMessagingSpan,
  type MessagingSpanOptions,
  type TracedSpan,
  unsampledSpanOf,
} from '@fw/telemetry';
import type { BatchOutcomeLike } from './work-item-handler';
import type { RunMany } from './runner-config';

/** `messaging.destination.name` of the runner's spans. */
const WORK_ITEM_DESTINATION = 'fw_process_work_item';

/** The messaging span options of a work item's spans. */
export function workItemSpanOptions(worker: WorkerDto): MessagingSpanOptions {
  return {
    destination: WORK_ITEM_DESTINATION,
    tenant: worker.tenant,
    processId: worker.processId,
    processType: worker.processType,
    workerType: worker.workerType,
    triggerId: worker.triggerId ?? undefined,
  };
}

/** The parent of a work item's `process` span: the context its launch stored. */
export function launchContextOf(worker: WorkerDto) {
  return extractTraceContext(parseTraceContext(worker.traceContext));
}

/**
 * Starts the `process` span of each item of a batch (the caller ends them); none without an SDK.
 * The items whose traces are not sampled share one non-recording span: nothing is recorded under
 * it, and a batch of several items runs outside the items' spans anyway (see
 * {@link runManyInSpans}), so a batch of thousands of such leaves makes one span, not one each.
 */
export function startProcessSpans(workers: readonly WorkerDto[]): TracedSpan[] {
  if (!isTracingStarted()) return [];
  let dropped: TracedSpan | undefined;
  return workers.map((w) =>
    isUnsampledTraceContext(w.traceContext)
      ? (dropped ??= unsampledSpanOf(w.traceContext)!)
      : startMessagingSpan('process', { ...workItemSpanOptions(w), parent: launchContextOf(w) }),
  );
}

/** Starts the `settle` span of an item, under its `process` span (the caller ends it). */
export function startSettleSpan(worker: WorkerDto, processSpan: TracedSpan): TracedSpan {
  // Under a process span whose trace is not kept the settle span would be its context again.
  if (isDroppedSpan(processSpan)) return processSpan;
  return inSpanContext(processSpan, () => startMessagingSpan('settle', workItemSpanOptions(worker)));
}

/**
 * `runMany` with each item inside its own `process` span, as far as a batch allows: the executor
 * steps run together in one call (their reports create no processes), every other item (a
 * splitter, an aggregator: the batch service takes its one-message path anyway) in a call of its
 * own inside its span, so the children a splitter creates are traced under it.
 */
export async function runManyInSpans(
  runMany: RunMany,
  requests: ReadonlyArray<{ message: unknown; attempt?: unknown }>,
  workers: readonly WorkerDto[],
  spans: readonly TracedSpan[],
): Promise<BatchOutcomeLike[]> {
  if (spans.length === 0) return runMany(requests as Parameters<RunMany>[0]);
  // A batch of executors only (a fan-out's leaves, thousands a second) is one call: counted
  // without building the list of their indices.
  let executorCount = 0;
  for (const w of workers) if (w.workerType === WorkerType.EXECUTOR) executorCount++;
  if (executorCount === workers.length && workers.length > 1) return runMany(requests as Parameters<RunMany>[0]);
  const executors = workers.flatMap((w, i) => (w.workerType === WorkerType.EXECUTOR ? [i] : []));
  const outcomes: BatchOutcomeLike[] = new Array<BatchOutcomeLike>(workers.length);
  const calls: Promise<void>[] = [];
  const runIn = (indices: number[], span: TracedSpan | undefined) =>
    calls.push(
      (async () => {
        const run = () => runMany(indices.map((i) => requests[i]) as Parameters<RunMany>[0]);
        const answered = span === undefined ? await run() : await inSpanContext(span, run);
        indices.forEach((i, k) => (outcomes[i] = answered[k]));
      })(),
    );
  if (executors.length > 0) runIn(executors, executors.length === 1 ? spans[executors[0]] : undefined);
  workers.forEach((w, i) => {
    if (w.workerType !== WorkerType.EXECUTOR) runIn([i], spans[i]);
  });
  await Promise.all(calls);
  return outcomes;
}
