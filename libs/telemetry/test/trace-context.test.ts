import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import {
  childrenInlineThreshold,
  extractTraceContext,
  injectTraceContext,
  messagingAttributes,
  splitChildPlacement,
} from '@fw/telemetry';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const SPAN_ID = 'b7ad6b7169203331';

describe('W3C trace context in carriers', () => {
  it('extracts a traceparent and tracestate and injects them back unchanged', () => {
    const carrier = { traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`, tracestate: 'vendor=abc,other=1' };
    const extracted = extractTraceContext(carrier, ROOT_CONTEXT);
    expect(trace.getSpanContext(extracted)).toMatchObject({
      traceId: TRACE_ID,
      spanId: SPAN_ID,
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
    expect(injectTraceContext(extracted)).toEqual(carrier);
  });

  it('passes an unsampled context through without tracestate', () => {
    const carrier = { traceparent: `00-${TRACE_ID}-${SPAN_ID}-00` };
    expect(injectTraceContext(extractTraceContext(carrier, ROOT_CONTEXT))).toEqual(carrier);
  });

  it('gives the base context for a missing or malformed carrier', () => {
    for (const carrier of [
      undefined,
      null,
      {},
      { traceparent: 'garbage' },
      { traceparent: `00-${'0'.repeat(32)}-${SPAN_ID}-01` },
      { traceparent: `00-${TRACE_ID}-${'0'.repeat(16)}-01` },
      { traceparent: `01-${TRACE_ID}-${SPAN_ID}-01-extra` },
    ])
      expect(extractTraceContext(carrier, ROOT_CONTEXT)).toBe(ROOT_CONTEXT);
  });

  it('injects nothing when there is no span', () => {
    expect(injectTraceContext()).toEqual({});
    expect(injectTraceContext(context.active())).toEqual({});
  });
});

describe('messaging attributes', () => {
  it('sets the messaging.* attributes and only the fw.* ones given', () => {
    expect(
      messagingAttributes('settle', { destination: 'orders', system: 'rabbitmq', tenant: null, workerType: 'w' }),
    ).toEqual({
      'messaging.operation.type': 'settle',
      'messaging.operation.name': 'settle',
      'messaging.system': 'rabbitmq',
      'messaging.destination.name': 'orders',
      'fw.worker.type': 'w',
    });
  });
});

describe('children of a split', () => {
  it('FW_TRACE_CHILDREN_INLINE: default 100, a whole number, else an error naming it', () => {
    expect(childrenInlineThreshold({})).toBe(100);
    expect(childrenInlineThreshold({ FW_TRACE_CHILDREN_INLINE: '0' })).toBe(0);
    expect(childrenInlineThreshold({ FW_TRACE_CHILDREN_INLINE: ' 250 ' })).toBe(250);
    expect(() => childrenInlineThreshold({ FW_TRACE_CHILDREN_INLINE: '-1' })).toThrow(
      'FW_TRACE_CHILDREN_INLINE must be a whole number >= 0, got "-1"',
    );
    expect(() => childrenInlineThreshold({ FW_TRACE_CHILDREN_INLINE: 'many' })).toThrow('FW_TRACE_CHILDREN_INLINE');
  });

  it('inline up to the threshold, linked above it', () => {
    expect(splitChildPlacement(100, 100)).toBe('inline');
    expect(splitChildPlacement(101, 100)).toBe('linked');
    expect(splitChildPlacement(1, 0)).toBe('linked');
  });
});
