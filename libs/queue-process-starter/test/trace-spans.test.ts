/**
 * The spans of a worker message with the OpenTelemetry SDK started as a host starts it (OTLP/JSON
 * to a local receiver): the publish continues the launch's context, the consumer's `process` span
 * continues the publish from the `traceparent` header, the handler runs inside it, and the ack is
 * a `settle` span under it.
 */
import { injectTraceContext } from '@fw/telemetry';
import { startTelemetry, type Telemetry } from '@fw/telemetry-node';
import { exportedSpans, startOtlpReceiver, type ExportedSpan, type OtlpReceiver } from '@fw/test-support';
import { makeQueueProcessStarter, makeQueueWorkerConsumer, type QueueConsumerEvent } from '../src';
import { BROKER_URL, openTestQueues, recordingSink, waitFor, workerDto, type TestQueues } from './support';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const LAUNCH_SPAN_ID = '00f067aa0ba902b7';

describe('spans of a worker message (RabbitMQ, OpenTelemetry SDK started)', () => {
  let queues: TestQueues;
  let receiver: OtlpReceiver;
  let telemetry: Telemetry;
  const saved = { ...process.env };

  beforeAll(async () => {
    queues = await openTestQueues();
    receiver = await startOtlpReceiver();
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    telemetry = await startTelemetry({ serviceName: 'fw-queue-trace-test' });
  });

  afterAll(async () => {
    await telemetry?.shutdown();
    process.env = saved;
    await receiver?.close();
    await queues?.cleanup();
  });

  it('publishes under the launch, processes under the publish (traceparent header), settles under the process', async () => {
    const queue = queues.name('spans');
    const starter = makeQueueProcessStarter({ url: BROKER_URL });
    const events: QueueConsumerEvent[] = [];
    const seenInHandler: string[] = [];
    const consumer = makeQueueWorkerConsumer({
      url: BROKER_URL,
      queues: [queue],
      sink: recordingSink(),
      handler: async () => void seenInHandler.push(injectTraceContext().traceparent ?? ''),
      onEvent: (e) => events.push(e),
    });
    try {
      await consumer.start();
      const worker = workerDto({
        tenant: 'acme',
        config: { queue },
        traceContext: `00-${TRACE_ID}-${LAUNCH_SPAN_ID}-01`,
      });
      await starter.publish(worker);
      await waitFor(() => events.some((e) => e.type === 'acked'), 15_000, 'the message to be acked');
    } finally {
      await consumer.stop({ timeoutMillis: 2000 });
      await starter.close();
    }
    await telemetry.forceFlush();
    const spans = exportedSpans(receiver.received).filter((s) => s.attributes['messaging.destination.name'] === queue);
    const named = (name: string): ExportedSpan => {
      const found = spans.filter((s) => s.name === name);
      expect(found).toHaveLength(1);
      return found[0];
    };
    const publish = named(`create ${queue}`);
    const processing = named(`process ${queue}`);
    const settle = named(`settle ${queue}`);
    expect(publish).toMatchObject({ traceId: TRACE_ID, parentSpanId: LAUNCH_SPAN_ID });
    expect(processing).toMatchObject({ traceId: TRACE_ID, parentSpanId: publish.spanId });
    expect(settle).toMatchObject({ traceId: TRACE_ID, parentSpanId: processing.spanId });
    for (const span of [publish, processing, settle])
      expect(span.attributes).toMatchObject({
        'messaging.system': 'rabbitmq',
        'fw.tenant': 'acme',
        'fw.process.id': expect.any(String),
        'fw.worker.type': 'EXECUTOR',
      });
    expect(seenInHandler).toEqual([`00-${TRACE_ID}-${processing.spanId}-01`]);
  }, 60_000);
});
