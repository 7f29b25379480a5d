/**
 * The consumer side of the queue launch mode: consumes worker messages from RabbitMQ queues with
 * manual acknowledgements, restores the tenant from header `x-fw-tenant-id` into the worker
 * context, runs the application's BatchService (or a plain handler) and acknowledges only after
 * it finished. Every message ends in one of three ways:
 *
 * - **ack**: the step ran (success, or a failure the BatchService reported), was already completed
 *   (`stale`), or the message was malformed / kept failing and its failure is now recorded on the
 *   process (the step completes as an error, as with the other starters);
 * - **requeue** (after a backoff pause): nothing could be recorded yet (the process service is
 *   unreachable, no worker registered here) — at-least-once, the message comes back;
 * - **reject** (no requeue: dropped, or dead-lettered by a queue policy): a message that cannot be
 *   attributed to any process, or whose report the process service refuses for good (4xx).
 *
 * A consumer that dies before acknowledging (crash, closed connection) leaves its messages unacked:
 * RabbitMQ redelivers them to another consumer. On quorum queues the delivery count stops crash
 * loops: a message delivered more than `maxDeliveries` times is reported as failed and acked.
 *
 * A channel or connection lost while running (broker restart, connection closed by an operator,
 * network drop) is reopened by the consumer itself, after a capped exponential backoff with jitter
 * (`reconnectDelay`), until it succeeds or `stop()` is called: queues declared again, same prefetch.
 * The messages unacknowledged at the drop go back to their queues; a handler of such a message that
 * finishes later has its result dropped (`ack-lost`) — never acknowledged on the new channel, where
 * its delivery tag is unknown — and the redelivered copy runs again (the process service accepts a
 * step's completion once). A caller's `connection` is not reopened here: when it closes, the
 * consumer ends up `disconnected`.
 *
 * @example
 * const consumer = makeQueueWorkerConsumer({
 *   url: 'amqp://guest:guest@127.0.0.1:5672',
 *   queues: ['fw.import'],
 *   batchService: makeBatchService({ workers, sink }),
 *   sink,                       // makeManagerEventSink(manager) or a @fw/process-delegate client
 *   prefetch: 4,
 * });
 * await consumer.start();
 * process.on('SIGTERM', () => void consumer.stop({ timeoutMillis: 20_000 }));
 */
import { createLogger, restoreRequestContext, runWithContext, type Logger, type RequestContext } from '@fw/core';
import type { WorkerDto } from '@fw/process-api';
import {
  failureOf,
  readWorkerMessage,
  WorkerFailureKinds,
  type BatchService,
  type ProcessEventSink,
  type ReadMessage,
  type WorkerFailure,
} from '@fw/process-utils';
import type { ConsumeMessage } from 'amqplib';
import { defaultConnectionName, makeAmqpConnectionSource, type AmqpConnectionOptions } from '../amqp/amqp-connection';
import { queueNameProblem } from '../amqp/queue-declaration';
import { isLastingRefusal } from '../amqp/broker-refusal';
import { backoffMillis, normalizeBackoff } from '../amqp/reconnect-backoff';
import { deliveryCountOf, readWorkerHeaders, type WorkerMessageHeaders } from '../message/worker-message-codec';
import { closeConsumerChannel, openConsumerChannel, type ConsumerChannel } from './consumer-channel';
import { reportFailure, type StepRef } from './failure-report';
import type {
  QueueConsumerEvent,
  QueueConsumerState,
  QueueWorkerConsumer,
  QueueWorkerConsumerOptions,
  QueueWorkerHandler,
} from './queue-consumer-types';

export type {
  ConsumerStopResult,
  QueueConsumerEvent,
  QueueConsumerEventType,
  QueueConsumerState,
  QueueConsumerStats,
  QueueWorkerConsumer,
  QueueWorkerConsumerOptions,
  QueueWorkerContext,
  QueueWorkerHandler,
} from './queue-consumer-types';

type Settlement = { kind: 'ack' | 'requeue' | 'reject'; reason: string; processId?: string };

