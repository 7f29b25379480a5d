import type { WorkerOutcome } from '@fw/process-utils';
import type { FwMetrics } from '@fw/telemetry';
import {
  makeQueueProcessStarter,
  makeQueueWorkerConsumer,
  type QueueConsumerEvent,
  type QueueProcessStarter,
} from '../src';
import { BROKER_URL, openTestQueues, recordingSink, waitFor, workerDto, type TestQueues } from './support';

/**
 * The RabbitMQ worker host's metrics on a real broker: each settled delivery counts as one
 * attempt (acknowledged after the step ran: success; requeued: retry; acknowledged after a failure
 * was recorded: dead), labelled from the publisher's headers, and its own registry is served on
 * its metrics port from `start()` to `stop()`.
 */
async function valueOf(metrics: FwMetrics, name: string, labels: Record<string, string>): Promise<number> {
  const metric = metrics.registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  return values
    .filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
    .reduce((sum, v) => sum + v.value, 0);
}

describe('queue worker consumer metrics (RabbitMQ)', () => {
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

  it('counts each settled delivery as an attempt and serves the series on its metrics port', async () => {
    const queue = queues.name('metrics');
    const statuses: Array<WorkerOutcome['status']> = ['undeliverable', 'succeeded', 'failed', 'stale'];
    const events: QueueConsumerEvent[] = [];
    const consumer = makeQueueWorkerConsumer({
      url: BROKER_URL,
      queues: [queue],
      sink: recordingSink(),
      retryDelay: { baseMillis: 20, maxMillis: 100 },
      batchService: { run: async () => ({ status: statuses.shift() ?? 'succeeded', events: [] }) },
      onEvent: (e) => events.push(e),
      metricsPort: 0,
      metricsProfile: 'dev',
    });
    const metrics = consumer.metrics;
    if (!metrics) throw new Error('a consumer with a metrics port has metrics');
    await consumer.start();
    try {
      for (let i = 0; i < 3; i++) await starter.publish(workerDto({ tenant: 'mq', config: { queue } }));
      await waitFor(() => events.filter((e) => e.type === 'acked').length === 3, 15_000, 'three acks');
      const labels = { tenant: 'mq', process_type: 'import', worker_type: 'EXECUTOR' };
      expect(await valueOf(metrics, 'fw_work_item_attempts_total', { ...labels, result: 'retry' })).toBe(1);
      expect(await valueOf(metrics, 'fw_work_item_attempts_total', { ...labels, result: 'success' })).toBe(1);
      expect(await valueOf(metrics, 'fw_work_item_attempts_total', { ...labels, result: 'dead' })).toBe(1);

      const server = await consumer.metricsServer();
      if (!server) throw new Error('the consumer serves its metrics once started');
      const text = await (await fetch(server.url)).text();
      expect(text).toContain(
        'fw_work_item_attempts_total{tenant="mq",process_type="import",worker_type="EXECUTOR",result="success"} 1',
      );
    } finally {
      await consumer.stop({ timeoutMillis: 2_000 });
    }
    const url = (await consumer.metricsServer())?.url ?? '';
    await expect(fetch(url)).rejects.toThrow();
  });

  it('records nothing and serves nothing without metrics or a port', async () => {
    const consumer = makeQueueWorkerConsumer({
      url: BROKER_URL,
      queues: [queues.name('none')],
      sink: recordingSink(),
      handler: async () => undefined,
    });
    expect(consumer.metrics).toBeUndefined();
    expect(await consumer.metricsServer()).toBeUndefined();
  });
});
