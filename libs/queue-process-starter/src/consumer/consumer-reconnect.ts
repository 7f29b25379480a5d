/**
 * Getting a consuming channel back: after a lost channel, reopen it (and an owned connection) with
 * a capped exponential backoff until it consumes again or the consumer stops — the loss said once
 * (warn) and the return once (info), each failed attempt only at debug level; at start, the first
 * channel tried again for `startRetryMillis` while the broker is away or refuses for a passing
 * reason.
 */
import type { Logger } from '@fw/core';
import type { AmqpConnectionSource } from '../amqp/amqp-connection';
import { isLastingRefusal } from '../amqp/broker-refusal';
import { backoffMillis, type BackoffDelay } from '../amqp/reconnect-backoff';
import { closeConsumerChannel, type ConsumerChannel } from './consumer-channel';
import { pause, type DrainWaiters } from './consumer-pause';
import type { QueueConsumerEvent, QueueConsumerState } from './queue-consumer-types';

/** The consumer's state, shared by reference with the consumer. */
export interface ConsumerStateRef {
  state: QueueConsumerState;
}

/** The consumer's state and its consuming channel (undefined while reconnecting). */
export interface ConsumerLinkState extends ConsumerStateRef {
  current: ConsumerChannel | undefined;
}

export interface ReconnectDeps {
  status: ConsumerStateRef;
  source: Pick<AmqpConnectionSource, 'address' | 'gone' | 'close'>;
  openChannel(): Promise<ConsumerChannel>;
  /** Makes an opened channel the consuming one. */
  adopt(opened: ConsumerChannel): void;
  reconnectDelay: Required<BackoffDelay>;
  /** Aborted by `stop()`: ends every backoff pause at once. */
  stopping: AbortSignal;
  logger: Logger;
  emit(event: QueueConsumerEvent): void;
  counters: { reconnects: number };
}

function reconnected(deps: ReconnectDeps, attempt: number, lostAt: number): void {
  deps.counters.reconnects += 1;
  const outageMillis = Date.now() - lostAt;
  deps.logger.info(
    {
      attempt,
      failedAttempts: attempt - 1,
      outageMillis,
      reconnects: deps.counters.reconnects,
      broker: deps.source.address,
    },
    `RabbitMQ consumer reconnected after ${outageMillis} ms (${attempt - 1} failed attempts): consuming again`,
  );
  deps.emit({ type: 'reconnected', attempt });
}

/** Reopens the channel (and an owned connection) with backoff until it consumes again or the consumer stops. */
export async function reconnectConsumer(deps: ReconnectDeps, cause: unknown): Promise<void> {
  const { status, source, logger } = deps;
  let lastError = cause;
  const lostAt = Date.now();
  for (let attempt = 1; status.state === 'reconnecting'; attempt += 1) {
    const delayMillis = backoffMillis(attempt, deps.reconnectDelay);
    deps.emit({ type: 'reconnecting', attempt, delayMillis, error: lastError });
    await pause(delayMillis, deps.stopping);
    if (status.state !== 'reconnecting') return;
    if (source.gone) {
      status.state = 'disconnected';
      logger.error(
        { err: lastError },
        'the RabbitMQ connection given to the consumer closed: it cannot be reopened here, the consumer no longer consumes (stop it; give `url` to have it reconnect by itself)',
      );
      deps.emit({ type: 'disconnected', error: lastError });
      return;
    }
    let opened: ConsumerChannel;
    try {
      opened = await deps.openChannel();
    } catch (error) {
      lastError = error;
      // Quiet outage: the loss was said once (warn); each failed attempt only at debug level.
      logger.debug({ err: error, attempt, broker: source.address }, 'RabbitMQ consumer could not reconnect yet');
      continue;
    }
    if (status.state !== 'reconnecting') {
      await closeConsumerChannel(opened); // stop() came while it was opening
      return;
    }
    reconnected(deps, attempt, lostAt);
    deps.adopt(opened); // a channel that closed again at once starts a new loop from there
    return;
  }
}

/**
 * `start()`'s first channel: tried again with backoff for `windowMillis` while the broker is
 * away or refuses for a passing reason; a lasting refusal, `stop()` or the end of the window throws.
 */
export async function openWithRetries(
  deps: Pick<ReconnectDeps, 'status' | 'source' | 'openChannel' | 'reconnectDelay' | 'stopping' | 'logger' | 'emit'>,
  windowMillis: number,
): Promise<ConsumerChannel> {
  const { source } = deps;
  const until = Date.now() + windowMillis;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await deps.openChannel();
    } catch (error) {
      if (isLastingRefusal(error) || deps.status.state !== 'starting') throw error;
      const delayMillis = backoffMillis(attempt, deps.reconnectDelay);
      if (Date.now() + delayMillis > until) {
        throw new Error(
          `RabbitMQ at ${source.address} did not accept the consumer within ${windowMillis} ms (${attempt} attempt(s)): ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      if (attempt === 1)
        deps.logger.warn(
          { err: error, broker: source.address, windowMillis },
          'RabbitMQ does not accept the consumer yet: retrying quietly',
        );
      deps.emit({ type: 'reconnecting', attempt, delayMillis, error });
      await pause(delayMillis, deps.stopping);
    }
  }
}

/**
 * A channel closed, for whatever reason: nothing may be settled on it any more and its running
 * messages are abandoned; when it was the consuming one and the consumer was not stopping, the
 * loss is said once and the reconnect starts.
 */
export function onChannelClosed(
  link: ReconnectDeps & { status: ConsumerLinkState; drain: Pick<DrainWaiters, 'notify'> },
  closed: ConsumerChannel,
): void {
  const { status } = link;
  closed.open = false;
  closed.abandon.abort();
  link.drain.notify();
  if (closed !== status.current) return; // a channel being opened, or one already replaced
  status.current = undefined;
  if (status.state !== 'connected') return; // closed by stop()
  status.state = 'reconnecting';
  link.logger.warn(
    { broker: link.source.address, err: closed.error },
    'RabbitMQ consumer channel lost: unacknowledged messages go back to their queues; reconnecting',
  );
  link.emit({ type: 'connection-lost', error: closed.error });
  void reconnectConsumer(link, closed.error);
}
