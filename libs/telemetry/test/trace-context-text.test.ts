import {
  formatSpanTraceContext,
  formatTraceContext,
  extractTraceContext,
  inFwSpan,
  isTracingStarted,
  isUnsampledTraceContext,
  parseTraceContext,
  startMessagingSpan,
  UNSAMPLED_TRACE_CONTEXT,
  unsampledSpanOf,
} from '@fw/telemetry';
import { trace, TraceFlags } from '@opentelemetry/api';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('a trace context as one text', () => {
  it('is the traceparent, with the tracestate after the first comma when there is one', () => {
    expect(formatTraceContext({ traceparent: TRACEPARENT })).toBe(TRACEPARENT);
    expect(formatTraceContext({ traceparent: TRACEPARENT, tracestate: 'a=1,b=2' })).toBe(`${TRACEPARENT},a=1,b=2`);
    expect(parseTraceContext(`${TRACEPARENT},a=1,b=2`)).toEqual({ traceparent: TRACEPARENT, tracestate: 'a=1,b=2' });
    expect(parseTraceContext(TRACEPARENT)).toEqual({ traceparent: TRACEPARENT });
    expect(parseTraceContext(`${TRACEPARENT},`)).toEqual({ traceparent: TRACEPARENT });
  });

  it('is the one-character mark for a trace that is not sampled, read back as new random ids that are not sampled', () => {
    const unsampled = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';
    expect(formatTraceContext({ traceparent: unsampled })).toBe(UNSAMPLED_TRACE_CONTEXT);
    expect(formatTraceContext({ traceparent: unsampled, tracestate: 'a=1' })).toBe(UNSAMPLED_TRACE_CONTEXT);
    expect(
      formatSpanTraceContext(
        trace.wrapSpanContext({
          traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
          spanId: '00f067aa0ba902b7',
          traceFlags: TraceFlags.NONE,
        }),
      ),
    ).toBe(UNSAMPLED_TRACE_CONTEXT);
    expect(
      formatSpanTraceContext(
        trace.wrapSpanContext({
          traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
          spanId: '00f067aa0ba902b7',
          traceFlags: TraceFlags.SAMPLED,
        }),
      ),
    ).toBe(TRACEPARENT);

    const first = parseTraceContext(UNSAMPLED_TRACE_CONTEXT).traceparent!;
    const second = parseTraceContext(UNSAMPLED_TRACE_CONTEXT).traceparent!;
    expect(first).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(second).not.toBe(first);
    const context = trace.getSpanContext(extractTraceContext(parseTraceContext(UNSAMPLED_TRACE_CONTEXT)));
    expect(context?.traceFlags).toBe(TraceFlags.NONE);
    expect(context?.isRemote).toBe(true);
  });

  it('tells the texts that say "not sampled" and gives their non-recording span', () => {
    const unsampled = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';
    expect(isUnsampledTraceContext(UNSAMPLED_TRACE_CONTEXT)).toBe(true);
    expect(isUnsampledTraceContext(unsampled)).toBe(true);
    for (const other of [TRACEPARENT, `${TRACEPARENT},a=1`, null, undefined, '', 'garbage', '00-xyz-00'])
      expect(isUnsampledTraceContext(other)).toBe(false);

    const kept = unsampledSpanOf(unsampled)!;
    expect(kept.isRecording()).toBe(false);
    expect(kept.spanContext()).toMatchObject({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.NONE,
    });
    const fresh = unsampledSpanOf(UNSAMPLED_TRACE_CONTEXT)!;
    expect(fresh.spanContext().traceFlags).toBe(TraceFlags.NONE);
    expect(fresh.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(unsampledSpanOf(TRACEPARENT)).toBeUndefined();
    expect(unsampledSpanOf('00-00000000000000000000000000000000-00f067aa0ba902b7-00')).toBeUndefined();
  });

  it('is null without a traceparent, and an empty carrier comes back from null', () => {
    expect(formatTraceContext({})).toBeNull();
    expect(formatTraceContext({ tracestate: 'a=1' })).toBeNull();
    expect(formatTraceContext(undefined)).toBeNull();
    expect(parseTraceContext(null)).toEqual({});
    expect(parseTraceContext('')).toEqual({});
  });

  it('stores nothing for the no-op spans of a process without an SDK', async () => {
    expect(isTracingStarted()).toBe(false);
    expect(formatSpanTraceContext(startMessagingSpan('create', { destination: 'fw_process' }))).toBeNull();
    await expect(inFwSpan('fw.trigger', { triggerId: 't' }, () => 42)).resolves.toBe(42);
    await expect(
      inFwSpan('fw.trigger', { triggerId: 't' }, () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
  });
});
