import { SpanKind, trace } from '@opentelemetry/api';
import {
  extractTraceContext,
  injectTraceContext,
  inMessagingSpan,
  startSplitChildSpan,
  type TraceCarrier,
} from '@fw/telemetry';
import { startTelemetry } from '@fw/telemetry-node';
import { exportedSpans, startOtlpReceiver, type ExportedSpan, type OtlpReceiver } from '@fw/test-support';

const OTEL_VARIABLES = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_SERVICE_NAME',
  'OTEL_SDK_DISABLED',
  'OTEL_TRACES_EXPORTER',
  'OTEL_TRACES_SAMPLER',
];
const QUEUE = 'fw_process_work_item';
const ITEM = {
  tenant: 'acme',
  processId: '6f1c1b8e-0d5e-4f43-9a57-3f0d8c2f9b11',
  processType: 'invoice',
  workerType: 'mailer',
};

/** Enqueue, hand the carrier over as JSON text (as a work item stores it), then process, settle and split. */
async function createProcessSettle(): Promise<TraceCarrier> {
  let stored = '';
  await inMessagingSpan('create', { destination: QUEUE, ...ITEM, triggerId: 'nightly' }, () => {
    stored = JSON.stringify(injectTraceContext());
  });
  const carrier = JSON.parse(stored) as TraceCarrier;
  await inMessagingSpan('process', { destination: QUEUE, ...ITEM, parent: extractTraceContext(carrier) }, async () => {
    await inMessagingSpan('settle', { destination: QUEUE, ...ITEM }, () => undefined);
    startSplitChildSpan(3, { destination: 'fw_process_outbox', processType: 'invoice-line', threshold: 5 }).end();
    startSplitChildSpan(6, { destination: 'fw_process_outbox', processType: 'invoice-line', threshold: 5 }).end();
  });
  await expect(
    inMessagingSpan('process', { destination: QUEUE, ...ITEM, parent: extractTraceContext(carrier) }, () => {
      throw new Error('worker failed');
    }),
  ).rejects.toThrow('worker failed');
  return carrier;
}

