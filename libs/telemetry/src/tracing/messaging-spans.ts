import {
  context,
  isSpanContextValid,
  SpanKind,
  TraceFlags,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
} from '@opentelemetry/api';

/** The name the spans of this package are recorded under. */
export const FW_TRACER_NAME = '@fw/telemetry';

/**
 * The messaging operations of the framework, after the OpenTelemetry messaging conventions:
 * `create` (a work item or command is enqueued), `process` (a worker executes it), `settle`
 * (its acknowledgement).
 */
export type MessagingOperation = 'create' | 'process' | 'settle';

const KIND: Record<MessagingOperation, SpanKind> = {
  create: SpanKind.PRODUCER,
  process: SpanKind.CONSUMER,
  settle: SpanKind.CLIENT,
};

/** The fw.* attributes of a span. Ids belong here (a span is one event), never in metric labels. */
export interface FwSpanAttributes {
  tenant?: string | null;
  processId?: string;
  processType?: string;
  workerType?: string;
  triggerId?: string;
}

/** Options of a messaging span. */
export interface MessagingSpanOptions extends FwSpanAttributes {
  /** `messaging.destination.name`: the queue, e.g. `fw_process_work_item` or a RabbitMQ queue name. */
  destination: string;
  /** `messaging.system`; default `fw` (the framework's PostgreSQL queues); `rabbitmq` for the RabbitMQ host. */
  system?: string;
  /** The parent context; default the active one. `extractTraceContext(carrier)` for a consumer. */
  parent?: Context;
  /** Links to other spans, e.g. the split that started a child in a new trace. */
  links?: Link[];
  /** Start a new trace whatever the parent holds. */
  root?: boolean;
}

/** The span attributes of `options`: messaging.* and the fw.* that are set. */
export function messagingAttributes(operation: MessagingOperation, options: MessagingSpanOptions): Attributes {
  // Written out rather than looped over a table: this runs for several spans of every leaf.
  const attributes: Attributes = {
    'messaging.operation.type': operation,
    'messaging.operation.name': operation,
    'messaging.system': options.system ?? 'fw',
    'messaging.destination.name': options.destination,
  };
  if (options.tenant != null) attributes['fw.tenant'] = options.tenant;
  if (options.processId != null) attributes['fw.process.id'] = options.processId;
  if (options.processType != null) attributes['fw.process.type'] = options.processType;
  if (options.workerType != null) attributes['fw.worker.type'] = options.workerType;
  if (options.triggerId != null) attributes['fw.trigger.id'] = options.triggerId;
  return attributes;
}

/** The name of a messaging span, after the conventions: `<operation> <destination>`. */
export function messagingSpanName(
  operation: MessagingOperation,
  options: Pick<MessagingSpanOptions, 'destination'>,
): string {
  return `${operation} ${options.destination}`;
}

/**
 * Starts a messaging span named `<operation> <destination>` with the kind the conventions give
 * (create: PRODUCER, process: CONSUMER, settle: CLIENT). The caller ends it; {@link inMessagingSpan}
 * does that for a function.
 *
 * Under a parent that was not sampled, no span is started: the answer is a non-recording span
 * carrying the parent's own context, so what is stored or sent downstream keeps the parent's
 * "not sampled" decision. That is what the parent-based samplers (the default) would decide for
 * the child anyway, without the sampler call, the attributes and a new span id for every leaf of
 * a large fan-out whose trace is not kept. A span with `root: true` (a split's child above the
 * inline threshold) always asks the sampler.
 */
export function startMessagingSpan(operation: MessagingOperation, options: MessagingSpanOptions): Span {
  const parent = options.parent ?? context.active();
  if (options.root !== true) {
    const parentSpan = trace.getSpanContext(parent);
    if (
      parentSpan !== undefined &&
      (parentSpan.traceFlags & TraceFlags.SAMPLED) === 0 &&
      isSpanContextValid(parentSpan)
    )
      return trace.wrapSpanContext(parentSpan);
  }
  return trace.getTracer(FW_TRACER_NAME).startSpan(
    messagingSpanName(operation, options),
    {
      kind: KIND[operation],
      attributes: messagingAttributes(operation, options),
      links: options.links,
      root: options.root,
    },
    parent,
  );
}

/**
 * Runs `fn` inside a new messaging span (active for `fn`, so `injectTraceContext()` inside a
 * `create` returns the context to store with the message); a throw marks the span as an error
 * with the exception recorded and is rethrown; the span ends when `fn` settles.
 *
 * @example
 * await inMessagingSpan('create', { destination: 'fw_process_work_item', tenant, processId, workerType }, async () => {
 *   await insertWorkItem({ ...item, trace: injectTraceContext() });
 * });
 * // in the worker:
 * await inMessagingSpan('process', { destination: 'fw_process_work_item', parent: extractTraceContext(item.trace), workerType }, run);
 */
export async function inMessagingSpan<T>(
  operation: MessagingOperation,
  options: MessagingSpanOptions,
  fn: (span: Span) => Promise<T> | T,
): Promise<T> {
  const span = startMessagingSpan(operation, options);
  try {
    return await context.with(trace.setSpan(options.parent ?? context.active(), span), () => fn(span));
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}
