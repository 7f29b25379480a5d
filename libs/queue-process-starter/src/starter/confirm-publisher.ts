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
import type { ConfirmChannel } from 'amqplib';
import type { AmqpConnectionSource } from '../amqp/amqp-connection';
import { queueDeclaration, type QueueType } from '../amqp/queue-declaration';
import { backoffMillis, type BackoffDelay } from '../amqp/reconnect-backoff';
import { QueueHeaders, type EncodedWorkerMessage } from '../message/worker-message-codec';

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

interface OpenChannel {
  channel: ConfirmChannel;
  asserted: Set<string>;
  /** messageIds the broker returned as unroutable (a return arrives before its confirm). */
  returned: Set<string>;
  closed: boolean;
}

const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function makeConfirmPublisher(options: ConfirmPublisherOptions): ConfirmPublisher {
  const { source, logger } = options;
  let current: Promise<OpenChannel> | undefined;

  async function open(): Promise<OpenChannel> {
    const connection = await source.get();
    const channel = await connection.createConfirmChannel();
    const state: OpenChannel = { channel, asserted: new Set(), returned: new Set(), closed: false };
    channel.on('return', (message: { properties: { messageId?: unknown } }) => {
      if (typeof message.properties.messageId === 'string') state.returned.add(message.properties.messageId);
    });
    channel.on('error', (err: Error) => logger.warn({ err }, 'RabbitMQ publish channel error'));
    channel.on('close', () => {
      state.closed = true;
      if (current === opened) current = undefined;
    });
    const opened: Promise<OpenChannel> = Promise.resolve(state);
    current = opened;
    return state;
  }

  function channelOf(): Promise<OpenChannel> {
    if (current === undefined) {
      const pending = open();
      current = pending;
      pending.catch(() => {
        if (current === pending) current = undefined;
      });
    }
    return current;
  }

  async function discard(state: OpenChannel | undefined): Promise<void> {
    if (state === undefined || state.closed) return;
    state.closed = true;
    try {
      await state.channel.close();
    } catch {
      // the channel is already gone
    }
  }

  function confirm(state: OpenChannel, queue: string, message: EncodedWorkerMessage): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(
        () => finish(new Error(`no publisher confirm from RabbitMQ within ${options.confirmTimeoutMillis} ms`)),
        options.confirmTimeoutMillis,
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

  async function publishOnce(queue: string, message: EncodedWorkerMessage): Promise<void> {
    let state: OpenChannel | undefined;
    try {
      state = await channelOf();
      if (options.assertQueues && !state.asserted.has(queue)) {
        await state.channel.assertQueue(queue, queueDeclaration(options.queueType));
        state.asserted.add(queue);
      }
      await confirm(state, queue, message);
    } catch (err) {
      if (current !== undefined && state !== undefined && (await current.catch(() => undefined)) === state)
        current = undefined;
      await discard(state);
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
      const last = current;
      current = undefined;
      if (last !== undefined) await discard(await last.catch(() => undefined));
      await source.close();
    },
  };
}
