/**
 * Start and stop of the worker consumer. Start opens the first channel (retried for
 * `startRetryMillis`); a failed start closes an owned connection. Stop cancels the subscriptions,
 * waits up to the timeout for the consuming channel's messages (only they can still be
 * acknowledged), gives the rest back to their queues by closing the channel, and closes an owned
 * connection.
 */
import type { Logger } from '@fw/core';
import type { AmqpConnectionSource } from '../amqp/amqp-connection';
import { closeConsumerChannel, type ConsumerChannel } from './consumer-channel';
import type { DrainWaiters } from './consumer-pause';
import { openWithRetries, type ConsumerLinkState, type ReconnectDeps } from './consumer-reconnect';
import type { ConsumerStopResult } from './queue-consumer-types';

/** Opens the first channel and makes it the consuming one; throws when the broker never accepts it. */
export async function startConsumer(link: ReconnectDeps & { status: ConsumerLinkState }, windowMillis: number) {
  const { status } = link;
  if (status.state !== 'idle') throw new Error(`the consumer cannot start: it is ${status.state}`);
  status.state = 'starting';
  let opened: ConsumerChannel;
  try {
    opened = await openWithRetries(link, windowMillis);
  } catch (error) {
    status.state = 'stopped';
    await link.source.close();
    throw error;
  }
  if (status.state !== 'starting') {
    await closeConsumerChannel(opened); // stop() came while starting
    return;
  }
  link.adopt(opened);
}

export interface StopConsumerDeps {
  status: ConsumerLinkState;
  /** Aborted here: ends every backoff and requeue pause at once. */
  stopping: AbortController;
  drain: Pick<DrainWaiters, 'drained'>;
  /** Messages running on any channel. */
  inFlight(): number;
  source: Pick<AmqpConnectionSource, 'close'>;
  logger: Logger;
}

/** Stops consuming (see the module comment); resolves how many messages were abandoned. */
export async function stopConsumer(deps: StopConsumerDeps, timeoutMillis: number): Promise<ConsumerStopResult> {
  const { status } = deps;
  if (status.state === 'stopping' || status.state === 'stopped') return { abandoned: 0 };
  status.state = 'stopping';
  deps.stopping.abort();
  const consuming = status.current;
  status.current = undefined;
  if (consuming?.open) {
    for (const tag of consuming.consumerTags) await consuming.channel.cancel(tag).catch(() => undefined);
    // Only this channel's messages can still be acknowledged; results of a lost channel's are dropped anyway.
    await deps.drain.drained(consuming, timeoutMillis);
  }
  const abandoned = deps.inFlight();
  if (abandoned > 0) {
    deps.logger.warn({ abandoned }, 'stop gave up waiting: unacknowledged messages go back to their queues');
    consuming?.abandon.abort();
  }
  if (consuming !== undefined) await closeConsumerChannel(consuming);
  await deps.source.close();
  status.state = 'stopped';
  return { abandoned };
}
