/**
 * The queue WorkerStarter (the broker launch mode) on RabbitMQ. `startWorker` finds
 * the queue in the definition's `config.queue` — a definition without one fails the state change
 * right there (the transaction rolls back, the caller sees a {@link QueueConfigError}) — encodes the
 * WorkerDto and registers the publish with `afterCommit`: a rolled-back state change publishes
 * nothing. After the commit the message is published persistently with publisher confirms, so
 * `afterCommit` (and with it the manager call) resolves once the broker stored it.
 *
 * A publish that fails (connection or channel lost, broker down, no confirm) is tried again on a new
 * channel — and a new connection when the old one was lost — after a capped exponential backoff
 * (`reconnectDelay`), `publishAttempts` tries in all.
 *
 * Gap without the outbox: the state change commits before the publish. If the broker is
 * unreachable for all attempts (or the host dies between commit and confirm) the process stays in
 * its worker state without a message: the failure is logged as an error naming the process and
 * passed to `onPublishFailed`. In outbox mode the manager uses {@link QueueProcessStarter.deliverWorker}
 * instead: the START_WORKER command stays claimed until the broker confirmed the publish, a failure
 * is retried with the outbox's backoff, and the last one ends DEAD with the error on the process.
 *
 * @example
 * const starter = makeQueueProcessStarter({ url: 'amqp://guest:guest@127.0.0.1:5672' });
 * const manager = makeProcessManager({ db: processDb(database), configurator, workerStarter: starter });
 * await manager.createProcess({ processDefName: 'import', args: {} }, { tenant: 't1' }); // published to config.queue
 * await starter.close();
 */
import { createLogger, type Logger } from '@fw/core';
import type { WorkerDto, WorkerStarter } from '@fw/process-api';
import {
  extractTraceContext,
  formatSpanTraceContext,
  inMessagingSpan,
  parseTraceContext,
  type MessagingSpanOptions,
} from '@fw/telemetry';
import { defaultConnectionName, makeAmqpConnectionSource, type AmqpConnectionOptions } from '../amqp/amqp-connection';
import { queueNameOf, type QueueType } from '../amqp/queue-declaration';
import { normalizeBackoff, type BackoffDelay } from '../amqp/reconnect-backoff';
import { encodeWorkerMessage, type EncodedWorkerMessage } from '../message/worker-message-codec';
import { makeConfirmPublisher } from './confirm-publisher';

export interface QueueProcessStarterOptions extends AmqpConnectionOptions {
  /** Declare each queue before its first publish (default true); false when queues are provisioned elsewhere. */
  assertQueues?: boolean;
  /** Type of the queues declared (default `quorum`); must match the consumer's. */
  queueType?: QueueType;
  /** Tries per message, each on a fresh channel (default 8: with the default delay about 6 to 11 s before giving up). */
  publishAttempts?: number;
  /** Wait before each further try: random in the upper half of `min(base * 2^(try-1), max)` (default 100 / 5 000 ms). */
  reconnectDelay?: BackoffDelay;
  /** How long to wait for a publisher confirm (default 10 000 ms). */
  confirmTimeoutMillis?: number;
  /** Called after each confirmed publish. */
  onPublished?: (worker: WorkerDto, queue: string) => void;
  /** Called when a committed launch could not be published (it is also logged). */
  onPublishFailed?: (error: unknown, worker: WorkerDto, queue: string) => void;
  logger?: Logger;
}

export interface QueueStarterStats {
  /** Messages confirmed by the broker. */
  published: number;
  /** Committed launches whose publish failed after all attempts. */
  failed: number;
  /** Failed tries that were tried again (connection or channel lost, no confirm, …). */
  retries: number;
  /** Publishes waiting for their confirm now. */
  inFlight: number;
}

export interface QueueProcessStarter extends WorkerStarter<unknown> {
  /**
   * Publishes a worker now, outside any transaction, and resolves once the broker confirmed it
   * (for an outbox dispatcher or a manual re-launch). Rejects with {@link QueueConfigError} when
   * the definition has no queue, or with the broker error.
   */
  publish(worker: WorkerDto): Promise<void>;
  /** {@link publish} for the outbox (the WorkerStarter port's delivery path); a failure counts in `stats().failed`. */
  deliverWorker(worker: WorkerDto): Promise<void>;
  stats(): QueueStarterStats;
  /** Waits for running publishes (with their retries), then closes the channel (and the connection when opened from `url`). Later launches throw. */
  close(): Promise<void>;
}

