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
import { createLogger, runWithContext, TENANT_HEADER, type Logger, type RequestContext } from '@fw/core';
import { TRIGGER_HEADER, type WorkerDto } from '@fw/process-api';
import { failureOf, readWorkerMessage, WorkerFailureKinds, type BatchService, type ProcessEventSink, type ReadMessage, type WorkerFailure } from '@fw/process-utils';
import type { Channel, ConsumeMessage } from 'amqplib';
import { makeAmqpConnectionSource, type AmqpConnectionOptions } from '../amqp/amqp-connection';
import { queueDeclaration, queueNameProblem, type QueueType } from '../amqp/queue-declaration';
import { deliveryCountOf, readWorkerHeaders, type WorkerMessageHeaders } from '../message/worker-message-codec';
import { reportFailure, type StepRef } from './failure-report';

/** What a plain handler receives besides the worker. */
export interface QueueWorkerContext {
  queue: string;
  messageId: string | undefined;
  /** This delivery's number (1 for the first). */
  delivery: number;
  /** Aborted when `stop()` gave up waiting for the handler. */
  signal: AbortSignal;
}

/** Resolving acks the message; throwing records the error on the process (the step fails) and acks. */
export type QueueWorkerHandler = (worker: WorkerDto, context: QueueWorkerContext) => Promise<void>;

export type QueueConsumerEventType = 'received' | 'acked' | 'requeued' | 'rejected' | 'reported' | 'ack-lost' | 'connection-lost';

export interface QueueConsumerEvent {
  type: QueueConsumerEventType;
  queue?: string;
  messageId?: string;
  processId?: string;
  delivery?: number;
  /** Why: the BatchService outcome, `malformed`, `handler-failed`, `too-many-deliveries`, `unattributable`, ... */
  reason?: string;
  error?: unknown;
}

export interface QueueWorkerConsumerOptions extends AmqpConnectionOptions {
  /** Queues to consume (the `config.queue` values of the definitions this host runs). */
  queues: readonly string[];
  /** The application's BatchService (`@fw/process-utils`); or give `handler`. */
  batchService?: Pick<BatchService, 'run'>;
  /** A plain handler instead of a BatchService. */
  handler?: QueueWorkerHandler;
  /** Where failures the worker code cannot report go (malformed messages, handler errors, crash loops). */
  sink: ProcessEventSink;
  /** Unacknowledged messages (= messages running at once) per queue (default 1). */
  prefetch?: number;
  /** Declare the queues at start (default true); false: they must exist (checked). */
  assertQueues?: boolean;
  /** Type of the queues declared (default `quorum`); must match the starter's. */
  queueType?: QueueType;
  /** A message delivered more often than this is reported as failed and acked (default 5; needs quorum queues). */
  maxDeliveries?: number;
  /** Pause before a requeue: `min(base * 2^(delivery-1), max)` (default 1 000 / 30 000 ms). */
  retryDelay?: { baseMillis?: number; maxMillis?: number };
  /** Default wait of `stop()` for running messages (default 30 000 ms). */
  stopTimeoutMillis?: number;
  onEvent?: (event: QueueConsumerEvent) => void;
  logger?: Logger;
}

export interface QueueConsumerStats {
  received: number;
  acked: number;
  requeued: number;
  rejected: number;
  /** Failures this consumer recorded on processes (not counting those the BatchService reported). */
  reported: number;
  /** Settlements that could not be sent because the channel was gone (the broker redelivers those). */
  ackLost: number;
  inFlight: number;
  consuming: boolean;
}

export interface ConsumerStopResult {
  /** Messages still running when the wait ended; unacked, so RabbitMQ redelivers them. */
  abandoned: number;
}

export interface QueueWorkerConsumer {
  /** Connects, declares (or checks) the queues and starts consuming. */
  start(): Promise<void>;
  /** Stops receiving, waits for running messages (up to the timeout), closes the channel (and an owned connection). */
  stop(options?: { timeoutMillis?: number }): Promise<ConsumerStopResult>;
  stats(): QueueConsumerStats;
}

type Settlement = { kind: 'ack' | 'requeue' | 'reject'; reason: string; processId?: string };

