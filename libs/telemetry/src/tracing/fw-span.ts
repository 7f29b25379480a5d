import {
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  context,
  trace,
  type Attributes,
  type Span,
  type TracerProvider,
} from '@opentelemetry/api';
import { FW_TRACER_NAME, type FwSpanAttributes } from './messaging-spans';

const FW_ATTRIBUTE_NAMES: Record<keyof FwSpanAttributes, string> = {
  tenant: 'fw.tenant',
  processId: 'fw.process.id',
  processType: 'fw.process.type',
  workerType: 'fw.worker.type',
  triggerId: 'fw.trigger.id',
};

/**
 * Runs `fn` inside an internal span `name` with the `fw.*` attributes given (a trigger firing, for
 * example), under the active context; like `inMessagingSpan`, a throw marks the span as an error
 * with the exception recorded and is rethrown.
 *
 * @example
 * await inFwSpan('fw.trigger', { triggerId, tenant, processType }, () => dispatch(dto));
 */
export async function inFwSpan<T>(
  name: string,
  attributes: FwSpanAttributes,
  fn: (span: Span) => Promise<T> | T,
): Promise<T> {
  const fw: Attributes = {};
  for (const [key, name] of Object.entries(FW_ATTRIBUTE_NAMES) as [keyof FwSpanAttributes, string][]) {
    const value = attributes[key];
    if (value !== undefined && value !== null) fw[name] = value;
  }
  const span = trace.getTracer(FW_TRACER_NAME).startSpan(name, { kind: SpanKind.INTERNAL, attributes: fw });
  try {
    return await context.with(trace.setSpan(context.active(), span), () => fn(span));
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** A started span, as libraries hold one between its start and its end (the `Span` of `@opentelemetry/api`). */
export type TracedSpan = Span;

/** Runs `fn` with `span` active (what it starts becomes the span's child); returns what `fn` returns. */
export function inSpanContext<T>(span: Span, fn: () => T): T {
  return context.with(trace.setSpan(context.active(), span), fn);
}

/**
 * True for a span of a trace that is not kept: it records nothing and its context says "not
 * sampled", so any span started under it would be that context again. Hot paths hand such a span
 * on instead of starting children of it.
 */
export function isDroppedSpan(span: Span): boolean {
  return !span.isRecording() && (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0;
}

/** Ends `span`, as an error with the exception recorded when `failure` is given. */
export function endSpan(span: Span, failure?: unknown): void {
  if (failure !== undefined) {
    span.recordException(failure instanceof Error ? failure : String(failure));
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: failure instanceof Error ? failure.message : String(failure),
    });
  }
  span.end();
}

/**
 * True when a host registered an OpenTelemetry SDK (spans are recorded). Hot paths (a split of
 * thousands of children, a claimed batch) ask once and skip their spans without one, where even
 * no-op spans would cost some microseconds each.
 */
export function isTracingStarted(): boolean {
  const provider = trace.getTracerProvider();
  if (!(provider instanceof ProxyTracerProvider)) return true;
  // Asking the delegate for a tracer costs the SDK a key and a map lookup: the answer is kept
  // for as long as the delegate stays the same (registering or disabling an SDK changes it).
  const delegate = provider.getDelegate();
  if (delegate !== started.delegate)
    started = { delegate, answer: provider.getDelegateTracer(FW_TRACER_NAME) !== undefined };
  return started.answer;
}

let started: { delegate: TracerProvider | undefined; answer: boolean } = { delegate: undefined, answer: false };
