/**
 * One channel of the worker consumer: opened, given its prefetch, its queues declared (or checked)
 * and subscribed. A delivery tag means something on the channel it came from only — acknowledging
 * it on another channel makes RabbitMQ close that channel (PRECONDITION_FAILED, unknown delivery
 * tag) — so every message is settled through the {@link ConsumerChannel} it arrived on, and once
 * that channel closed (`open` false) its results are dropped: the broker has already put the
 * messages back in their queues.
 *
 * @example
 * const owner = await openConsumerChannel({ source, queues: ['fw.import'], prefetch: 4, assertQueues: true, queueType: 'quorum', logger, onMessage, onClosed, onCancelled });
 * owner.channel.ack(message); // only for messages delivered on owner
 * await closeConsumerChannel(owner);
 */
import type { Logger } from '@fw/core';
import type { Channel, ConsumeMessage } from 'amqplib';
import type { AmqpConnectionSource } from '../amqp/amqp-connection';
import { queueDeclaration, type QueueType } from '../amqp/queue-declaration';

export interface ConsumerChannel {
  readonly channel: Channel;
  /** False from the moment the channel closed (or is being closed): nothing may be settled on it any more. */
  open: boolean;
  /** Aborted when this channel's messages can no longer be acknowledged: it was lost, or `stop()` gave up waiting. */
  readonly abandon: AbortController;
  readonly consumerTags: string[];
  /** Messages of this channel still running. */
  inFlight: number;
  /** Why the broker closed the channel, when it said so. */
  error?: unknown;
}

export interface OpenConsumerChannelOptions {
  source: AmqpConnectionSource;
  queues: readonly string[];
  prefetch: number;
  assertQueues: boolean;
  queueType: QueueType;
  logger: Logger;
  onMessage(owner: ConsumerChannel, queue: string, message: ConsumeMessage): void;
  /** The channel closed, for whatever reason (also when closed here). */
  onClosed(owner: ConsumerChannel): void;
  /** RabbitMQ cancelled the subscription to `queue` (the queue was deleted, for example). */
  onCancelled(owner: ConsumerChannel, queue: string): void;
}

/** Closes the channel; never rejects. */
export async function closeConsumerChannel(owner: ConsumerChannel): Promise<void> {
  owner.open = false;
  try {
    await owner.channel.close();
  } catch {
    // already closed, or its connection is gone: nothing left to release
  }
}

/** Opens a channel and starts consuming every queue on it; rejects (with the channel closed) when any step fails. */
export async function openConsumerChannel(options: OpenConsumerChannelOptions): Promise<ConsumerChannel> {
  const connection = await options.source.get();
  const channel = await connection.createChannel();
  const owner: ConsumerChannel = { channel, open: true, abandon: new AbortController(), consumerTags: [], inFlight: 0 };
  channel.on('error', (err: Error) => {
    owner.error = err;
    options.logger.warn({ err }, 'RabbitMQ consumer channel error');
  });
  channel.on('close', () => {
    owner.open = false;
    options.onClosed(owner);
  });
  try {
    await channel.prefetch(options.prefetch);
    for (const queue of options.queues) {
      if (options.assertQueues) await channel.assertQueue(queue, queueDeclaration(options.queueType));
      else await channel.checkQueue(queue);
    }
    for (const queue of options.queues) {
      const reply = await channel.consume(
        queue,
        (message) => (message === null ? options.onCancelled(owner, queue) : options.onMessage(owner, queue, message)),
        { noAck: false },
      );
      owner.consumerTags.push(reply.consumerTag);
    }
  } catch (error) {
    await closeConsumerChannel(owner);
    throw error;
  }
  return owner;
}
