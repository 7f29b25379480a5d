import {
  context,
  createTraceState,
  isSpanContextValid,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
  type Context,
  type Span,
} from '@opentelemetry/api';

/**
 * A W3C trace context as stored with a work item or an outbox command, or sent as message
 * headers: the `traceparent` and `tracestate` header values.
 */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The W3C trace context of `ctx` (default: the active one), ready to be serialized with the
 * message; `{}` when there is no span. Written here in the W3C format whatever propagator the host
 * registered, so what libraries store does not depend on the host's configuration; without a
 * started SDK a context received from upstream still passes through.
 */
export function injectTraceContext(ctx: Context = context.active()): TraceCarrier {
  const spanContext = trace.getSpanContext(ctx);
  if (!spanContext || !isSpanContextValid(spanContext)) return {};
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
  const carrier: TraceCarrier = { traceparent: `00-${spanContext.traceId}-${spanContext.spanId}-${flags}` };
  const state = spanContext.traceState?.serialize();
  if (state) carrier.tracestate = state;
  return carrier;
}

/**
 * The context to start the consumer's spans in: `base` (default the active context) with the
 * remote span of `carrier` as parent. A missing or malformed carrier gives `base` unchanged (a
 * message written before tracing was on is processed all the same, in a new trace).
 */
export function extractTraceContext(
  carrier: TraceCarrier | null | undefined,
  base: Context = context.active(),
): Context {
  const traceparent = typeof carrier?.traceparent === 'string' ? carrier.traceparent.trim().toLowerCase() : '';
  const match = TRACEPARENT.exec(traceparent);
  if (!match) return base;
  const spanContext = {
    traceId: match[1],
    spanId: match[2],
    traceFlags: parseInt(match[3], 16) & TraceFlags.SAMPLED,
    isRemote: true,
    traceState:
      typeof carrier?.tracestate === 'string' && carrier.tracestate ? createTraceState(carrier.tracestate) : undefined,
  };
  return isSpanContextValid(spanContext) ? trace.setSpanContext(base, spanContext) : base;
}

/**
 * A carrier as one text column or field: `traceparent`, or `traceparent,tracestate` when there is
 * a tracestate (a traceparent never holds a comma, so the first comma separates them); `null` for
 * a carrier without a traceparent, so nothing is stored when no trace is active.
 *
 * @example
 * formatTraceContext(injectTraceContext()); // '00-4bf9…-00f0…-01' or null
 */
export function formatTraceContext(carrier: TraceCarrier | null | undefined): string | null {
  if (!carrier?.traceparent) return null;
  return carrier.tracestate ? `${carrier.traceparent},${carrier.tracestate}` : carrier.traceparent;
}

/** The carrier of a {@link formatTraceContext} text; `{}` for null or empty. */
export function parseTraceContext(text: string | null | undefined): TraceCarrier {
  if (!text) return {};
  const comma = text.indexOf(',');
  if (comma < 0) return { traceparent: text };
  const tracestate = text.slice(comma + 1);
  return tracestate ? { traceparent: text.slice(0, comma), tracestate } : { traceparent: text.slice(0, comma) };
}

/** The {@link formatTraceContext} text of `span` (its context as a child's parent); null for a no-op span. */
export function formatSpanTraceContext(span: Span): string | null {
  return formatTraceContext(injectTraceContext(trace.setSpan(ROOT_CONTEXT, span)));
}
