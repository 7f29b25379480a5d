/**
 * The public types of the queue worker consumer: its options, events, states and stats (the
 * behaviour is in `queue-worker-consumer.ts`).
 */
import type { Logger } from '@fw/core';
import type { WorkerDto } from '@fw/process-api';
import type { BatchService, ProcessEventSink } from '@fw/process-utils';
import type { FwMetrics, MetricsProfile, MetricsServer } from '@fw/telemetry';
import type { AmqpConnectionOptions } from '../amqp/amqp-connection';
import type { QueueType } from '../amqp/queue-declaration';
import type { BackoffDelay } from '../amqp/reconnect-backoff';

/** What a plain handler receives besides the worker. */
export interface QueueWorkerContext {
  queue: string;
  messageId: string | undefined;
  /** This delivery's number (1 for the first). */
  delivery: number;
  /**
   * Aborted when the result can no longer be acknowledged: the channel the message came on was lost
   * (RabbitMQ redelivers the message), or `stop()` gave up waiting for the handler.
   */
  signal: AbortSignal;
}

/** Resolving acks the message; throwing records the error on the process (the step fails) and acks. */
export type QueueWorkerHandler = (worker: WorkerDto, context: QueueWorkerContext) => Promise<void>;

export type QueueConsumerEventType =
  | 'received'
  | 'acked'
  | 'requeued'
  | 'rejected'
  | 'reported'
  | 'ack-lost'
  | 'connection-lost'
  | 'reconnecting'
  | 'reconnected'
  | 'disconnected';

/**
 * - `idle`: not started; `starting`: `start()` is connecting;
 * - `connected`: consuming;
 * - `reconnecting`: the channel or connection was lost; waiting (backoff) or trying to reopen it;
 * - `disconnected`: the caller's `connection` closed; this consumer cannot reopen it (only `stop()` is left);
 * - `stopping`, `stopped`: `stop()` was called (or `start()` failed).
 */
export type QueueConsumerState =
  'idle' | 'starting' | 'connected' | 'reconnecting' | 'disconnected' | 'stopping' | 'stopped';

export interface QueueConsumerEvent {
  type: QueueConsumerEventType;
  queue?: string;
  messageId?: string;
  processId?: string;
  delivery?: number;
  /** Why: the BatchService outcome, `malformed`, `handler-failed`, `too-many-deliveries`, `unattributable`, ... */
  reason?: string;
  error?: unknown;
  /** `reconnecting`, `reconnected`: the number of the reconnect attempt (1 for the first after a loss). */
  attempt?: number;
  /** `reconnecting`: the wait before this attempt. */
  delayMillis?: number;
}

export interface QueueWorkerConsumerOptions extends AmqpConnectionOptions {
  /** Queues to consume (the `config.queue` values of the definitions this host runs). */
  queues: readonly string[];
  /** The application's BatchService (`@fw/process-utils`); or give `handler`. */
  batchService?: Pick<BatchService, 'run'>;
  /** A plain handler instead of a BatchService. */
  handler?: QueueWorkerHandler;
  /** Where failures the worker code cannot report go (malformed messages, handler errors, crash loops). */
  sink: ProcessEventSink;
  /** Unacknowledged messages (= messages running at once) per queue (default 1). */
  prefetch?: number;
  /** Declare the queues at start (default true); false: they must exist (checked). */
  assertQueues?: boolean;
  /** Type of the queues declared (default `quorum`); must match the starter's. */
  queueType?: QueueType;
  /** A message delivered more often than this is reported as failed and acked (default 5; needs quorum queues). */
  maxDeliveries?: number;
  /** Pause before a requeue: `min(base * 2^(delivery-1), max)` (default 1 000 / 30 000 ms). */
  retryDelay?: { baseMillis?: number; maxMillis?: number };
  /** Default wait of `stop()` for running messages (default 30 000 ms). */
  stopTimeoutMillis?: number;
  /** Wait before each reconnect attempt: random in the upper half of `min(base * 2^(attempt-1), max)` (default 100 / 5 000 ms). */
  reconnectDelay?: BackoffDelay;
  /**
   * How long `start()` keeps trying (with `reconnectDelay`) while the broker is unreachable or
   * refuses for a reason that passes (a restart under way, a queue it cannot create yet); default
   * 60 000 ms, 0 for one attempt. A refusal that will not pass (wrong credentials, a queue of
   * another type, a missing queue with `assertQueues: false`) fails at once.
   */
  startRetryMillis?: number;
  onEvent?: (event: QueueConsumerEvent) => void;
  logger?: Logger;
  /**
   * Where each settled delivery counts in `fw_work_item_attempts_total` (`makeFwMetrics()` of
   * `@fw/telemetry`). Absent: the consumer makes its own when a metrics port is set, else records nothing.
   */
  metrics?: FwMetrics;
  /** Port of the host's `GET /metrics` (default `FW_METRICS_PORT`; neither: no server), served from `start()` to `stop()`. */
  metricsPort?: number;
  /** Access rule of `GET /metrics`: `production` (default) needs `FW_METRICS_TOKEN`; `dev` serves it openly. */
  metricsProfile?: MetricsProfile;
}

export interface QueueConsumerStats {
  received: number;
  acked: number;
  requeued: number;
  rejected: number;
  /** Failures this consumer recorded on processes (not counting those the BatchService reported). */
  reported: number;
  /** Settlements that could not be sent because the channel was gone (the broker redelivers those). */
  ackLost: number;
  /** Messages running now (including those of a lost channel, whose results will be dropped). */
  inFlight: number;
  /** True while `state` is `connected`. */
  consuming: boolean;
  state: QueueConsumerState;
  /** Successful reconnects since `start()`. */
  reconnects: number;
}

export interface ConsumerStopResult {
  /** Messages still running when the wait ended; unacked, so RabbitMQ redelivers them. */
  abandoned: number;
}

export interface QueueWorkerConsumer {
  /** Connects, declares (or checks) the queues and starts consuming. */
  start(): Promise<void>;
  /**
   * Stops receiving, waits for the running messages that can still be acknowledged (up to the
   * timeout), closes the channel (and an owned connection). During a reconnect it ends the backoff
   * at once and does not wait: nothing could be acknowledged.
   */
  stop(options?: { timeoutMillis?: number }): Promise<ConsumerStopResult>;
  stats(): QueueConsumerStats;
  /** What the consumer records into (undefined: no metrics). */
  readonly metrics: FwMetrics | undefined;
  /** The `GET /metrics` server once `start()` resolved (undefined without a metrics port). */
  metricsServer(): Promise<MetricsServer | undefined>;
}