function validate(options: QueueWorkerConsumerOptions): void {
  if ((options.batchService === undefined) === (options.handler === undefined))
    throw new TypeError('give exactly one of `batchService` and `handler`');
  if (options.queues.length === 0) throw new TypeError('`queues` is empty: name at least one queue to consume');
  for (const queue of options.queues) {
    const problem = queueNameProblem(queue);
    if (problem !== undefined) throw new TypeError(`queue name '${queue}' ${problem}`);
  }
}

function parseBody(content: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(content.toString('utf8')) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The context of the request that created the process, rebuilt from what its row stores. */
function contextOf(tenant: string | null, triggerId: string | null): RequestContext {
  return restoreRequestContext({ tenant, triggerId });
}

/** Makes the consumer; nothing happens before `start()`. */
export function makeQueueWorkerConsumer(options: QueueWorkerConsumerOptions): QueueWorkerConsumer {
  validate(options);
  const logger = options.logger ?? createLogger({ name: 'queue-process-starter' });
  const source = makeAmqpConnectionSource(options, logger, defaultConnectionName('fw-queue-consumer'));
  const prefetch = Math.max(1, Math.floor(options.prefetch ?? 1));
  const maxDeliveries = Math.max(1, Math.floor(options.maxDeliveries ?? 5));
  const baseDelay = options.retryDelay?.baseMillis ?? 1000;
  const maxDelay = options.retryDelay?.maxMillis ?? 30_000;
  const reconnectDelay = normalizeBackoff(options.reconnectDelay);
  const counters = { received: 0, acked: 0, requeued: 0, rejected: 0, reported: 0, ackLost: 0, reconnects: 0 };
  /** Aborted by `stop()`: ends every backoff and requeue pause at once. */
  const stopping = new AbortController();
  /** Re-checked whenever a message finishes or a channel closes (`stop()` waiting for the channel to drain). */
  const drainWaiters = new Set<() => void>();
  /** The channel consuming now; undefined while reconnecting. */
  let current: ConsumerChannel | undefined;
  let state: QueueConsumerState = 'idle';
  let inFlight = 0;

  function emit(event: QueueConsumerEvent): void {
    try {
      options.onEvent?.(event);
    } catch (err) {
      logger.warn({ err }, 'onEvent listener threw');
    }
  }

  /** Waits `millis`, or less when `signal` aborts. */
  function pause(millis: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, millis);
      signal.addEventListener('abort', wake, { once: true });
    });
  }

  function isStopping(): boolean {
    return state === 'stopping' || state === 'stopped';
  }

  async function failStep(step: StepRef | undefined, failure: WorkerFailure, reason: string): Promise<Settlement> {
    if (step === undefined) {
      logger.error(
        { failure: failure.message },
        'worker message not attributable to a process (no process id or worker type in body or headers): rejected',
      );
      return { kind: 'reject', reason: 'unattributable' };
    }
    const result = await runWithContext(contextOf(step.tenant, null), () => reportFailure(options.sink, step, failure));
    const base = { processId: step.processId };
    switch (result.verdict) {
      case 'reported':
        counters.reported += 1;
        emit({ type: 'reported', processId: step.processId, reason });
        return { kind: 'ack', reason, ...base };
      case 'stale':
        return { kind: 'ack', reason: `${reason} (step already completed)`, ...base };
      case 'refused':
        logger.error(
          { ...base, err: result.error, failure: failure.message },
          'the process service refused the failure report: message rejected',
        );
        return { kind: 'reject', reason: `${reason} (report refused)`, ...base };
      default:
        logger.warn({ ...base, err: result.error }, 'failure could not be reported yet: message requeued');
        return { kind: 'requeue', reason: `${reason} (report failed)`, ...base };
    }
  }

  /** The body read as a WorkerDto, with the tenant of the header (the transport's word wins). */
  function readMessage(message: ConsumeMessage, headers: WorkerMessageHeaders): ReadMessage {
    const body = parseBody(message.content);
    if (!body.ok)
      return {
        ok: false,
        tenant: null,
        failure: { kind: WorkerFailureKinds.malformedPayload, message: 'worker message is not valid JSON' },
      };
    let value = body.value;
    if (headers.tenant !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const bodyTenant = (value as { tenant?: unknown }).tenant;
      if (typeof bodyTenant === 'string' && bodyTenant !== headers.tenant)
        logger.warn({ header: headers.tenant, body: bodyTenant }, 'tenant header and body differ: the header wins');
      value = { ...value, tenant: headers.tenant };
    }
    return readWorkerMessage(value);
  }

  async function run(
    worker: WorkerDto,
    queue: string,
    message: ConsumeMessage,
    delivery: number,
    signal: AbortSignal,
  ): Promise<Settlement> {
    const step: StepRef = { processId: worker.processId, workerType: worker.workerType, tenant: worker.tenant };
    if (options.batchService !== undefined) {
      // The step sees `signal` (aborted when its result can no longer be acknowledged); author
      // errors are reported at once in this launch mode (one attempt: a redelivery is a crash recovery).
      const outcome = await options.batchService
        .run(worker, { attempt: 1, maxAttempts: 1, signal })
        .catch((error: unknown) => ({ status: 'undeliverable' as const, error }));
      const settled = { processId: worker.processId, reason: outcome.status };
      if (outcome.status === 'succeeded' || outcome.status === 'stale' || outcome.status === 'failed')
        return { kind: 'ack', ...settled };
      return { kind: 'requeue', ...settled };
    }
    const handler = options.handler as QueueWorkerHandler;
    try {
      await handler(worker, { queue, messageId: message.properties.messageId as string | undefined, delivery, signal });
      return { kind: 'ack', processId: worker.processId, reason: 'handled' };
    } catch (error) {
      return failStep(step, failureOf(error, WorkerFailureKinds.invocationFailure), 'handler-failed');
    }
  }

  async function decide(
    queue: string,
    message: ConsumeMessage,
    delivery: number,
    signal: AbortSignal,
  ): Promise<Settlement> {
    const headers = readWorkerHeaders(message.properties);
    const read = readMessage(message, headers);
    if (!read.ok) {
      const processId = read.processId ?? headers.processId;
      const workerType = read.workerType ?? headers.workerType;
      const tenant = headers.tenant ?? read.tenant ?? null;
      const step = processId !== undefined && workerType !== undefined ? { processId, workerType, tenant } : undefined;
      return failStep(step, read.failure, 'malformed');
    }
    const worker = read.worker;
    if (delivery > maxDeliveries) {
      const failure: WorkerFailure = {
        kind: WorkerFailureKinds.invocationFailure,
        message: `worker message was delivered ${delivery} times without completing (consumers crashed, stopped or could not deliver its result); giving up after ${maxDeliveries}`,
      };
      return failStep(
        { processId: worker.processId, workerType: worker.workerType, tenant: worker.tenant },
        failure,
        'too-many-deliveries',
      );
    }
    return runWithContext(contextOf(worker.tenant, worker.triggerId), () =>
      run(worker, queue, message, delivery, signal),
    );
  }

  function settle(
    owner: ConsumerChannel,
    message: ConsumeMessage,
    queue: string,
    delivery: number,
    settlement: Settlement,
  ): void {
    const event = {
      queue,
      messageId: message.properties.messageId as string | undefined,
      processId: settlement.processId,
      delivery,
      reason: settlement.reason,
    };
    if (!owner.open) {
      // The delivery tag belongs to a channel that is gone, and RabbitMQ has already requeued the
      // message: drop the result. Sending it on a newer channel would make RabbitMQ close that one.
      counters.ackLost += 1;
      emit({ type: 'ack-lost', ...event });
      return;
    }
    try {
      if (settlement.kind === 'ack') owner.channel.ack(message);
      else owner.channel.nack(message, false, settlement.kind === 'requeue');
    } catch (error) {
      counters.ackLost += 1;
      emit({ type: 'ack-lost', ...event, error });
      return;
    }
    const type = settlement.kind === 'ack' ? 'acked' : settlement.kind === 'requeue' ? 'requeued' : 'rejected';
    counters[type] += 1;
    emit({ type, ...event });
  }

  async function onMessage(owner: ConsumerChannel, queue: string, message: ConsumeMessage): Promise<void> {
    if (isStopping()) {
      // arrived while stop() was cancelling the subscription: hand it back untouched
      settle(owner, message, queue, deliveryCountOf(message), { kind: 'requeue', reason: 'stopping' });
      return;
    }
    inFlight += 1;
    owner.inFlight += 1;
    counters.received += 1;
    const delivery = deliveryCountOf(message);
    emit({ type: 'received', queue, messageId: message.properties.messageId as string | undefined, delivery });
    try {
      let settlement: Settlement;
      try {
        settlement = await decide(queue, message, delivery, owner.abandon.signal);
      } catch (error) {
        logger.error({ err: error, queue }, 'unexpected error while handling a worker message: requeued');
        settlement = { kind: 'requeue', reason: 'internal-error' };
      }
      if (settlement.kind === 'requeue') {
        await pause(
          Math.min(baseDelay * 2 ** (delivery - 1), maxDelay),
          AbortSignal.any([stopping.signal, owner.abandon.signal]),
        );
      }
      settle(owner, message, queue, delivery, settlement);
    } finally {
      inFlight -= 1;
      owner.inFlight -= 1;
      for (const check of [...drainWaiters]) check();
    }
  }

  function openChannel(): Promise<ConsumerChannel> {
    return openConsumerChannel({
      source,
      queues: options.queues,
      prefetch,
      assertQueues: options.assertQueues ?? true,
      queueType: options.queueType ?? 'quorum',
      logger,
      onMessage: (owner, queue, message) => void onMessage(owner, queue, message),
      onClosed,
      onCancelled(owner, queue) {
        // No more messages from this queue on this channel: close it (its 'close' event starts the
        // reconnect), and the new channel declares the queue again.
        logger.error({ queue }, 'RabbitMQ cancelled the consumer (queue deleted?): reopening the channel');
        owner.error = new Error(`RabbitMQ cancelled the subscription to queue '${queue}'`);
        void closeConsumerChannel(owner);
      },
    });
  }

  /** Makes `opened` the consuming channel (or starts over at once if it closed in the meantime). */
  function adopt(opened: ConsumerChannel): void {
    current = opened;
    state = 'connected';
    if (!opened.open) onClosed(opened);
  }

  function onClosed(closed: ConsumerChannel): void {
    closed.open = false;
    closed.abandon.abort();
    for (const check of [...drainWaiters]) check();
    if (closed !== current) return; // a channel being opened, or one already replaced
    current = undefined;
    if (state !== 'connected') return; // closed by stop()
    state = 'reconnecting';
    logger.warn(
      { broker: source.address, err: closed.error },
      'RabbitMQ consumer channel lost: unacknowledged messages go back to their queues; reconnecting',
    );
    emit({ type: 'connection-lost', error: closed.error });
    void reconnect(closed.error);
  }

  /** Reopens the channel (and an owned connection) with backoff until it consumes again or the consumer stops. */
  async function reconnect(cause: unknown): Promise<void> {
    let lastError = cause;
    const lostAt = Date.now();
    for (let attempt = 1; state === 'reconnecting'; attempt += 1) {
      const delayMillis = backoffMillis(attempt, reconnectDelay);
      emit({ type: 'reconnecting', attempt, delayMillis, error: lastError });
      await pause(delayMillis, stopping.signal);
      if (state !== 'reconnecting') return;
      if (source.gone) {
        state = 'disconnected';
        logger.error(
          { err: lastError },
          'the RabbitMQ connection given to the consumer closed: it cannot be reopened here, the consumer no longer consumes (stop it; give `url` to have it reconnect by itself)',
        );
        emit({ type: 'disconnected', error: lastError });
        return;
      }
      let opened: ConsumerChannel;
      try {
        opened = await openChannel();
      } catch (error) {
        lastError = error;
        // Quiet outage: the loss was said once (warn); each failed attempt only at debug level.
        logger.debug({ err: error, attempt, broker: source.address }, 'RabbitMQ consumer could not reconnect yet');
        continue;
      }
      if (state !== 'reconnecting') {
        await closeConsumerChannel(opened); // stop() came while it was opening
        return;
      }
      counters.reconnects += 1;
      const outageMillis = Date.now() - lostAt;
      logger.info(
        { attempt, failedAttempts: attempt - 1, outageMillis, reconnects: counters.reconnects, broker: source.address },
        `RabbitMQ consumer reconnected after ${outageMillis} ms (${attempt - 1} failed attempts): consuming again`,
      );
      emit({ type: 'reconnected', attempt });
      adopt(opened); // a channel that closed again at once starts a new loop from there
      return;
    }
  }

  /**
   * `start()`'s first channel: tried again with backoff for `startRetryMillis` while the broker is
   * away or refuses for a passing reason; a lasting refusal, `stop()` or the end of the window throws.
   */
  async function openWithRetries(): Promise<ConsumerChannel> {
    const windowMillis = Math.max(0, options.startRetryMillis ?? 60_000);
    const until = Date.now() + windowMillis;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await openChannel();
      } catch (error) {
        if (isLastingRefusal(error) || state !== 'starting') throw error;
        const delayMillis = backoffMillis(attempt, reconnectDelay);
        if (Date.now() + delayMillis > until) {
          throw new Error(
            `RabbitMQ at ${source.address} did not accept the consumer within ${windowMillis} ms (${attempt} attempt(s)): ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          );
        }
        if (attempt === 1)
          logger.warn(
            { err: error, broker: source.address, windowMillis },
            'RabbitMQ does not accept the consumer yet: retrying quietly',
          );
        emit({ type: 'reconnecting', attempt, delayMillis, error });
        await pause(delayMillis, stopping.signal);
      }
    }
  }

  /** Resolves when `owner` has no running message, is closed (nothing could be acknowledged any more) or the time is up. */
  function drained(owner: ConsumerChannel, timeoutMillis: number): Promise<void> {
    const done = () => owner.inFlight === 0 || !owner.open;
    if (done()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        drainWaiters.delete(check);
        resolve();
      };
      const check = () => {
        if (done()) finish();
      };
      const timer = setTimeout(finish, timeoutMillis);
      drainWaiters.add(check);
    });
  }

  return {
    async start() {
      if (state !== 'idle') throw new Error(`the consumer cannot start: it is ${state}`);
      state = 'starting';
      let opened: ConsumerChannel;
      try {
        opened = await openWithRetries();
      } catch (error) {
        state = 'stopped';
        await source.close();
        throw error;
      }
      if (state !== 'starting') {
        await closeConsumerChannel(opened); // stop() came while starting
        return;
      }
      adopt(opened);
    },
    async stop(stopOptions = {}) {
      if (isStopping()) return { abandoned: 0 };
      state = 'stopping';
      stopping.abort();
      const consuming = current;
      current = undefined;
      if (consuming?.open) {
        for (const tag of consuming.consumerTags) await consuming.channel.cancel(tag).catch(() => undefined);
        // Only this channel's messages can still be acknowledged; results of a lost channel's are dropped anyway.
        await drained(consuming, stopOptions.timeoutMillis ?? options.stopTimeoutMillis ?? 30_000);
      }
      const abandoned = inFlight;
      if (abandoned > 0) {
        logger.warn({ abandoned }, 'stop gave up waiting: unacknowledged messages go back to their queues');
        consuming?.abandon.abort();
      }
      if (consuming !== undefined) await closeConsumerChannel(consuming);
      await source.close();
      state = 'stopped';
      return { abandoned };
    },
    stats: () => ({ ...counters, inFlight, consuming: state === 'connected', state }),
  };
}
