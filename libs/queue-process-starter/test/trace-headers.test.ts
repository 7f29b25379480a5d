import { makeQueueProcessStarter, type QueueProcessStarter } from '../src';
import { BROKER_URL, openTestQueues, workerDto, type TestQueues } from './support';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('trace context headers of worker messages (RabbitMQ)', () => {
  let queues: TestQueues;
  let starter: QueueProcessStarter;

  beforeAll(async () => {
    queues = await openTestQueues();
    starter = makeQueueProcessStarter({ url: BROKER_URL });
  });

  afterAll(async () => {
    await starter?.close();
    await queues?.cleanup();
  });

  it("sends the WorkerDto's traceContext as traceparent and tracestate headers", async () => {
    const queue = queues.name('trace');
    await starter.publish(workerDto({ config: { queue }, traceContext: `${TRACEPARENT},fw=1,other=2` }));
    const message = await queues.get(queue);
    if (message === false) throw new Error('no message arrived');
    // Without an OpenTelemetry SDK the publish span is a no-op: the launch's context goes on as it came.
    expect(message.properties.headers).toMatchObject({ traceparent: TRACEPARENT, tracestate: 'fw=1,other=2' });
  });

  it('sends no trace headers for a worker launched without a trace', async () => {
    const queue = queues.name('untraced');
    await starter.publish(workerDto({ config: { queue } }));
    const message = await queues.get(queue);
    if (message === false) throw new Error('no message arrived');
    const headers: Record<string, unknown> = message.properties.headers ?? {};
    expect(headers).not.toHaveProperty('traceparent');
    expect(headers).not.toHaveProperty('tracestate');
  });
});