describe('startTelemetry exports OTLP traces', () => {
  const saved = Object.fromEntries(OTEL_VARIABLES.map((name) => [name, process.env[name]]));
  let receiver: OtlpReceiver;

  beforeEach(async () => {
    for (const name of OTEL_VARIABLES) delete process.env[name];
    receiver = await startOtlpReceiver();
  });
  afterEach(async () => {
    await receiver.close();
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });

  it('http/json: create → carrier → process → settle, with kinds, attributes, parents and the split link', async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `${receiver.endpoint}/`;
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
    process.env.OTEL_SERVICE_NAME = 'fw-telemetry-test';
    const telemetry = await startTelemetry({ serviceName: 'overridden-by-env' });
    expect(telemetry).toMatchObject({ exporting: true, url: `${receiver.endpoint}/v1/traces` });
    let carrier: TraceCarrier;
    try {
      carrier = await createProcessSettle();
      await telemetry.forceFlush();
    } finally {
      await telemetry.shutdown();
    }
    expect(receiver.received.length).toBeGreaterThan(0);
    expect(receiver.received.every((r) => r.contentType.startsWith('application/json'))).toBe(true);
    const spans = exportedSpans(receiver.received);
    const named = (name: string): ExportedSpan[] => spans.filter((s) => s.name === name);
    expect(spans.map((s) => s.name).sort()).toEqual([
      'create fw_process_outbox',
      'create fw_process_outbox',
      `create ${QUEUE}`,
      `process ${QUEUE}`,
      `process ${QUEUE}`,
      `settle ${QUEUE}`,
    ]);
    const [create] = named(`create ${QUEUE}`);
    const [processing, failed] = named(`process ${QUEUE}`);
    const [settle] = named(`settle ${QUEUE}`);
    expect(create.resource['service.name']).toBe('fw-telemetry-test');
    expect(carrier.traceparent).toBe(`00-${create.traceId}-${create.spanId}-01`);

    expect(create.kind).toBe(SpanKind.PRODUCER + 1); // OTLP numbers kinds from 1 (INTERNAL)
    expect(processing.kind).toBe(SpanKind.CONSUMER + 1);
    expect(settle.kind).toBe(SpanKind.CLIENT + 1);
    expect(create.parentSpanId).toBeUndefined();
    expect(processing).toMatchObject({ traceId: create.traceId, parentSpanId: create.spanId });
    expect(settle).toMatchObject({ traceId: create.traceId, parentSpanId: processing.spanId });
    expect(create.attributes).toEqual({
      'messaging.operation.type': 'create',
      'messaging.operation.name': 'create',
      'messaging.system': 'fw',
      'messaging.destination.name': QUEUE,
      'fw.tenant': 'acme',
      'fw.process.id': ITEM.processId,
      'fw.process.type': 'invoice',
      'fw.worker.type': 'mailer',
      'fw.trigger.id': 'nightly',
    });
    expect(processing.attributes).toMatchObject({ 'messaging.operation.type': 'process', 'fw.worker.type': 'mailer' });
    expect(settle.attributes).toMatchObject({ 'messaging.operation.type': 'settle', 'fw.process.id': ITEM.processId });

    const outbox = named('create fw_process_outbox');
    const inline = outbox.find((s) => s.traceId === create.traceId) as ExportedSpan;
    const linked = outbox.find((s) => s.traceId !== create.traceId) as ExportedSpan;
    expect(inline).toMatchObject({ traceId: create.traceId, parentSpanId: processing.spanId, links: [] });
    expect(linked.traceId).not.toBe(create.traceId);
    expect(linked.parentSpanId).toBeUndefined();
    expect(linked.links).toHaveLength(1);
    expect(linked.links).toMatchObject([
      { traceId: create.traceId, spanId: processing.spanId, attributes: { 'fw.link': 'split' } },
    ]);

    expect(failed).toMatchObject({ traceId: create.traceId, parentSpanId: create.spanId });
    expect(failed.status).toMatchObject({ code: 2, message: 'worker failed' });
    expect(failed.events.map((e) => e.name)).toEqual(['exception']);
  });

  it('http/protobuf (the default protocol) to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', async () => {
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `${receiver.endpoint}/v1/traces`;
    const telemetry = await startTelemetry({ serviceName: 'fw-proto-host' });
    try {
      await createProcessSettle();
      await telemetry.forceFlush();
    } finally {
      await telemetry.shutdown();
    }
    expect(receiver.received.length).toBeGreaterThan(0);
    expect(receiver.received.every((r) => r.contentType === 'application/x-protobuf')).toBe(true);
    const bytes = Buffer.concat(receiver.received.map((r) => r.body)).toString('latin1');
    for (const text of [`process ${QUEUE}`, `settle ${QUEUE}`, 'fw-proto-host', 'fw.process.id', ITEM.processId])
      expect(bytes).toContain(text);
  });

  it('without an endpoint, or with OTEL_SDK_DISABLED, starts nothing and sends nothing', async () => {
    const withoutEndpoint = await startTelemetry();
    expect(withoutEndpoint).toMatchObject({ exporting: false, reason: 'no OTEL_EXPORTER_OTLP_ENDPOINT' });
    const carrier = await createProcessSettle();
    expect(carrier).toEqual({});
    expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(false);
    await withoutEndpoint.forceFlush();
    await withoutEndpoint.shutdown();

    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.endpoint;
    process.env.OTEL_SDK_DISABLED = 'true';
    const disabled = await startTelemetry();
    expect(disabled).toMatchObject({ exporting: false, reason: 'OTEL_SDK_DISABLED is true' });
    await createProcessSettle();
    await disabled.shutdown();
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toEqual([]);
  });

  it('refuses a second start while one is running', async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.endpoint;
    const telemetry = await startTelemetry();
    try {
      await expect(startTelemetry()).rejects.toThrow('startTelemetry: tracing is already started in this process');
    } finally {
      await telemetry.shutdown();
      await telemetry.shutdown();
    }
  });
});