/** A committed launch that could not be published: the process waits in its worker state. */
function logPublishFailed(
  logger: Logger,
  failure: { error: unknown; worker: WorkerDto; queue: string; attempts: number },
): void {
  const { error, worker, queue, attempts } = failure;
  logger.error(
    {
      err: error,
      processId: worker.processId,
      processType: worker.processType,
      workerType: worker.workerType,
      tenant: worker.tenant,
      queue,
      attempts,
    },
    `committed ${worker.workerType} launch of process ${worker.processId} (${worker.processType}) could not be published to queue '${queue}' after ${attempts} attempt(s): the process waits in its worker state until it is re-launched`,
  );
}

/** Makes the starter. It connects on the first publish. */
/** The `create` span of publishing `worker` to `queue`, a child of the launch's context. */
function publishSpanOptions(worker: WorkerDto, queue: string): MessagingSpanOptions {
  return {
    system: 'rabbitmq',
    destination: queue,
    parent: extractTraceContext(parseTraceContext(worker.traceContext)),
    tenant: worker.tenant,
    processId: worker.processId,
    processType: worker.processType,
    workerType: worker.workerType,
    triggerId: worker.triggerId ?? undefined,
  };
}

export function makeQueueProcessStarter(options: QueueProcessStarterOptions): QueueProcessStarter {
  const logger = options.logger ?? createLogger({ name: 'queue-process-starter' });
  const source = makeAmqpConnectionSource(options, logger, defaultConnectionName('fw-queue-starter'));
  const counters = { published: 0, failed: 0, retries: 0 };
  const attempts = Math.max(1, Math.floor(options.publishAttempts ?? 8));
  const publisher = makeConfirmPublisher({
    source,
    logger,
    queueType: options.queueType ?? 'quorum',
    assertQueues: options.assertQueues ?? true,
    attempts,
    retryDelay: normalizeBackoff(options.reconnectDelay),
    confirmTimeoutMillis: options.confirmTimeoutMillis ?? 10_000,
    onRetry: () => void (counters.retries += 1),
  });
  const running = new Set<Promise<void>>();
  let closed = false;

  function assertOpen(worker: WorkerDto): void {
    if (closed)
      throw new Error(
        `the queue starter is closed: cannot launch the ${worker.workerType} worker of process ${worker.processId}`,
      );
  }

  async function send(worker: WorkerDto, queue: string, message: EncodedWorkerMessage): Promise<void> {
    // The publish's `create` span continues the launch's context; the consumer's `process` span
    // continues it from the `traceparent` / `tracestate` headers.
    await inMessagingSpan('create', publishSpanOptions(worker, queue), async (span) => {
      // The span's own context: without an SDK it is the launch's, which then still travels.
      Object.assign(message.properties.headers, parseTraceContext(formatSpanTraceContext(span)));
      const publishing = publisher.publish(queue, message);
      running.add(publishing);
      try {
        await publishing;
        counters.published += 1;
        options.onPublished?.(worker, queue);
      } finally {
        running.delete(publishing);
      }
    });
  }

  async function publishNow(worker: WorkerDto): Promise<void> {
    assertOpen(worker);
    await send(worker, queueNameOf(worker), encodeWorkerMessage(worker));
  }

  return {
    startWorker(worker, context) {
      assertOpen(worker);
      const queue = queueNameOf(worker);
      const message = encodeWorkerMessage(worker);
      context.afterCommit(async () => {
        try {
          await send(worker, queue, message);
        } catch (error) {
          counters.failed += 1;
          logPublishFailed(logger, { error, worker, queue, attempts });
          options.onPublishFailed?.(error, worker, queue);
        }
      });
    },
    publish: publishNow,
    async deliverWorker(worker) {
      // The outbox's path: the same confirmed publish, failures thrown to the dispatcher (retry, DEAD).
      try {
        await publishNow(worker);
      } catch (error) {
        counters.failed += 1;
        throw error;
      }
    },
    stats: () => ({ ...counters, inFlight: running.size }),
    async close() {
      closed = true;
      await Promise.allSettled([...running]);
      await publisher.close();
    },
  };
}
