/**
 * Where the starter and the consumer get their RabbitMQ connection: either one they open (lazily,
 * from a URL) and own, or one the host opened and owns. A lost owned connection is forgotten, so
 * the next `get()` opens a new one; a lost caller's connection cannot be reopened here (`gone`).
 *
 * @example
 * const source = makeAmqpConnectionSource({ url: 'amqp://guest:guest@127.0.0.1:5672' }, logger);
 * const channel = await (await source.get()).createConfirmChannel();
 * await source.close();
 */
import { FwError, type Logger } from '@fw/core';
import { connect, type ChannelModel } from 'amqplib';
import { hostname } from 'node:os';

/**
 * How long opening a connection may take. Without a limit a connect to a host that silently drops
 * packets waits for the operating system's TCP timeout (minutes), and with it every retry.
 */
const CONNECT_TIMEOUT_MILLIS = 10_000;

/** How to reach the broker: `url` (the package opens and owns the connection) or `connection` (yours). */
export interface AmqpConnectionOptions {
  /** `amqp://user:password@host:port/vhost` (or `amqps://`). */
  url?: string;
  /** An open amqplib connection (`await connect(url)`); it is never closed by this package. */
  connection?: ChannelModel;
  /**
   * The name RabbitMQ shows for a connection opened from `url` (management UI, `rabbitmqctl
   * list_connections client_properties`); default `fw-queue-consumer <host>:<pid>` or
   * `fw-queue-starter <host>:<pid>`.
   */
  connectionName?: string;
}

export interface AmqpConnectionSource {
  /** The connection, opened on first use (rejects with a {@link BrokerUnavailableError} when the broker cannot be reached). */
  get(): Promise<ChannelModel>;
  /** The broker address with the password hidden, for messages. */
  readonly address: string;
  /** True when the connection is opened (and closed) here. */
  readonly owned: boolean;
  /** True once no connection can be had any more: `close()` was called, or the caller's connection closed (it is not reopened here). */
  readonly gone: boolean;
  /** Closes an owned connection; a caller's connection is left open. */
  close(): Promise<void>;
}

/** The broker could not be reached or refused the login. */
export class BrokerUnavailableError extends FwError {
  constructor(
    readonly address: string,
    override readonly cause: unknown,
  ) {
    super({
      code: 503,
      subErrorCode: 'QPS_BROKER_UNAVAILABLE',
      description: `RabbitMQ is not reachable at ${address}: ${cause instanceof Error ? cause.message || cause.name : String(cause)}`,
      expose: false,
      cause,
    });
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

/** `<role> <host>:<pid>`: which process a connection in RabbitMQ's list belongs to. */
export function defaultConnectionName(role: string): string {
  return `${role} ${hostname()}:${process.pid}`;
}

/** A caller's connection: used as it is; once it closed, `get()` rejects and `gone` is true. */
function callerConnectionSource(given: ChannelModel): AmqpConnectionSource {
  let givenClosed = false;
  given.once('close', () => {
    givenClosed = true;
  });
  return {
    get: () =>
      givenClosed
        ? Promise.reject(new Error('the RabbitMQ connection given in `connection` is closed (it is not reopened here)'))
        : Promise.resolve(given),
    address: '(caller connection)',
    owned: false,
    get gone() {
      return givenClosed;
    },
    close: async () => undefined,
  };
}

/**
 * Makes the connection source; exactly one of `url` and `connection` must be given.
 * `defaultName` names a connection opened from `url` unless `connectionName` is set.
 */
export function makeAmqpConnectionSource(
  options: AmqpConnectionOptions,
  logger: Logger,
  defaultName = defaultConnectionName('fw-queue'),
): AmqpConnectionSource {
  if ((options.url === undefined) === (options.connection === undefined)) {
    throw new TypeError('give exactly one of `url` and `connection` to reach RabbitMQ');
  }
  if (options.connection !== undefined) return callerConnectionSource(options.connection);
  const url = options.url as string;
  const address = redactAmqpUrl(url);
  const socketOptions = {
    timeout: CONNECT_TIMEOUT_MILLIS,
    clientProperties: { connection_name: options.connectionName ?? defaultName },
  };
  let current: Promise<ChannelModel> | undefined;
  let currentModel: ChannelModel | undefined;
  let closed = false;

  async function open(): Promise<ChannelModel> {
    let model: ChannelModel;
    try {
      model = await connect(url, socketOptions);
    } catch (err) {
      throw new BrokerUnavailableError(address, err);
    }
    if (closed) {
      // close() came while connecting: this connection is not wanted any more
      await model.close().catch(() => undefined);
      throw new Error('the RabbitMQ connection source is closed');
    }
    model.on('error', (err: Error) => logger.warn({ err, broker: address }, 'RabbitMQ connection error'));
    model.on('close', (err?: Error) => {
      // amqplib passes the error when the broker or the network closed it (not on our own close())
      if (err !== undefined)
        logger.warn({ err, broker: address }, 'RabbitMQ connection closed: the next use opens a new one');
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
    get gone() {
      return closed;
    },
    async close() {
      closed = true;
      const last = current;
      const model = currentModel;
      current = undefined;
      currentModel = undefined;
      if (model === undefined) {
        // Still connecting (or never opened): open() closes the connection when it arrives. Not
        // waiting for it here keeps a stop during a reconnect from hanging on an unreachable broker.
        last?.catch(() => undefined);
        return;
      }
      try {
        await model.close();
      } catch {
        // already closed: nothing to release
      }
    },
  };
}
