/**
 * Where the starter and the consumer get their RabbitMQ connection: either one they open (lazily,
 * from a URL) and own, or one the host opened and owns. A lost owned connection is forgotten, so
 * the next `get()` opens a new one.
 *
 * @example
 * const source = makeAmqpConnectionSource({ url: 'amqp://guest:guest@127.0.0.1:5672' }, logger);
 * const channel = await (await source.get()).createConfirmChannel();
 * await source.close();
 */
import type { Logger } from '@fw/core';
import { connect, type ChannelModel } from 'amqplib';

/** How to reach the broker: `url` (the package opens and owns the connection) or `connection` (yours). */
export interface AmqpConnectionOptions {
  /** `amqp://user:password@host:port/vhost` (or `amqps://`). */
  url?: string;
  /** An open amqplib connection (`await connect(url)`); it is never closed by this package. */
  connection?: ChannelModel;
}

export interface AmqpConnectionSource {
  /** The connection, opened on first use (rejects with a {@link BrokerUnavailableError} when the broker cannot be reached). */
  get(): Promise<ChannelModel>;
  /** The broker address with the password hidden, for messages. */
  readonly address: string;
  /** True when the connection is opened (and closed) here. */
  readonly owned: boolean;
  /** Closes an owned connection; a caller's connection is left open. */
  close(): Promise<void>;
}

/** The broker could not be reached or refused the login. */
export class BrokerUnavailableError extends Error {
  constructor(
    readonly address: string,
    override readonly cause: unknown,
  ) {
    super(`RabbitMQ is not reachable at ${address}: ${cause instanceof Error ? cause.message || cause.name : String(cause)}`);
    this.name = 'BrokerUnavailableError';
  }
}

/** The URL with its password replaced by `***`. */
export function redactAmqpUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(unparsable amqp url)';
  }
}

/** Makes the connection source; exactly one of `url` and `connection` must be given. */
export function makeAmqpConnectionSource(options: AmqpConnectionOptions, logger: Logger): AmqpConnectionSource {
  if ((options.url === undefined) === (options.connection === undefined)) {
    throw new TypeError('give exactly one of `url` and `connection` to reach RabbitMQ');
  }
  const given = options.connection;
  if (given !== undefined) {
    return { get: async () => given, address: '(caller connection)', owned: false, close: async () => undefined };
  }
  const url = options.url as string;
  const address = redactAmqpUrl(url);
  let current: Promise<ChannelModel> | undefined;
  let currentModel: ChannelModel | undefined;
  let closed = false;

  async function open(): Promise<ChannelModel> {
    let model: ChannelModel;
    try {
      model = await connect(url);
    } catch (err) {
      throw new BrokerUnavailableError(address, err);
    }
    model.on('error', (err: Error) => logger.warn({ err, broker: address }, 'RabbitMQ connection error'));
    model.on('close', () => {
      if (currentModel !== model) return;
      currentModel = undefined;
      current = undefined;
    });
    currentModel = model;
    return model;
  }

  return {
    get() {
      if (closed) return Promise.reject(new Error('the RabbitMQ connection source is closed'));
      if (current === undefined) {
        const pending = open();
        current = pending;
        pending.catch(() => {
          if (current === pending) current = undefined;
        });
      }
      return current;
    },
    address,
    owned: true,
    async close() {
      closed = true;
      const last = current;
      current = undefined;
      currentModel = undefined;
      if (last === undefined) return;
      try {
        await (await last).close();
      } catch {
        // already closed or never opened: nothing to release
      }
    },
  };
}
