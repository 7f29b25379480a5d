/**
 * What the framework's messaging spans cost under a real SDK: a parent that was not sampled gets
 * no child spans (its context passes through unchanged), a sampled one gets real children, and a
 * split's child above the inline threshold always asks the sampler for a trace of its own.
 */
import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import {
  formatSpanTraceContext,
  inMessagingSpan,
  parseTraceContext,
  extractTraceContext,
  startMessagingSpan,
  startSplitChildSpan,
  UNSAMPLED_TRACE_CONTEXT,
} from '@fw/telemetry';
import {
  AlwaysOnSampler,
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const SPAN_ID = 'b7ad6b7169203331';

describe('messaging spans under sampled and unsampled parents', () => {
  const exporter = new InMemorySpanExporter();
  let provider: NodeTracerProvider;

  beforeAll(() => {
    // Always on: every span the framework starts is recorded, so what is not recorded was not started.
    provider = new NodeTracerProvider({
      sampler: new AlwaysOnSampler(),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    provider.register();
  });
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
  });
  afterEach(() => exporter.reset());

  it('starts no span under an unsampled parent and hands on the parent context unchanged', async () => {
    const carrier = `00-${TRACE_ID}-${SPAN_ID}-00`;
    const parent = extractTraceContext(parseTraceContext(carrier), ROOT_CONTEXT);
    const create = startMessagingSpan('create', { destination: 'fw_process', parent, processId: 'p1' });
    expect(create.isRecording()).toBe(false);
    expect(create.spanContext()).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: TraceFlags.NONE });
    // Stored as the "not sampled" mark rather than the 55 characters of ids nothing recorded.
    expect(formatSpanTraceContext(create)).toBe(UNSAMPLED_TRACE_CONTEXT);
    create.end();
    const seen = await inMessagingSpan('process', { destination: 'fw_process_work_item', parent }, (span) =>
      trace.getActiveSpan() === span ? span.spanContext() : 'not the active span',
    );
    expect(seen).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: TraceFlags.NONE });
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it('records a child of a sampled parent in the parent trace', () => {
    const parent = extractTraceContext(parseTraceContext(`00-${TRACE_ID}-${SPAN_ID}-01`), ROOT_CONTEXT);
    const span = startMessagingSpan('settle', { destination: 'fw_process_work_item', parent, workerType: 'w' });
    span.end();
    const [finished] = exporter.getFinishedSpans();
    expect(finished.spanContext().traceId).toBe(TRACE_ID);
    expect(finished.parentSpanContext?.spanId).toBe(SPAN_ID);
    expect(finished.attributes['fw.worker.type']).toBe('w');
  });

  it('asks the sampler for a linked child of an unsampled split: a trace of its own', () => {
    const parent = extractTraceContext(parseTraceContext(`00-${TRACE_ID}-${SPAN_ID}-00`), ROOT_CONTEXT);
    const child = startSplitChildSpan(1000, { destination: 'fw_process', parent, threshold: 100 });
    child.end();
    expect(child.isRecording()).toBe(false); // ended
    const [finished] = exporter.getFinishedSpans();
    expect(finished.spanContext().traceId).not.toBe(TRACE_ID);
    expect(finished.spanContext().traceFlags & TraceFlags.SAMPLED).toBe(TraceFlags.SAMPLED);
    expect(finished.links.map((l) => l.context.spanId)).toEqual([SPAN_ID]);
  });
});
