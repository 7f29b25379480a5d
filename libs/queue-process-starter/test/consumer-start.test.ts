/**
 * `consumer.start()` while the broker is away or refusing: it retries with backoff within
 * `startRetryMillis` (a host started during a broker restart comes up by itself), fails with a
 * clear error after that window, and fails at once on a refusal that will not pass.
 */
import { makeQueueProcessStarter, makeQueueWorkerConsumer, type QueueProcessStarter } from '../src';
import {
  openBrokerRelay,
  openTestQueues,
  recordingSink,
  waitFor,
  workerDto,
  type BrokerRelay,
  type TestQueues,
} from './support';

describe('queue worker consumer start (RabbitMQ through a relay)', () => {
  let queues: TestQueues;
  let relay: BrokerRelay;
  let starter: QueueProcessStarter;

  beforeAll(async () => {
    queues = await openTestQueues();
    relay = await openBrokerRelay();
    starter = makeQueueProcessStarter({ url: relay.url });
  });

  afterAll(async () => {
    await starter?.close();
    await relay?.close();
    await queues?.cleanup();
  });

  it('keeps trying while the broker is away and consumes once it is back', async () => {
    const queue = queues.name('late-broker');
    const handled: string[] = [];
    const consumer = makeQueueWorkerConsumer({
      url: relay.url,
      queues: [queue],
      sink: recordingSink(),
      reconnectDelay: { baseMillis: 50, maxMillis: 200 },
      handler: async (w) => void handled.push(w.processId),
    });
    relay.cut();
    const started = consumer.start();
    let settled = false;
    void started.then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(settled).toBe(false);
    relay.restore();
    await started;
    try {
      const worker = workerDto({ config: { queue } });
      await starter.publish(worker);
      await waitFor(() => handled.includes(worker.processId), 15_000, 'the message to be handled');
    } finally {
      await consumer.stop({ timeoutMillis: 2000 });
    }
  });

  it('gives up after startRetryMillis with an error naming the broker and the attempts', async () => {
    const consumer = makeQueueWorkerConsumer({
      url: relay.url,
      queues: [queues.name('never')],
      sink: recordingSink(),
      startRetryMillis: 600,
      reconnectDelay: { baseMillis: 50, maxMillis: 100 },
      handler: async () => undefined,
    });
    relay.cut();
    try {
      await expect(consumer.start()).rejects.toThrow(
        /^RabbitMQ at .+ did not accept the consumer within 600 ms \(\d+ attempt\(s\)\): /,
      );
      expect(consumer.stats().state).toBe('stopped');
    } finally {
      relay.restore();
    }
  });

  it('fails at once on a refusal that will not pass (a queue of another type)', async () => {
    const queue = queues.name('typed');
    await queues.declare(queue); // quorum
    const consumer = makeQueueWorkerConsumer({
      url: relay.url,
      queues: [queue],
      queueType: 'classic',
      sink: recordingSink(),
      handler: async () => undefined,
    });
    const began = Date.now();
    await expect(consumer.start()).rejects.toThrow(/PRECONDITION[_-]FAILED/);
    expect(Date.now() - began).toBeLessThan(3000);
  });
});
