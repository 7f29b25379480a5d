import {
  BrokerUnavailableError,
  makeQueueProcessStarter,
  QueueConfigError,
  QueueHeaders,
  type QueueProcessStarter,
} from '../src';
import {
  BROKER_URL,
  capturingLogger,
  closeConnectionsNamed,
  openBrokerRelay,
  openTestQueues,
  transaction,
  uniqueConnectionName,
  waitFor,
  workerDto,
  type TestQueues,
} from './support';

describe('queue process starter (RabbitMQ)', () => {
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

  it('publishes only after commit and nothing for a rolled-back state change', async () => {
    const queue = queues.name('after-commit');
    await queues.declare(queue);
    const rolledBack = transaction();
    await starter.startWorker(workerDto({ config: { queue } }), rolledBack);
    const committed = transaction();
    const worker = workerDto({ config: { queue } });
    await starter.startWorker(worker, committed);
    expect(await queues.depth(queue)).toBe(0); // not before the commit
    await committed.commit(); // resolves once the broker confirmed
    expect(await queues.depth(queue)).toBe(1);
    const message = await queues.get(queue);
    expect(message && JSON.parse(message.content.toString('utf8'))).toEqual(worker);
    expect(await queues.depth(queue)).toBe(0); // the rolled-back launch never arrives
    expect(starter.stats()).toMatchObject({ published: 1, failed: 0, inFlight: 0 });
  });

  it('sends a persistent JSON message with the tenant, trigger and step as headers', async () => {
    const queue = queues.name('headers');
    const worker = workerDto({
      tenant: 'tenant-7',
      triggerId: 'manual:tenant-7:k1',
      workerType: 'SPLITTER',
      config: { queue, batchSize: '5' },
    });
    await starter.publish(worker); // declares the queue itself
    const message = await queues.get(queue);
    if (message === false) throw new Error('no message');
    expect(message.properties).toMatchObject({
      deliveryMode: 2,
      contentType: 'application/json',
      type: 'fw.worker',
      headers: {
        [QueueHeaders.tenant]: 'tenant-7',
        [QueueHeaders.trigger]: 'manual:tenant-7:k1',
        [QueueHeaders.processId]: worker.processId,
        [QueueHeaders.processType]: 'import',
        [QueueHeaders.workerType]: 'SPLITTER',
      },
    });
    expect(typeof message.properties.messageId).toBe('string');
    expect(JSON.parse(message.content.toString('utf8'))).toEqual(worker);
  });

  it('leaves the tenant and trigger headers out when the process has none', async () => {
    const queue = queues.name('no-tenant');
    await starter.publish(workerDto({ tenant: null, triggerId: null, config: { queue } }));
    const message = await queues.get(queue);
    if (message === false) throw new Error('no message');
    expect(
      Object.keys(message.properties.headers ?? {})
        .filter((h) => h.startsWith('x-fw-'))
        .sort(),
    ).toEqual([QueueHeaders.processId, QueueHeaders.processType, QueueHeaders.workerType].sort());
  });

  it('fails startWorker (so the state change rolls back) when the definition has no config.queue', async () => {
    const context = transaction();
    expect(() =>
      starter.startWorker(workerDto({ processType: 'no-queue', config: { batchSize: '1' } }), context),
    ).toThrow(QueueConfigError);
    expect(() => starter.startWorker(workerDto({ processType: 'no-queue', config: {} }), context)).toThrow(
      /process type 'no-queue' has no config\.queue: the queue starter cannot publish its EXECUTOR worker/,
    );
    expect(() => starter.startWorker(workerDto({ config: { queue: 'amq.reserved' } }), context)).toThrow(
      /reserved by RabbitMQ/,
    );
    await context.commit(); // nothing was registered
    expect(starter.stats().failed).toBe(0);
  });

  it('reports a committed launch it cannot publish (queue missing and not declared) without throwing into the manager', async () => {
    const failures: Array<{ error: unknown; queue: string }> = [];
    const strict = makeQueueProcessStarter({
      url: BROKER_URL,
      assertQueues: false,
      publishAttempts: 2,
      onPublishFailed: (error, _w, queue) => failures.push({ error, queue }),
    });
    try {
      const queue = queues.name('never-declared');
      const context = transaction();
      await strict.startWorker(workerDto({ config: { queue } }), context);
      await expect(context.commit()).resolves.toBeUndefined();
      expect(failures).toHaveLength(1);
      expect(String(failures[0]?.error)).toContain(`queue '${queue}' does not exist`);
      expect(strict.stats()).toMatchObject({ published: 0, failed: 1 });
    } finally {
      await strict.close();
    }
  });

  it('says clearly when the broker cannot be reached, and hides the password', async () => {
    const unreachable = makeQueueProcessStarter({ url: 'amqp://guest:secret@127.0.0.1:1', publishAttempts: 1 });
    try {
      const error: unknown = await unreachable.publish(workerDto({ config: { queue: 'q' } })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BrokerUnavailableError);
      expect((error as Error).message).toMatch(/^RabbitMQ is not reachable at amqp:\/\/guest:\*\*\*@127\.0\.0\.1:1/);
      expect((error as Error).message).not.toContain('secret');
    } finally {
      await unreachable.close();
    }
  });

  it('publishes on a new connection after the broker closed its connection', async () => {
    const connectionName = uniqueConnectionName('starter');
    const named = makeQueueProcessStarter({ url: BROKER_URL, connectionName });
    try {
      const queue = queues.name('after-broker-close');
      await named.publish(workerDto({ config: { queue } }));
      expect(await closeConnectionsNamed(connectionName)).toBe(1);
      const context = transaction();
      await named.startWorker(workerDto({ config: { queue } }), context);
      await context.commit();
      expect(await queues.depth(queue)).toBe(2);
      expect(named.stats()).toMatchObject({ published: 2, failed: 0 });
    } finally {
      await named.close();
    }
  });

  it('retries a committed launch with backoff while the network is down and publishes it once it is back', async () => {
    const relay = await openBrokerRelay();
    const dropped = makeQueueProcessStarter({
      url: relay.url,
      publishAttempts: 50,
      reconnectDelay: { baseMillis: 20, maxMillis: 200 },
    });
    try {
      const queue = queues.name('network-drop');
      await dropped.publish(workerDto({ config: { queue } })); // connected and declared
      relay.cut();
      const worker = workerDto({ config: { queue } });
      const context = transaction();
      await dropped.startWorker(worker, context);
      const committing = context.commit();
      await waitFor(() => dropped.stats().retries >= 2, 30_000, 'publish retries while the network is down');
      relay.restore();
      await committing; // the manager's call resolves once the broker confirmed
      expect(dropped.stats()).toMatchObject({ published: 2, failed: 0, inFlight: 0 });
      expect(await queues.depth(queue)).toBe(2);
    } finally {
      await dropped.close();
      await relay.close();
    }
  });

  it('gives up after publishAttempts and logs an error naming the process; the commit is not undone', async () => {
    const relay = await openBrokerRelay();
    relay.cut();
    const logged: Array<Record<string, unknown>> = [];
    const failures: unknown[] = [];
    const unreachable = makeQueueProcessStarter({
      url: relay.url,
      publishAttempts: 3,
      reconnectDelay: { baseMillis: 20, maxMillis: 100 },
      logger: capturingLogger(logged),
      onPublishFailed: (error) => failures.push(error),
    });
    try {
      const worker = workerDto({ config: { queue: queues.name('gives-up') } });
      const context = transaction();
      await unreachable.startWorker(worker, context);
      await expect(context.commit()).resolves.toBeUndefined();
      expect(failures).toHaveLength(1);
      expect(failures[0]).toBeInstanceOf(BrokerUnavailableError);
      expect(unreachable.stats()).toMatchObject({ published: 0, failed: 1, retries: 2 });
      const retried = logged.filter((line) => line.level === 40 && line.processId === worker.processId);
      expect(retried.map((line) => line.attempt)).toEqual([1, 2]);
      const failed = logged.filter((line) => line.level === 50);
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ processId: worker.processId, workerType: 'EXECUTOR', attempts: 3 });
      expect(String(failed[0]?.msg)).toContain(`launch of process ${worker.processId} (import) could not be published`);
    } finally {
      await unreachable.close();
      await relay.close();
    }
  });

  it('refuses launches after close()', async () => {
    const closing = makeQueueProcessStarter({ url: BROKER_URL });
    await closing.close();
    expect(() => closing.startWorker(workerDto({ config: { queue: 'q' } }), transaction())).toThrow(/closed/);
  });
});
