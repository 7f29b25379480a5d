/**
 * The spans of the engine: a `create` span per new process (a split's children through
 * `makeSplitChildSpanStarter`, so a fan-out above `FW_TRACE_CHILDREN_INLINE` children starts linked
 * traces) and per launched worker, whose W3C context is kept with the process row and handed to
 * the worker. Without a started OpenTelemetry SDK nothing is recorded or stored (a split of
 * thousands of children then skips even the no-op spans).
 */
import type { Process, WorkerDto } from '@fw/process-api';
import {
  extractTraceContext,
  formatSpanTraceContext,
  injectTraceContext,
  isTracingStarted,
  isUnsampledTraceContext,
  parseTraceContext,
  startMessagingSpan,
  makeSplitChildSpanStarter,
  UNSAMPLED_TRACE_CONTEXT,
} from '@fw/telemetry';
import { rememberTraceContext, traceContextOf } from '../repository/process-trace-context';

/** `messaging.destination.name` of a process's creation. */
const PROCESS_DESTINATION = 'fw_process';

const spanAttributes = (p: Process) => ({
  tenant: p.tenant,
  processId: p.id,
  processType: p.processType,
  triggerId: p.triggerId ?? undefined,
});

/** The context stored with `process`; the active one when it has none. */
const storedContextOf = (process: Process) => extractTraceContext(parseTraceContext(traceContextOf(process)));

/**
 * Records the `create` span of each new root or successor process, under the active context, and
 * remembers its context with the process (written to `fw_process.trace_context`).
 */
export function traceProcessesCreated(processes: readonly Process[]): void {
  if (!isTracingStarted()) return;
  for (const p of processes) {
    const span = startMessagingSpan('create', { destination: PROCESS_DESTINATION, ...spanAttributes(p) });
    rememberTraceContext(p, formatSpanTraceContext(span));
    span.end();
  }
}

/**
 * Records the `create` span of each child of `parent`'s split: inside the split's trace (the active
 * span, e.g. the splitter's `process` span, else the parent's stored context) up to the inline
 * threshold, in new traces linked to it above. A split delivered in batches is judged by the
 * children it has so far, this batch included (`numSubProcesses` as the parent was read, which
 * may miss the one batch delivered beside this one): a split that ends at or under the threshold
 * is one trace, and once above it every further batch starts traces of their own, so the split's
 * trace holds at most the threshold plus one batch of children.
 */
export function traceChildrenCreated(parent: Process, children: readonly Process[]): void {
  if (children.length === 0 || !isTracingStarted()) return;
  const splitContext = injectTraceContext().traceparent === undefined ? storedContextOf(parent) : undefined;
  const startChildSpan = makeSplitChildSpanStarter(
    parent.numSubProcesses + children.length,
    { destination: PROCESS_DESTINATION, parent: splitContext },
    spanAttributes,
  );
  for (const child of children) {
    const span = startChildSpan(child);
    rememberTraceContext(child, formatSpanTraceContext(span));
    span.end();
  }
}

/**
 * Records the `create` span of launching `worker` for `process` (parent: the process's stored
 * context, so an aggregator continues its process's trace whichever child finished last; else the
 * active one) and sets the worker's carrier.
 */
export function traceWorkerLaunch(process: Process, worker: WorkerDto, destination: string): void {
  if (!isTracingStarted()) return;
  if (isUnsampledTraceContext(traceContextOf(process))) {
    // A span under a parent that was not sampled is that parent's context again (see
    // startMessagingSpan): the worker gets the "not sampled" mark without parsing and spans.
    worker.traceContext = UNSAMPLED_TRACE_CONTEXT;
    return;
  }
  const span = startMessagingSpan('create', {
    destination,
    parent: storedContextOf(process),
    ...spanAttributes(process),
    workerType: worker.workerType,
  });
  const carrier = formatSpanTraceContext(span);
  span.end();
  if (carrier !== null) worker.traceContext = carrier;
}
