/**
 * The confirm channel publishes go through: opened on first use (and again after it closed or
 * failed), remembering which queues it declared and which messages the broker returned as
 * unroutable (a return arrives before its confirm).
 */
import type { Logger } from '@fw/core';
import type { ConfirmChannel } from 'amqplib';
import type { AmqpConnectionSource } from '../amqp/amqp-connection';

/** An open confirm channel and what is known about it. */
export interface OpenChannel {
  channel: ConfirmChannel;
  asserted: Set<string>;
  /** messageIds the broker returned as unroutable (a return arrives before its confirm). */
  returned: Set<string>;
  closed: boolean;
}

export interface PublishChannelHolder {
  /** The current channel, opened when there is none. */
  get(): Promise<OpenChannel>;
  /** A publish on `state` failed: the next publish opens a new channel; `state` is closed. */
  drop(state: OpenChannel | undefined): Promise<void>;
  /** Closes the current channel, if any. */
  close(): Promise<void>;
}

/** Closes a channel unless it is closed already; never rejects. */
async function discard(state: OpenChannel | undefined): Promise<void> {
  if (state === undefined || state.closed) return;
  state.closed = true;
  try {
    await state.channel.close();
  } catch {
    // the channel is already gone
  }
}

export function makePublishChannelHolder(deps: {
  source: Pick<AmqpConnectionSource, 'get'>;
  logger: Logger;
}): PublishChannelHolder {
  let current: Promise<OpenChannel> | undefined;

  async function open(): Promise<OpenChannel> {
    const connection = await deps.source.get();
    const channel = await connection.createConfirmChannel();
    const state: OpenChannel = { channel, asserted: new Set(), returned: new Set(), closed: false };
    channel.on('return', (message: { properties: { messageId?: unknown } }) => {
      if (typeof message.properties.messageId === 'string') state.returned.add(message.properties.messageId);
    });
    channel.on('error', (err: Error) => deps.logger.warn({ err }, 'RabbitMQ publish channel error'));
    channel.on('close', () => {
      state.closed = true;
      if (current === opened) current = undefined;
    });
    const opened: Promise<OpenChannel> = Promise.resolve(state);
    current = opened;
    return state;
  }

  return {
    get() {
      if (current === undefined) {
        const pending = open();
        current = pending;
        pending.catch(() => {
          if (current === pending) current = undefined;
        });
      }
      return current;
    },
    async drop(state) {
      if (current !== undefined && state !== undefined && (await current.catch(() => undefined)) === state)
        current = undefined;
      await discard(state);
    },
    async close() {
      const last = current;
      current = undefined;
      if (last !== undefined) await discard(await last.catch(() => undefined));
    },
  };
}
