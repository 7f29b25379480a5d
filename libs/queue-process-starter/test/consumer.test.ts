import { currentContext, currentTenantId } from '@fw/core';
import type { WorkerDto } from '@fw/process-api';
import type { WorkerOutcome } from '@fw/process-utils';
import type { ChannelModel } from 'amqplib';
import {
  makeQueueProcessStarter,
  makeQueueWorkerConsumer,
  QueueHeaders,
  type QueueConsumerEvent,
  type QueueProcessStarter,
  type QueueWorkerConsumer,
  type QueueWorkerConsumerOptions,
} from '../src';
import {
  BROKER_URL,
  closeConnectionsNamed,
  connectBroker,
  deferred,
  openBrokerRelay,
  openTestQueues,
  recordingSink,
  uniqueConnectionName,
  waitFor,
  workerDto,
  type TestQueues,
} from './support';

describe('queue worker consumer (RabbitMQ)', () => {
  let queues: TestQueues;
  let starter: QueueProcessStarter;
  const consumers: QueueWorkerConsumer[] = [];

  beforeAll(async () => {
    queues = await openTestQueues();
    starter = makeQueueProcessStarter({ url: BROKER_URL });
  });

  afterEach(async () => {
    for (const consumer of consumers.splice(0)) await consumer.stop({ timeoutMillis: 2000 });
  });

  afterAll(async () => {
    await starter?.close();
    await queues?.cleanup();
  });

  /** Starts a consumer (stopped after the test) that records its events. */
  async function startConsumer(
    options: Omit<QueueWorkerConsumerOptions, 'url' | 'sink'> &
      Partial<Pick<QueueWorkerConsumerOptions, 'sink' | 'url'>>,
  ) {
    const events: QueueConsumerEvent[] = [];
    const sink = options.sink ?? recordingSink();
    const consumer = makeQueueWorkerConsumer({
      url: options.connection ? undefined : BROKER_URL,
      retryDelay: { baseMillis: 20, maxMillis: 100 },
      ...options,
      sink,
      onEvent: (e) => events.push(e),
    });
    consumers.push(consumer);
    await consumer.start();
    const settled = () => events.filter((e) => e.type === 'acked' || e.type === 'rejected' || e.type === 'requeued');
    return { consumer, events, settled };
  }

  it('restores the tenant and trigger id from the headers into the worker context', async () => {
    const queue = queues.name('tenant');
    const seen: Array<{
      tenant: string | null;
      current: string | undefined;
      headers: Record<string, string> | undefined;
    }> = [];
    const { settled } = await startConsumer({
      queues: [queue],
      handler: async (worker) =>
        void seen.push({ tenant: worker.tenant, current: currentTenantId(), headers: currentContext()?.headers }),
    });
    await starter.publish(workerDto({ tenant: 'acme', triggerId: 'manual:acme:42', config: { queue } }));
    await waitFor(() => settled().length === 1, 15_000, 'the message to be acked');
    expect(seen).toEqual([
      { tenant: 'acme', current: 'acme', headers: { 'x-fw-tenant-id': 'acme', 'x-fw-trigger-id': 'manual:acme:42' } },
    ]);
    expect(settled()[0]).toMatchObject({ type: 'acked', reason: 'handled' });
    expect(await queues.depth(queue)).toBe(0);
  });

  it('takes the tenant of the header over the body', async () => {
    const queue = queues.name('tenant-header-wins');
    await queues.declare(queue);
    const worker = workerDto({ tenant: null, config: { queue } });
    await queues.publishRaw(queue, JSON.stringify(worker), { [QueueHeaders.tenant]: 'from-header' });
    const tenants: Array<string | null> = [];
    const { settled } = await startConsumer({
      queues: [queue],
      handler: async (w) => void tenants.push(w.tenant, currentTenantId() ?? null),
    });
    await waitFor(() => settled().length === 1, 15_000, 'the message to be acked');
    expect(tenants).toEqual(['from-header', 'from-header']);
  });

  it('records a malformed message on its process (from the headers when the body is unreadable) and acks it', async () => {
    const queue = queues.name('malformed');
    await queues.declare(queue);
    const sink = recordingSink();
    const ran: string[] = [];
    const notJson = workerDto();
    const wrongType = workerDto({ workerType: 'SPLITTER' });
    const headersOf = (w: WorkerDto) => ({
      [QueueHeaders.processId]: w.processId,
      [QueueHeaders.workerType]: w.workerType,
      [QueueHeaders.tenant]: 't9',
    });
    await queues.publishRaw(queue, '{"processId": oops', headersOf(notJson));
    await queues.publishRaw(
      queue,
      JSON.stringify({ ...wrongType, config: { queue, batchSize: 5 } }),
      headersOf(wrongType),
    );
    await queues.publishRaw(queue, 'garbage without any headers');
    const good = workerDto({ config: { queue } });
    await queues.publishRaw(queue, JSON.stringify(good));
    const { settled, consumer } = await startConsumer({
      queues: [queue],
      sink,
      handler: async (w) => void ran.push(w.processId),
    });
    await waitFor(() => settled().length === 4, 15_000, 'four messages settled');
    expect(ran).toEqual([good.processId]); // the malformed ones never reach the worker code
    expect(sink.events).toEqual([
      {
        processId: notJson.processId,
        eventId: 'doneWithErrors',
        tenant: 't9',
        payload: {
          errors: ['MALFORMED_PAYLOAD: worker message is not valid JSON'],
          exceptionMessage: 'worker message is not valid JSON',
          stackTrace: null,
        },
      },
      {
        processId: wrongType.processId,
        eventId: 'splitDoneWithErrors',
        tenant: 't9',
        payload: expect.objectContaining({ errors: ["INCOMPATIBLE_FIELD_TYPE: 'config.batchSize' must be a string"] }),
      },
    ]);
    expect(settled().map((e) => [e.type, e.reason])).toEqual([
      ['acked', 'malformed'],
      ['acked', 'malformed'],
      ['rejected', 'unattributable'], // nobody to report to: dropped (or dead-lettered by a queue policy), never redelivered
      ['acked', 'handled'],
    ]);
    expect(consumer.stats()).toMatchObject({ received: 4, acked: 3, rejected: 1, requeued: 0, reported: 2 });
    expect(await queues.depth(queue)).toBe(0);
  });

  it('records a handler failure as the step error and acks the message', async () => {
    const queue = queues.name('handler-fails');
    const sink = recordingSink();
    const { settled } = await startConsumer({
      queues: [queue],
      sink,
      handler: async () => {
        throw new TypeError('cannot read the import file');
      },
    });
    const worker = workerDto({ workerType: 'AGGREGATOR', config: { queue } });
    await starter.publish(worker);
    await waitFor(() => settled().length === 1, 15_000, 'the message to be acked');
    expect(settled()[0]).toMatchObject({ type: 'acked', reason: 'handler-failed', delivery: 1 });
    expect(sink.events).toHaveLength(1);
    expect(sink.events[0]).toMatchObject({
      processId: worker.processId,
      eventId: 'aggregationDoneWithErrors',
      tenant: 't1',
    });
    expect(sink.events[0]?.payload).toMatchObject({
      errors: ['INVOCATION_FAILURE: cannot read the import file'],
      exceptionMessage: 'TypeError: cannot read the import file',
      stackTrace: expect.stringContaining('TypeError'),
    });
  });

  it('requeues while a failure cannot be recorded (process service down) and acks once it is', async () => {
    const queue = queues.name('sink-down');
    const sink = recordingSink();
    sink.failNext(Object.assign(new Error('connect ECONNREFUSED'), { code: 503 }), 2);
    const { settled } = await startConsumer({
      queues: [queue],
      sink,
      handler: async () => Promise.reject(new Error('boom')),
    });
    const worker = workerDto({ config: { queue } });
    await starter.publish(worker);
    await waitFor(() => settled().some((e) => e.type === 'acked'), 15_000, 'the message to be acked');
    expect(settled().map((e) => e.type)).toEqual(['requeued', 'requeued', 'acked']);
    expect(settled()[0]?.delivery).toBe(1);
    expect(sink.events.map((e) => e.eventId)).toEqual(['doneWithErrors']);
  });

  it('maps BatchService outcomes: succeeded, failed and stale are acked, undeliverable is requeued', async () => {
    const queue = queues.name('outcomes');
    const statuses: Array<WorkerOutcome['status']> = ['undeliverable', 'succeeded', 'failed', 'stale'];
    const { settled } = await startConsumer({
      queues: [queue],
      batchService: { run: async () => ({ status: statuses.shift() ?? 'succeeded', events: [] }) },
    });
    await starter.publish(workerDto({ config: { queue } }));
    await starter.publish(workerDto({ config: { queue } }));
    await starter.publish(workerDto({ config: { queue } }));
    await waitFor(() => settled().filter((e) => e.type === 'acked').length === 3, 15_000, 'three acks');
    expect(settled().map((e) => [e.type, e.reason])).toEqual([
      ['requeued', 'undeliverable'],
      ['acked', 'succeeded'],
      ['acked', 'failed'],
      ['acked', 'stale'],
    ]);
  });

  it('redelivers a message to another consumer when the first dies before acking', async () => {
    const queue = queues.name('redelivery');
    const connection: ChannelModel = await connectBroker();
    const firstGot = deferred();
    const never = deferred();
    const first = await startConsumer({
      connection,
      queues: [queue],
      handler: async () => {
        firstGot.resolve();
        await never.promise; // still working when its connection dies
      },
    });
    const worker = workerDto({ config: { queue } });
    await starter.publish(worker);
    await firstGot.promise;
    await connection.close(); // the consumer "crashes": no ack was sent
    await waitFor(
      () => first.events.some((e) => e.type === 'connection-lost'),
      15_000,
      'the first consumer to lose its channel',
    );
    expect(first.consumer.stats().consuming).toBe(false);
    // the connection was the caller's: the consumer cannot reopen it
    await waitFor(() => first.consumer.stats().state === 'disconnected', 15_000, 'the first consumer to give up');
    expect(first.events.map((e) => e.type).filter((t) => t === 'disconnected')).toEqual(['disconnected']);

    const handled: Array<{ processId: string; delivery: number }> = [];
    const second = await startConsumer({
      queues: [queue],
      handler: async (w, ctx) => void handled.push({ processId: w.processId, delivery: ctx.delivery }),
    });
    await waitFor(() => second.settled().length === 1, 15_000, 'the second consumer to ack');
    expect(handled).toEqual([{ processId: worker.processId, delivery: 2 }]);

    never.resolve(); // the first handler finishes late: its ack cannot go out, nothing breaks
    await waitFor(() => first.consumer.stats().ackLost === 1, 15_000, 'the late ack to be counted as lost');
    expect(await queues.depth(queue)).toBe(0);
  });

  it('gives up on a message that keeps crashing its consumers: the failure is recorded, the message acked', async () => {
    const queue = queues.name('crash-loop');
    const sink = recordingSink();
    const worker = workerDto({ config: { queue } });
    await starter.publish(worker);
    for (let crash = 1; crash <= 2; crash += 1) {
      const connection = await connectBroker();
      const got = deferred();
      await startConsumer({
        connection,
        queues: [queue],
        handler: () => (got.resolve(), new Promise<void>(() => undefined)),
      });
      await got.promise;
      await connection.close();
    }
    const handled: string[] = [];
    const last = await startConsumer({
      queues: [queue],
      sink,
      maxDeliveries: 2,
      handler: async (w) => void handled.push(w.processId),
    });
    await waitFor(() => last.settled().length === 1, 15_000, 'the crash-looping message to be settled');
    expect(handled).toEqual([]);
    expect(last.settled()[0]).toMatchObject({ type: 'acked', reason: 'too-many-deliveries', delivery: 3 });
    expect(sink.events).toHaveLength(1);
    expect(JSON.stringify(sink.events[0]?.payload)).toContain('delivered 3 times without completing');
    expect(await queues.depth(queue)).toBe(0);
  });

  it('stop() stops receiving, waits for running messages and acks them', async () => {
    const queue = queues.name('graceful');
    const release = deferred();
    const started = deferred();
    const done: string[] = [];
    const { consumer } = await startConsumer({
      queues: [queue],
      prefetch: 2,
      handler: async (w) => {
        started.resolve();
        await release.promise;
        done.push(w.processId);
      },
    });
    const worker = workerDto({ config: { queue } });
    await starter.publish(worker);
    await started.promise;
    const stopping = consumer.stop({ timeoutMillis: 10_000 });
    await starter.publish(workerDto({ config: { queue } })); // arrives after stop(): stays in the queue
    release.resolve();
    await expect(stopping).resolves.toEqual({ abandoned: 0 });
    expect(done).toEqual([worker.processId]);
    expect(consumer.stats()).toMatchObject({ acked: 1, inFlight: 0, consuming: false });
    expect(await queues.depth(queue)).toBe(1);
  });

  it('stop() that times out abandons the running message, which RabbitMQ hands to the next consumer', async () => {
    const queue = queues.name('stop-timeout');
    const started = deferred();
    let aborted = false;
    const { consumer } = await startConsumer({
      queues: [queue],
      handler: (_w, ctx) =>
        new Promise<void>((resolve) => {
          started.resolve();
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          });
        }),
    });
    await starter.publish(workerDto({ config: { queue } }));
    await started.promise;
    await expect(consumer.stop({ timeoutMillis: 50 })).resolves.toEqual({ abandoned: 1 });
    expect(aborted).toBe(true);
    const next = await startConsumer({ queues: [queue], handler: async () => undefined });
    await waitFor(() => next.settled().length === 1, 15_000, 'the next consumer to ack');
    expect(next.settled()[0]).toMatchObject({ type: 'acked', delivery: 2 });
  });

  it('reconnects by itself when the broker closes its connection; a result from the old channel is dropped, never acked on the new one', async () => {
    const queue = queues.name('reconnect');
    const connectionName = uniqueConnectionName('consumer');
    const held = workerDto({ config: { queue } });
    const heldStarted = deferred();
    const release = deferred();
    const handled: Array<{ processId: string; delivery: number }> = [];
    const { consumer, events } = await startConsumer({
      queues: [queue],
      connectionName,
      prefetch: 2,
      reconnectDelay: { baseMillis: 50, maxMillis: 1000 },
      handler: async (w, ctx) => {
        handled.push({ processId: w.processId, delivery: ctx.delivery });
        if (w.processId === held.processId && ctx.delivery === 1) {
          heldStarted.resolve();
          await release.promise; // still running when the connection goes
        }
      },
    });
    const acked = (processId: string) => events.filter((e) => e.type === 'acked' && e.processId === processId).length;
    await starter.publish(held);
    await heldStarted.promise;

    expect(await closeConnectionsNamed(connectionName)).toBe(1);
    await waitFor(
      () => consumer.stats().reconnects === 1 && consumer.stats().state === 'connected',
      30_000,
      'the consumer to reconnect',
    );
    // RabbitMQ put the unacknowledged message back; the new channel got it again
    await waitFor(() => acked(held.processId) === 1, 30_000, 'the redelivered message to be acked');
    const more = [1, 2, 3, 4, 5].map(() => workerDto({ config: { queue } }));
    for (const worker of more) await starter.publish(worker);
    await waitFor(() => more.every((w) => acked(w.processId) === 1), 30_000, 'the work published after the reconnect');

    release.resolve(); // the first run finishes now: its delivery tag belongs to the closed channel
    await waitFor(() => consumer.stats().ackLost === 1, 15_000, 'the late result to be dropped');
    const last = workerDto({ config: { queue } });
    await starter.publish(last); // the new channel is still fine (an ack of an unknown tag would have closed it)
    await waitFor(() => acked(last.processId) === 1, 30_000, 'a message after the dropped result');

    for (const worker of [held, ...more, last]) expect(acked(worker.processId)).toBe(1);
    expect(handled.filter((h) => h.processId === held.processId)).toEqual([
      { processId: held.processId, delivery: 1 },
      { processId: held.processId, delivery: 2 },
    ]);
    expect(events.find((e) => e.type === 'ack-lost')).toMatchObject({ processId: held.processId, delivery: 1 });
    const lifecycle = events
      .map((e) => e.type)
      .filter((t) => t === 'connection-lost' || t === 'reconnected' || t === 'disconnected');
    expect(lifecycle).toEqual(['connection-lost', 'reconnected']);
    expect(events.find((e) => e.type === 'reconnecting')).toMatchObject({
      attempt: 1,
      delayMillis: expect.any(Number),
    });
    expect(consumer.stats()).toMatchObject({
      state: 'connected',
      consuming: true,
      reconnects: 1,
      ackLost: 1,
      inFlight: 0,
    });
    expect(await queues.depth(queue)).toBe(0);
  });

  it('stop() during the reconnect backoff resolves at once and stops the loop', async () => {
    const queue = queues.name('stop-in-backoff');
    const connectionName = uniqueConnectionName('consumer');
    const { consumer, events } = await startConsumer({
      queues: [queue],
      connectionName,
      reconnectDelay: { baseMillis: 60_000, maxMillis: 60_000 }, // the first wait is at least 30 s
      handler: async () => undefined,
    });
    await closeConnectionsNamed(connectionName);
    await waitFor(
      () => events.some((e) => e.type === 'reconnecting'),
      30_000,
      'the consumer to wait for its first reconnect',
    );
    expect(consumer.stats()).toMatchObject({ state: 'reconnecting', consuming: false });
    const began = Date.now();
    await expect(consumer.stop({ timeoutMillis: 30_000 })).resolves.toEqual({ abandoned: 0 });
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(consumer.stats()).toMatchObject({ state: 'stopped', reconnects: 0 });
    expect(events.some((e) => e.type === 'reconnected')).toBe(false);
  });

  it('keeps trying while the broker cannot be reached, gives up a running message whose channel is gone, and stop() ends it promptly', async () => {
    const relay = await openBrokerRelay();
    try {
      const queue = queues.name('network-drop');
      const started = deferred();
      let abortedOnLoss = false;
      const { consumer, events } = await startConsumer({
        url: relay.url,
        queues: [queue],
        reconnectDelay: { baseMillis: 20, maxMillis: 200 },
        handler: (_w, ctx) =>
          new Promise<void>((resolve) => {
            started.resolve();
            ctx.signal.addEventListener('abort', () => {
              abortedOnLoss = true; // nothing this run produces can be acknowledged any more
              resolve();
            });
          }),
      });
      await starter.publish(workerDto({ config: { queue } }));
      await started.promise;
      relay.cut();
      await waitFor(
        () => events.filter((e) => e.type === 'reconnecting').length >= 3,
        30_000,
        'several failed reconnect attempts',
      );
      expect(abortedOnLoss).toBe(true);
      expect(events.find((e) => e.type === 'reconnecting' && e.attempt === 2)?.error).toBeDefined(); // why the first attempt failed
      expect(consumer.stats()).toMatchObject({ state: 'reconnecting', reconnects: 0, ackLost: 1 });
      const began = Date.now();
      await expect(consumer.stop({ timeoutMillis: 30_000 })).resolves.toEqual({ abandoned: 0 });
      expect(Date.now() - began).toBeLessThan(10_000);
      expect(consumer.stats().state).toBe('stopped');
    } finally {
      await relay.close();
    }
  });

  it('reconnects through the network once it is back', async () => {
    const relay = await openBrokerRelay();
    try {
      const queue = queues.name('network-back');
      const handled: string[] = [];
      const { consumer } = await startConsumer({
        url: relay.url,
        queues: [queue],
        reconnectDelay: { baseMillis: 20, maxMillis: 200 },
        handler: async (w) => void handled.push(w.processId),
      });
      relay.cut();
      await waitFor(() => consumer.stats().state === 'reconnecting', 30_000, 'the consumer to notice the drop');
      const worker = workerDto({ config: { queue } });
      await starter.publish(worker); // the starter has its own connection: the message waits in the queue
      relay.restore();
      await waitFor(
        () => handled.includes(worker.processId),
        30_000,
        'the message to be handled after the network came back',
      );
      expect(consumer.stats()).toMatchObject({ state: 'connected', reconnects: 1 });
    } finally {
      await relay.close();
    }
  });

  it('consumes again when RabbitMQ cancels its subscription (queue deleted): the channel is reopened and the queue declared again', async () => {
    const queue = queues.name('cancelled');
    const handled: string[] = [];
    const { consumer, events } = await startConsumer({
      queues: [queue],
      reconnectDelay: { baseMillis: 20, maxMillis: 200 },
      handler: async (w) => void handled.push(w.processId),
    });
    await queues.channel().deleteQueue(queue);
    await waitFor(
      () => consumer.stats().reconnects === 1 && consumer.stats().state === 'connected',
      30_000,
      'the consumer to reopen its channel',
    );
    const worker = workerDto({ config: { queue } });
    await starter.publish(worker);
    await waitFor(() => handled.includes(worker.processId), 30_000, 'the message on the re-declared queue');
    expect(String(events.find((e) => e.type === 'connection-lost')?.error)).toContain(
      `cancelled the subscription to queue '${queue}'`,
    );
  });

  it('checks its options', () => {
    const sink = recordingSink();
    expect(() => makeQueueWorkerConsumer({ url: BROKER_URL, queues: ['q'], sink })).toThrow(
      /exactly one of `batchService` and `handler`/,
    );
    expect(() =>
      makeQueueWorkerConsumer({ url: BROKER_URL, queues: [], sink, handler: async () => undefined }),
    ).toThrow(/`queues` is empty/);
    expect(() => makeQueueWorkerConsumer({ queues: ['q'], sink, handler: async () => undefined })).toThrow(
      /exactly one of `url` and `connection`/,
    );
  });
});
