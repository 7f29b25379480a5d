/**
 * One delivered message from arrival to settlement: counted, decided, paused before a requeue
 * (a capped exponential backoff by delivery count), then acknowledged, requeued or rejected on the
 * channel it came from — or dropped (`ack-lost`) when that channel is gone, because its delivery
 * tag means nothing on another one and the broker has already requeued the message.
 */
import type { Logger } from '@fw/core';
import type { ConsumeMessage } from 'amqplib';
import { extractTraceContext, inMessagingSpan, type FwMetrics, type MessagingSpanOptions } from '@fw/telemetry';
import { deliveryCountOf, readWorkerHeaders } from '../message/worker-message-codec';
import { recordAttempt } from './attempt-metrics';
import type { ConsumerChannel } from './consumer-channel';
import { pause, type DrainWaiters } from './consumer-pause';
import type { MessageDecision, Settlement } from './message-decision';
import type { QueueConsumerEvent } from './queue-consumer-types';

/** The consumer's counters this module adds to. */
export interface HandlingCounters {
  received: number;
  acked: number;
  requeued: number;
  rejected: number;
  ackLost: number;
}

export interface MessageHandlingDeps {
  decide: MessageDecision;
  logger: Logger;
  counters: HandlingCounters;
  emit(event: QueueConsumerEvent): void;
  /** True once `stop()` began: new arrivals are handed back untouched. */
  isStopping(): boolean;
  /** Aborted by `stop()`: ends every requeue pause at once. */
  stopping: AbortSignal;
  drain: Pick<DrainWaiters, 'notify'>;
  /** Requeue pauses: `min(baseMillis * 2^(delivery-1), maxMillis)`. */
  retryDelay: { baseMillis: number; maxMillis: number };
  /** Counts each settled delivery in `fw_work_item_attempts_total` (absent: nothing recorded). */
  metrics?: FwMetrics;
}

export interface MessageHandling {
  onMessage(owner: ConsumerChannel, queue: string, message: ConsumeMessage): Promise<void>;
  /** Messages running on any channel. */
  readonly inFlight: number;
}

/** The messaging span options of a delivery: the queue and the fw headers the publisher set. */
function spanOptionsOf(queue: string, message: ConsumeMessage): MessagingSpanOptions {
  const headers = readWorkerHeaders(message.properties);
  return {
    system: 'rabbitmq',
    destination: queue,
    tenant: headers.tenant,
    processId: headers.processId,
    processType: headers.processType,
    workerType: headers.workerType,
    triggerId: headers.triggerId,
  };
}

/** The publisher's trace context from the `traceparent` / `tracestate` headers (none: a new trace). */
function parentContextOf(message: ConsumeMessage) {
  const headers: Record<string, unknown> = message.properties.headers ?? {};
  const header = (name: string) => {
    const value = headers[name];
    return Buffer.isBuffer(value) ? value.toString('utf8') : typeof value === 'string' ? value : undefined;
  };
  return extractTraceContext({ traceparent: header('traceparent'), tracestate: header('tracestate') });
}

export function makeMessageHandling(deps: MessageHandlingDeps): MessageHandling {
  const { counters, emit } = deps;
  let inFlight = 0;

  function settle(
    owner: ConsumerChannel,
    message: ConsumeMessage,
    queue: string,
    delivery: number,
    settlement: Settlement,
  ): void {
    const messageId = message.properties.messageId as string | undefined;
    const event = { queue, messageId, processId: settlement.processId, delivery, reason: settlement.reason };
    if (!owner.open) {
      // The delivery tag belongs to a channel that is gone, and RabbitMQ has already requeued the
      // message: drop the result. Sending it on a newer channel would make RabbitMQ close that one.
      counters.ackLost += 1;
      emit({ type: 'ack-lost', ...event });
      return;
    }
    try {
      if (settlement.kind === 'ack') owner.channel.ack(message);
      else owner.channel.nack(message, false, settlement.kind === 'requeue');
    } catch (error) {
      counters.ackLost += 1;
      emit({ type: 'ack-lost', ...event, error });
      return;
    }
    const type = settlement.kind === 'ack' ? 'acked' : settlement.kind === 'requeue' ? 'requeued' : 'rejected';
    counters[type] += 1;
    emit({ type, ...event });
    if (deps.metrics !== undefined) recordAttempt(deps.metrics, message, settlement);
  }

  async function decideAndSettle(owner: ConsumerChannel, queue: string, message: ConsumeMessage, delivery: number) {
    let settlement: Settlement;
    try {
      settlement = await deps.decide(queue, message, delivery, owner.abandon.signal);
    } catch (error) {
      deps.logger.error({ err: error, queue }, 'unexpected error while handling a worker message: requeued');
      settlement = { kind: 'requeue', reason: 'internal-error' };
    }
    if (settlement.kind === 'requeue') {
      const { baseMillis, maxMillis } = deps.retryDelay;
      await pause(
        Math.min(baseMillis * 2 ** (delivery - 1), maxMillis),
        AbortSignal.any([deps.stopping, owner.abandon.signal]),
      );
    }
    const settling = { ...spanOptionsOf(queue, message), processId: settlement.processId };
    await inMessagingSpan('settle', settling, () => settle(owner, message, queue, delivery, settlement));
  }

  return {
    async onMessage(owner, queue, message) {
      if (deps.isStopping()) {
        // arrived while stop() was cancelling the subscription: hand it back untouched
        settle(owner, message, queue, deliveryCountOf(message), { kind: 'requeue', reason: 'stopping' });
        return;
      }
      inFlight += 1;
      owner.inFlight += 1;
      counters.received += 1;
      const delivery = deliveryCountOf(message);
      emit({ type: 'received', queue, messageId: message.properties.messageId as string | undefined, delivery });
      try {
        await inMessagingSpan('process', { ...spanOptionsOf(queue, message), parent: parentContextOf(message) }, () =>
          decideAndSettle(owner, queue, message, delivery),
        );
      } finally {
        inFlight -= 1;
        owner.inFlight -= 1;
        deps.drain.notify();
      }
    },
    get inFlight() {
      return inFlight;
    },
  };
}
