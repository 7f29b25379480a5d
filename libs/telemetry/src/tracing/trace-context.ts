import {
  context,
  createTraceState,
  isSpanContextValid,
  INVALID_TRACEID,
  trace,
  TraceFlags,
  type Context,
  type Span,
  type SpanContext,
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
  const carrier: TraceCarrier = { traceparent: formatTraceparent(spanContext) };
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
 * The stored text of a trace that is not sampled: a one-character mark instead of its
 * `traceparent`. Nothing of such a trace is recorded, so its ids lead nowhere; what its consumers
 * need is the decision, so that their own spans are not sampled afresh as new traces. The mark
 * keeps the 55 bytes of a traceparent out of every row and every row version of the leaves of a
 * large fan-out (all but one in a hundred with a sampling ratio of 0.01); read back, it stands
 * for a context with new random ids and the "not sampled" flag.
 */
export const UNSAMPLED_TRACE_CONTEXT = '-';

/** Length of a version-00 `traceparent`: `00-<32 hex>-<16 hex>-<2 hex>`. */
const TRACEPARENT_LENGTH = 55;

/** True when the trace flags of a version-00 `traceparent` (its last two characters) leave the sampled bit unset. */
function flagsUnsampled(traceparent: string): boolean {
  return (parseInt(traceparent.slice(-2), 16) & TraceFlags.SAMPLED) === 0;
}

/**
 * A carrier as one text column or field: `traceparent`, or `traceparent,tracestate` when there is
 * a tracestate (a traceparent never holds a comma, so the first comma separates them);
 * {@link UNSAMPLED_TRACE_CONTEXT} for a trace that is not sampled (its tracestate too is dropped:
 * nothing downstream records it); `null` for a carrier without a traceparent, so nothing is stored
 * when no trace is active.
 *
 * @example
 * formatTraceContext(injectTraceContext()); // '00-4bf9…-00f0…-01', '-' (not sampled) or null
 */
export function formatTraceContext(carrier: TraceCarrier | null | undefined): string | null {
  if (!carrier?.traceparent) return null;
  if (carrier.traceparent.length === TRACEPARENT_LENGTH && flagsUnsampled(carrier.traceparent))
    return UNSAMPLED_TRACE_CONTEXT;
  return carrier.tracestate ? `${carrier.traceparent},${carrier.tracestate}` : carrier.traceparent;
}

/**
 * The carrier of a {@link formatTraceContext} text; `{}` for null or empty. The
 * {@link UNSAMPLED_TRACE_CONTEXT} mark gives a `traceparent` with new random ids and flags `00`.
 */
export function parseTraceContext(text: string | null | undefined): TraceCarrier {
  if (!text) return {};
  if (text === UNSAMPLED_TRACE_CONTEXT) return { traceparent: formatTraceparent(unsampledSpanContext()) };
  const comma = text.indexOf(',');
  if (comma < 0) return { traceparent: text };
  const tracestate = text.slice(comma + 1);
  return tracestate ? { traceparent: text.slice(0, comma), tracestate } : { traceparent: text.slice(0, comma) };
}

/** The `traceparent` of a span context. */
function formatTraceparent(spanContext: SpanContext): string {
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
}

/** The {@link formatTraceContext} text of `span` (its context as a child's parent); null for a no-op span. */
export function formatSpanTraceContext(span: Span): string | null {
  // Read from the span itself rather than through a context made for it: this runs for every
  // child of a split of thousands.
  const spanContext = span.spanContext();
  if ((spanContext.traceFlags & TraceFlags.SAMPLED) === 0)
    // The ids of a span that is not sampled are either generated (valid) or the no-op span's zeros.
    return spanContext.traceId === INVALID_TRACEID ? null : UNSAMPLED_TRACE_CONTEXT;
  if (!isSpanContextValid(spanContext)) return null;
  const traceparent = formatTraceparent(spanContext);
  const state = spanContext.traceState?.serialize();
  return state ? `${traceparent},${state}` : traceparent;
}

/**
 * A remote context with new random ids that is not sampled. The ids come from a random UUID (the
 * cheapest source of random hex the platform has; its six fixed version and variant bits do not
 * matter for ids that are never recorded) and are never zero: the version digit is 4.
 */
function unsampledSpanContext(): SpanContext {
  const uuid = crypto.randomUUID();
  const traceId = uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(14, 18) + uuid.slice(19, 23) + uuid.slice(24);
  return { traceId, spanId: traceId.slice(8, 24), traceFlags: TraceFlags.NONE, isRemote: true };
}

/**
 * True when a stored {@link formatTraceContext} text says "not sampled": the
 * {@link UNSAMPLED_TRACE_CONTEXT} mark, or a lone `traceparent` with flags `00` (as rows written
 * before the mark hold).
 */
export function isUnsampledTraceContext(text: string | null | undefined): boolean {
  if (text === UNSAMPLED_TRACE_CONTEXT) return true;
  return (
    typeof text === 'string' && text.length === TRACEPARENT_LENGTH && text.startsWith('00-') && flagsUnsampled(text)
  );
}

/**
 * The span that stands for a stored text that says "not sampled" ({@link isUnsampledTraceContext}):
 * a non-recording span with that context (for the mark, new random ids), which is what
 * {@link extractTraceContext} followed by a span start under it gives, without the parsing, the
 * context objects and the span. Undefined for any other text (sampled, malformed, null), which
 * takes the general path.
 *
 * Most leaves of a large fan-out are in traces that are not kept; their launch and their worker
 * pass the mark on through this instead of spans of their own.
 *
 * @example
 * const span = unsampledSpanOf(item.traceContext) ?? startMessagingSpan('process', { ...options, parent: extractTraceContext(parseTraceContext(item.traceContext)) });
 */
export function unsampledSpanOf(text: string | null | undefined): Span | undefined {
  if (!isUnsampledTraceContext(text)) return undefined;
  if (text === UNSAMPLED_TRACE_CONTEXT) return trace.wrapSpanContext(unsampledSpanContext());
  const spanContext = {
    traceId: text!.slice(3, 35),
    spanId: text!.slice(36, 52),
    traceFlags: TraceFlags.NONE,
    isRemote: true,
  };
  return isSpanContextValid(spanContext) ? trace.wrapSpanContext(spanContext) : undefined;
}
