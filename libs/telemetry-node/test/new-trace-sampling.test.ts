/**
 * The sampler a host builds from `OTEL_TRACES_SAMPLER`, and the draw that decides a split's linked
 * children in its place: kept children are recorded whole (attributes, link to the split), dropped
 * ones cost the SDK nothing and store the "not sampled" mark, and the share kept is the ratio's.
 */
import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import * as sdk from '@opentelemetry/sdk-trace-node';
import {
  extractTraceContext,
  formatSpanTraceContext,
  makeSplitChildSpanStarter,
  parseTraceContext,
  registerNewTraceSampling,
  startMessagingSpan,
  UNSAMPLED_TRACE_CONTEXT,
} from '@fw/telemetry';
import { makeTraceSampling, readTraceSamplerSettings, type TraceSamplerSettings } from '@fw/telemetry-node';

const SPLIT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('readTraceSamplerSettings', () => {
  it('reads the six samplers, with the ratio of the two ratio samplers (default 1)', () => {
    expect(readTraceSamplerSettings({})).toEqual({ name: 'parentbased_always_on' });
    expect(readTraceSamplerSettings({ OTEL_TRACES_SAMPLER: ' Always_Off ' })).toEqual({ name: 'always_off' });
    expect(readTraceSamplerSettings({ OTEL_TRACES_SAMPLER: 'traceidratio' })).toEqual({
      name: 'traceidratio',
      ratio: 1,
    });
    expect(
      readTraceSamplerSettings({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.01' }),
    ).toEqual({ name: 'parentbased_traceidratio', ratio: 0.01 });
    // The argument belongs to the ratio samplers only.
    expect(readTraceSamplerSettings({ OTEL_TRACES_SAMPLER: 'always_on', OTEL_TRACES_SAMPLER_ARG: 'x' })).toEqual({
      name: 'always_on',
    });
  });

  it('refuses a sampler it cannot build and a ratio outside 0..1, naming the variable', () => {
    expect(() => readTraceSamplerSettings({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(
      /OTEL_TRACES_SAMPLER must be one of always_on, .*got "jaeger_remote"/,
    );
    for (const bad of ['1.5', '-0.1', 'half', 'NaN'])
      expect(() =>
        readTraceSamplerSettings({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: bad }),
      ).toThrow(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 for parentbased_traceidratio, got "${bad}"`);
  });
});

describe("a split's linked children under the host's sampler", () => {
  // An exporter per provider: a provider's shutdown stops its exporter for good.
  let exporter: sdk.InMemorySpanExporter;
  let provider: sdk.NodeTracerProvider | undefined;

  /** Registers a provider with the sampler of `settings`, its draw registered as a host does. */
  function useSampler(settings: TraceSamplerSettings, register = true): void {
    const { sampler, newTraces } = makeTraceSampling(settings, sdk);
    exporter = new sdk.InMemorySpanExporter();
    provider = new sdk.NodeTracerProvider({ sampler, spanProcessors: [new sdk.SimpleSpanProcessor(exporter)] });
    provider.register();
    if (register && newTraces) registerNewTraceSampling(provider, newTraces);
  }

  afterEach(async () => {
    await provider?.shutdown();
    trace.disable();
    context.disable();
  });

  /** Starts and ends the `create` spans of `count` linked children of a sampled split; their stored texts. */
  function splitInto(count: number): Array<string | null> {
    const parent = extractTraceContext(parseTraceContext(SPLIT), ROOT_CONTEXT);
    const start = makeSplitChildSpanStarter(
      count,
      { destination: 'fw_process', parent, threshold: 10 },
      (i: number) => ({ processId: `child-${i}`, processType: 'leaf' }),
    );
    return Array.from({ length: count }, (_, i) => {
      const span = start(i);
      const text = formatSpanTraceContext(span);
      span.end();
      return text;
    });
  }

  it('keeps about the ratio of them, each whole in a trace of its own; the rest store the mark and record nothing', () => {
    useSampler({ name: 'parentbased_traceidratio', ratio: 0.25 });
    const texts = splitInto(4000);
    const spans = exporter.getFinishedSpans();
    const kept = texts.filter((t) => t !== UNSAMPLED_TRACE_CONTEXT);
    // 1,000 expected; a binomial's standard deviation here is 27, so this fails only when the draw is wrong.
    expect(kept.length).toBeGreaterThan(850);
    expect(kept.length).toBeLessThan(1150);
    expect(spans).toHaveLength(kept.length);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(kept.length);
    for (const span of spans) {
      expect(span.spanContext().traceFlags & TraceFlags.SAMPLED).toBe(TraceFlags.SAMPLED);
      expect(span.parentSpanContext).toBeUndefined();
      expect(span.attributes).toMatchObject({ 'fw.process.type': 'leaf', 'messaging.operation.type': 'create' });
      expect(span.links.map((l) => [l.context.spanId, l.attributes?.['fw.link']])).toEqual([
        ['b7ad6b7169203331', 'split'],
      ]);
    }
    expect(new Set(spans.map((s) => s.attributes['fw.process.id'])).size).toBe(kept.length);
    // What a kept child's consumer starts under its stored context is in the child's trace and kept.
    const consumer = startMessagingSpan('process', {
      destination: 'fw_process_work_item',
      parent: extractTraceContext(parseTraceContext(kept[0])),
    });
    expect(consumer.isRecording()).toBe(true);
    expect(consumer.spanContext().traceId).toBe(kept[0]!.slice(3, 35));
    consumer.end();
  });

  it('keeps every child under an always-on sampler and none under an always-off one', async () => {
    useSampler({ name: 'parentbased_always_on' });
    expect(splitInto(50).filter((t) => t === UNSAMPLED_TRACE_CONTEXT)).toHaveLength(0);
    expect(exporter.getFinishedSpans()).toHaveLength(50);
    await provider!.shutdown();
    trace.disable();
    useSampler({ name: 'parentbased_always_off' });
    expect(splitInto(50).every((t) => t === UNSAMPLED_TRACE_CONTEXT)).toBe(true);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it("leaves plain traceidratio and a provider without a registered draw to the SDK's sampler", async () => {
    // traceidratio 0 drops every new trace by its id: with no draw, each child asks it.
    useSampler({ name: 'traceidratio', ratio: 0 });
    expect(makeTraceSampling({ name: 'traceidratio', ratio: 0 }, sdk).newTraces).toBeUndefined();
    expect(splitInto(20).every((t) => t === UNSAMPLED_TRACE_CONTEXT)).toBe(true);
    await provider!.shutdown();
    trace.disable();
    // A draw registered for another provider does not apply to this one: the SDK keeps all here.
    const elsewhere = new sdk.NodeTracerProvider();
    registerNewTraceSampling(elsewhere, { keepNewTrace: () => false });
    useSampler({ name: 'always_on' }, false);
    expect(splitInto(20).filter((t) => t === UNSAMPLED_TRACE_CONTEXT)).toHaveLength(0);
    expect(exporter.getFinishedSpans()).toHaveLength(20);
  });
});