function validate(options: QueueWorkerConsumerOptions): void {
  if ((options.batchService === undefined) === (options.handler === undefined)) throw new TypeError('give exactly one of `batchService` and `handler`');
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

function contextOf(tenant: string | null, triggerId: string | null): RequestContext {
  const headers: Record<string, string> = {};
  if (tenant !== null) headers[TENANT_HEADER] = tenant;
  if (triggerId !== null) headers[TRIGGER_HEADER] = triggerId;
  return { tenantId: tenant ?? undefined, headers };
}

/** Makes the consumer; nothing happens before `start()`. */
export function makeQueueWorkerConsumer(options: QueueWorkerConsumerOptions): QueueWorkerConsumer {
  validate(options);
  const logger = options.logger ?? createLogger({ name: 'queue-process-starter' });
  const source = makeAmqpConnectionSource(options, logger);
  const prefetch = Math.max(1, Math.floor(options.prefetch ?? 1));
  const maxDeliveries = Math.max(1, Math.floor(options.maxDeliveries ?? 5));
  const baseDelay = options.retryDelay?.baseMillis ?? 1000;
  const maxDelay = options.retryDelay?.maxMillis ?? 30_000;
  const counters = { received: 0, acked: 0, requeued: 0, rejected: 0, reported: 0, ackLost: 0 };
  const abort = new AbortController();
  const wakers = new Set<() => void>();
  const idleWaiters = new Set<() => void>();
  let channel: Channel | undefined;
  let channelOpen = false;
  let consumerTags: string[] = [];
  let state: 'new' | 'starting' | 'running' | 'stopping' | 'stopped' = 'new';
  let inFlight = 0;

  function emit(event: QueueConsumerEvent): void {
    try {
      options.onEvent?.(event);
    } catch (err) {
      logger.warn({ err }, 'onEvent listener threw');
    }
  }

  /** Waits `millis`, or less when the consumer stops. */
  function pause(millis: number): Promise<void> {
    if (state === 'stopping' || state === 'stopped') return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, millis);
      wakers.add(wake);
    });
  }

  async function failStep(step: StepRef | undefined, failure: WorkerFailure, reason: string): Promise<Settlement> {
    if (step === undefined) {
      logger.error({ failure: failure.message }, 'worker message not attributable to a process (no process id or worker type in body or headers): rejected');
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
        logger.error({ ...base, err: result.error, failure: failure.message }, 'the process service refused the failure report: message rejected');
        return { kind: 'reject', reason: `${reason} (report refused)`, ...base };
      default:
        logger.warn({ ...base, err: result.error }, 'failure could not be reported yet: message requeued');
        return { kind: 'requeue', reason: `${reason} (report failed)`, ...base };
    }
  }

  /** The body read as a WorkerDto, with the tenant of the header (the transport's word wins). */
  function readMessage(message: ConsumeMessage, headers: WorkerMessageHeaders): ReadMessage {
    const body = parseBody(message.content);
    if (!body.ok) return { ok: false, tenant: null, failure: { kind: WorkerFailureKinds.malformedPayload, message: 'worker message is not valid JSON' } };
    let value = body.value;
    if (headers.tenant !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const bodyTenant = (value as { tenant?: unknown }).tenant;
      if (typeof bodyTenant === 'string' && bodyTenant !== headers.tenant) logger.warn({ header: headers.tenant, body: bodyTenant }, 'tenant header and body differ: the header wins');
      value = { ...value, tenant: headers.tenant };
    }
    return readWorkerMessage(value);
  }

  async function run(worker: WorkerDto, queue: string, message: ConsumeMessage, delivery: number): Promise<Settlement> {
    const step: StepRef = { processId: worker.processId, workerType: worker.workerType, tenant: worker.tenant };
    if (options.batchService !== undefined) {
      const outcome = await options.batchService.run(worker).catch((error: unknown) => ({ status: 'undeliverable' as const, error }));
      const settled = { processId: worker.processId, reason: outcome.status };
      if (outcome.status === 'succeeded' || outcome.status === 'stale' || outcome.status === 'failed') return { kind: 'ack', ...settled };
      return { kind: 'requeue', ...settled };
    }
    const handler = options.handler as QueueWorkerHandler;
    try {
      await handler(worker, { queue, messageId: message.properties.messageId as string | undefined, delivery, signal: abort.signal });
      return { kind: 'ack', processId: worker.processId, reason: 'handled' };
    } catch (error) {
      return failStep(step, failureOf(error, WorkerFailureKinds.invocationFailure), 'handler-failed');
    }
  }

  async function decide(queue: string, message: ConsumeMessage, delivery: number): Promise<Settlement> {
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
      return failStep({ processId: worker.processId, workerType: worker.workerType, tenant: worker.tenant }, failure, 'too-many-deliveries');
    }
    return runWithContext(contextOf(worker.tenant, worker.triggerId), () => run(worker, queue, message, delivery));
  }

  function settle(message: ConsumeMessage, queue: string, delivery: number, settlement: Settlement): void {
    const event = { queue, messageId: message.properties.messageId as string | undefined, processId: settlement.processId, delivery, reason: settlement.reason };
    const target = channel;
    if (target === undefined || !channelOpen) {
      counters.ackLost += 1;
      emit({ type: 'ack-lost', ...event });
      return;
    }
    try {
      if (settlement.kind === 'ack') target.ack(message);
      else target.nack(message, false, settlement.kind === 'requeue');
    } catch (error) {
      counters.ackLost += 1;
      emit({ type: 'ack-lost', ...event, error });
      return;
    }
    const type = settlement.kind === 'ack' ? 'acked' : settlement.kind === 'requeue' ? 'requeued' : 'rejected';
    counters[type] += 1;
    emit({ type, ...event });
  }

  async function onMessage(queue: string, message: ConsumeMessage): Promise<void> {
    if (state === 'stopping' || state === 'stopped') {
      // arrived while stop() was cancelling the subscription: hand it back untouched
      settle(message, queue, deliveryCountOf(message), { kind: 'requeue', reason: 'stopping' });
      return;
    }
    inFlight += 1;
    counters.received += 1;
    const delivery = deliveryCountOf(message);
    emit({ type: 'received', queue, messageId: message.properties.messageId as string | undefined, delivery });
    try {
      let settlement: Settlement;
      try {
        settlement = await decide(queue, message, delivery);
      } catch (error) {
        logger.error({ err: error, queue }, 'unexpected error while handling a worker message: requeued');
        settlement = { kind: 'requeue', reason: 'internal-error' };
      }
      if (settlement.kind === 'requeue') await pause(Math.min(baseDelay * 2 ** (delivery - 1), maxDelay));
      settle(message, queue, delivery, settlement);
    } finally {
      inFlight -= 1;
      if (inFlight === 0) for (const resolve of [...idleWaiters]) resolve();
    }
  }

  function waitIdle(timeoutMillis: number): Promise<boolean> {
    if (inFlight === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const done = (idle: boolean) => {
        clearTimeout(timer);
        idleWaiters.delete(onIdle);
        resolve(idle);
      };
      const onIdle = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMillis);
      idleWaiters.add(onIdle);
    });
  }

  return {
    async start() {
      if (state !== 'new') throw new Error(`the consumer cannot start: it is ${state}`);
      state = 'starting';
      try {
        const connection = await source.get();
        const opened = await connection.createChannel();
        channel = opened;
        channelOpen = true;
        opened.on('error', (err: Error) => logger.warn({ err }, 'RabbitMQ consumer channel error'));
        opened.on('close', () => {
          channelOpen = false;
          if (state === 'running' || state === 'starting') {
            logger.error({ broker: source.address }, 'RabbitMQ consumer channel closed: unacknowledged messages go back to their queues; this consumer stopped consuming');
            emit({ type: 'connection-lost' });
          }
        });
        await opened.prefetch(prefetch);
        for (const queue of options.queues) {
          if (options.assertQueues ?? true) await opened.assertQueue(queue, queueDeclaration(options.queueType ?? 'quorum'));
          else await opened.checkQueue(queue);
        }
        for (const queue of options.queues) {
          const reply = await opened.consume(queue, (message) => {
            if (message === null) {
              logger.error({ queue }, 'RabbitMQ cancelled the consumer (queue deleted?)');
              return;
            }
            void onMessage(queue, message);
          }, { noAck: false });
          consumerTags.push(reply.consumerTag);
        }
        state = 'running';
      } catch (error) {
        state = 'stopped';
        channelOpen = false;
        await source.close();
        throw error;
      }
    },
    async stop(stopOptions = {}) {
      if (state === 'stopped' || state === 'stopping') return { abandoned: 0 };
      const wasRunning = state === 'running';
      state = 'stopping';
      if (wasRunning && channel !== undefined && channelOpen) {
        for (const tag of consumerTags) await channel.cancel(tag).catch(() => undefined);
      }
      consumerTags = [];
      for (const wake of [...wakers]) wake();
      // without a channel no acknowledgement can go out any more: do not wait for running handlers
      const idle = channelOpen ? await waitIdle(stopOptions.timeoutMillis ?? options.stopTimeoutMillis ?? 30_000) : inFlight === 0;
      const abandoned = idle ? 0 : inFlight;
      if (!idle) {
        logger.warn({ abandoned }, 'stop gave up waiting: unacknowledged messages go back to their queues');
        abort.abort();
      }
      channelOpen = false;
      await channel?.close().catch(() => undefined);
      await source.close();
      state = 'stopped';
      return { abandoned };
    },
    stats: () => ({ ...counters, inFlight, consuming: state === 'running' && channelOpen }),
  };
}
