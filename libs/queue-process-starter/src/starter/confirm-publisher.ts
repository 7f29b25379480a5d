/**
 * Publishing with publisher confirms: each publish resolves only when the broker has taken
 * responsibility for the message (for a persistent message on a durable queue: written), and
 * rejects when the broker nacks it, returns it as unroutable (`mandatory`: the queue does not
 * exist), the channel closes first, or no confirm arrives in time. A failed publish drops its
 * channel and is tried again, up to `attempts` tries in all, after a capped exponential backoff
 * with jitter; a try after the connection was lost opens a new connection.
 *
 * @example
 * const publisher = makeConfirmPublisher({ source, queueType: 'quorum', assertQueues: true, attempts: 8, retryDelay: DEFAULT_RECONNECT_DELAY, confirmTimeoutMillis: 10_000, logger });
 * await publisher.publish('fw.import', encodeWorkerMessage(worker));
 */
import type { Logger } from '@fw/core';
import type { AmqpConnectionSource } from '../amqp/amqp-connection';
import { queueDeclaration, type QueueType } from '../amqp/queue-declaration';
import { backoffMillis, type BackoffDelay } from '../amqp/reconnect-backoff';
import { QueueHeaders, type EncodedWorkerMessage } from '../message/worker-message-codec';
import { makePublishChannelHolder, type OpenChannel } from './publish-channel';

export interface ConfirmPublisherOptions {
  source: AmqpConnectionSource;
  queueType: QueueType;
  /** Declare each queue (once per channel) before the first publish to it. */
  assertQueues: boolean;
  /** Tries per message (at least 1). */
  attempts: number;
  /** Wait before each further try. */
  retryDelay: Required<BackoffDelay>;
  confirmTimeoutMillis: number;
  /** Called for each failed try that is tried again. */
  onRetry?: (error: unknown, attempt: number) => void;
  logger: Logger;
}

export interface ConfirmPublisher {
  /** Resolves once the broker confirmed the message; rejects with the last attempt's error. */
  publish(queue: string, message: EncodedWorkerMessage): Promise<void>;
  close(): Promise<void>;
}

const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Publishes `message` on `state`'s channel (mandatory: an unroutable message comes back) and
 * resolves on the broker's confirm; rejects on a nack, a return, a closed channel or no confirm
 * within `timeoutMillis`.
 */
function confirm(
  state: OpenChannel,
  queue: string,
  message: EncodedWorkerMessage,
  timeoutMillis: number,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(
      () => finish(new Error(`no publisher confirm from RabbitMQ within ${timeoutMillis} ms`)),
      timeoutMillis,
    );
    function finish(err: unknown): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err !== null && err !== undefined)
        reject(err instanceof Error ? err : new Error(`RabbitMQ refused the message: ${String(err)}`));
      else if (state.returned.delete(message.properties.messageId))
        reject(new Error(`RabbitMQ returned the message as unroutable: queue '${queue}' does not exist`));
      else resolve();
    }
    try {
      state.channel.publish('', queue, message.content, { ...message.properties, mandatory: true }, (err: unknown) =>
        finish(err),
      );
    } catch (err) {
      finish(err);
    }
  });
}

export function makeConfirmPublisher(options: ConfirmPublisherOptions): ConfirmPublisher {
  const { source, logger } = options;
  const channels = makePublishChannelHolder({ source, logger });

  async function publishOnce(queue: string, message: EncodedWorkerMessage): Promise<void> {
    let state: OpenChannel | undefined;
    try {
      state = await channels.get();
      if (options.assertQueues && !state.asserted.has(queue)) {
        await state.channel.assertQueue(queue, queueDeclaration(options.queueType));
        state.asserted.add(queue);
      }
      await confirm(state, queue, message, options.confirmTimeoutMillis);
    } catch (err) {
      await channels.drop(state);
      throw err;
    }
  }

  return {
    async publish(queue, message) {
      const attempts = Math.max(1, Math.floor(options.attempts));
      for (let attempt = 1; ; attempt += 1) {
        try {
          await publishOnce(queue, message);
          return;
        } catch (err) {
          if (attempt >= attempts) throw err;
          const delayMillis = backoffMillis(attempt, options.retryDelay);
          const processId = message.properties.headers[QueueHeaders.processId];
          logger.warn(
            { queue, processId, attempt, attempts, delayMillis, err: messageOf(err) },
            'publish to RabbitMQ failed: retrying on a new channel (and a new connection if it was lost)',
          );
          options.onRetry?.(err, attempt);
          await sleep(delayMillis);
        }
      }
    },
    async close() {
      await channels.close();
      await source.close();
    },
  };
}
