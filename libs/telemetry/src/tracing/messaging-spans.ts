import {
  context,
  SpanKind,
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
  const attributes: Attributes = {
    'messaging.operation.type': operation,
    'messaging.operation.name': operation,
    'messaging.system': options.system ?? 'fw',
    'messaging.destination.name': options.destination,
  };
  const fw: [string, string | null | undefined][] = [
    ['fw.tenant', options.tenant],
    ['fw.process.id', options.processId],
    ['fw.process.type', options.processType],
    ['fw.worker.type', options.workerType],
    ['fw.trigger.id', options.triggerId],
  ];
  for (const [key, value] of fw) if (value !== undefined && value !== null) attributes[key] = value;
  return attributes;
}

/**
 * Starts a messaging span named `<operation> <destination>` with the kind the conventions give
 * (create: PRODUCER, process: CONSUMER, settle: CLIENT). The caller ends it; {@link inMessagingSpan}
 * does that for a function.
 */
export function startMessagingSpan(operation: MessagingOperation, options: MessagingSpanOptions): Span {
  return trace.getTracer(FW_TRACER_NAME).startSpan(
    `${operation} ${options.destination}`,
    {
      kind: KIND[operation],
      attributes: messagingAttributes(operation, options),
      links: options.links,
      root: options.root,
    },
    options.parent ?? context.active(),
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
