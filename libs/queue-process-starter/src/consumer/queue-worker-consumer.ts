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
import { createLogger } from '@fw/core';
import { defaultConnectionName, makeAmqpConnectionSource } from '../amqp/amqp-connection';
import { queueNameProblem } from '../amqp/queue-declaration';
import { normalizeBackoff } from '../amqp/reconnect-backoff';
import { closeConsumerChannel, openConsumerChannel, type ConsumerChannel } from './consumer-channel';
import { makeDrainWaiters } from './consumer-pause';
import { onChannelClosed, type ConsumerLinkState, type ReconnectDeps } from './consumer-reconnect';
import { startConsumer, stopConsumer } from './consumer-start-stop';
import { makeMessageDecision } from './message-decision';
import { makeConsumerMetrics } from './consumer-metrics';
import { makeMessageHandling } from './message-handling';
import type { QueueConsumerEvent, QueueWorkerConsumer, QueueWorkerConsumerOptions } from './queue-consumer-types';

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

function validate(options: QueueWorkerConsumerOptions): void {
  if ((options.batchService === undefined) === (options.handler === undefined))
    throw new TypeError('give exactly one of `batchService` and `handler`');
  if (options.queues.length === 0) throw new TypeError('`queues` is empty: name at least one queue to consume');
  for (const queue of options.queues) {
    const problem = queueNameProblem(queue);
    if (problem !== undefined) throw new TypeError(`queue name '${queue}' ${problem}`);
  }
}

/** Makes the consumer; nothing happens before `start()`. */
export function makeQueueWorkerConsumer(options: QueueWorkerConsumerOptions): QueueWorkerConsumer {
  validate(options);
  const logger = options.logger ?? createLogger({ name: 'queue-process-starter' });
  const source = makeAmqpConnectionSource(options, logger, defaultConnectionName('fw-queue-consumer'));
  const counters = { received: 0, acked: 0, requeued: 0, rejected: 0, reported: 0, ackLost: 0, reconnects: 0 };
  /** Aborted by `stop()`: ends every backoff and requeue pause at once. */
  const stopping = new AbortController();
  const drain = makeDrainWaiters();
  /** The state, and the channel consuming now (undefined while reconnecting). */
  const status: ConsumerLinkState = { state: 'idle', current: undefined };
  const isStopping = () => status.state === 'stopping' || status.state === 'stopped';
  const hostMetrics = makeConsumerMetrics(options, logger);
  const emit = (event: QueueConsumerEvent): void => {
    try {
      options.onEvent?.(event);
    } catch (err) {
      logger.warn({ err }, 'onEvent listener threw');
    }
  };
  const handling = makeMessageHandling({
    decide: makeMessageDecision({
      options,
      logger,
      counters,
      emit,
      maxDeliveries: Math.max(1, Math.floor(options.maxDeliveries ?? 5)),
    }),
    retryDelay: {
      baseMillis: options.retryDelay?.baseMillis ?? 1000,
      maxMillis: options.retryDelay?.maxMillis ?? 30_000,
    },
    ...{ logger, counters, emit, isStopping, stopping: stopping.signal, drain, metrics: hostMetrics.metrics },
  });
  const link: ReconnectDeps & { status: ConsumerLinkState } = {
    ...{ status, source, logger, emit, counters, stopping: stopping.signal },
    reconnectDelay: normalizeBackoff(options.reconnectDelay),
    openChannel: () =>
      openConsumerChannel({
        source,
        queues: options.queues,
        prefetch: Math.max(1, Math.floor(options.prefetch ?? 1)),
        assertQueues: options.assertQueues ?? true,
        queueType: options.queueType ?? 'quorum',
        logger,
        onMessage: (owner, queue, message) => void handling.onMessage(owner, queue, message),
        onClosed,
        onCancelled(owner, queue) {
          // No more messages from this queue on this channel: close it (its 'close' event starts the
          // reconnect), and the new channel declares the queue again.
          logger.error({ queue }, 'RabbitMQ cancelled the consumer (queue deleted?): reopening the channel');
          owner.error = new Error(`RabbitMQ cancelled the subscription to queue '${queue}'`);
          void closeConsumerChannel(owner);
        },
      }),
    /** Makes `opened` the consuming channel (or starts over at once if it closed in the meantime). */
    adopt(opened) {
      status.current = opened;
      status.state = 'connected';
      if (!opened.open) onClosed(opened);
    },
  };

  const onClosed = (closed: ConsumerChannel) => onChannelClosed({ ...link, drain }, closed);

  return {
    start: () => hostMetrics.serveWhile(() => startConsumer(link, Math.max(0, options.startRetryMillis ?? 60_000))),
    stop: (stopOptions = {}) =>
      stopConsumer(
        { status, stopping, drain, inFlight: () => handling.inFlight, source, logger },
        stopOptions.timeoutMillis ?? options.stopTimeoutMillis ?? 30_000,
      ).finally(() => hostMetrics.close()),
    metrics: hostMetrics.metrics,
    metricsServer: () => hostMetrics.server(),
    stats: () => ({
      ...counters,
      inFlight: handling.inFlight,
      consuming: status.state === 'connected',
      state: status.state,
    }),
  };
}
