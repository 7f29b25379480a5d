import {
  formatSpanTraceContext,
  formatTraceContext,
  inFwSpan,
  isTracingStarted,
  parseTraceContext,
  startMessagingSpan,
} from '@fw/telemetry';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('a trace context as one text', () => {
  it('is the traceparent, with the tracestate after the first comma when there is one', () => {
    expect(formatTraceContext({ traceparent: TRACEPARENT })).toBe(TRACEPARENT);
    expect(formatTraceContext({ traceparent: TRACEPARENT, tracestate: 'a=1,b=2' })).toBe(`${TRACEPARENT},a=1,b=2`);
    expect(parseTraceContext(`${TRACEPARENT},a=1,b=2`)).toEqual({ traceparent: TRACEPARENT, tracestate: 'a=1,b=2' });
    expect(parseTraceContext(TRACEPARENT)).toEqual({ traceparent: TRACEPARENT });
    expect(parseTraceContext(`${TRACEPARENT},`)).toEqual({ traceparent: TRACEPARENT });
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
