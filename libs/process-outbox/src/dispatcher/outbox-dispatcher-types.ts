/**
 * The outbox dispatcher's public types: its options, events, counters and the dispatcher itself.
 */
import type { Logger } from '@fw/core';
import type { Kysely } from 'kysely';
import type { OutboxOptions } from '../options/outbox-options';
import type { OutboxBackoff, OutboxCommandHandler } from './command-handler';

export type OutboxEventType = 'claimed' | 'done' | 'duplicate' | 'retried' | 'dead' | 'stale-ack' | 'error';

/** What happened to a command (for metrics, logs and tests). */
export interface OutboxEvent {
  type: OutboxEventType;
  workerId: string;
  commandId?: string;
  commandType?: string;
  attempts?: number;
  error?: string;
}

export interface OutboxDispatcherOptions<DB> {
  /** Database holding the outbox (and whatever the handlers write). */
  db: Kysely<DB>;
  /** Handler by command type. A claimed command of an unknown type fails its attempt. */
  handlers: Readonly<Record<string, OutboxCommandHandler<DB>>>;
  /** `fw.process.outbox.*` (poll interval, lease, attempts, worker id), with their defaults. */
  options?: Partial<OutboxOptions>;
  /** Receipt consumer name (default `fw-process-outbox`). */
  consumer?: string;
  /** Most commands claimed per statement (default 500). */
  batchSize?: number;
  /** Groups executed at the same time (default 2). */
  concurrency?: number;
  /** Delay before a retry (default {@link outboxBackoff}()). */
  backoff?: OutboxBackoff;
  /**
   * After a wake-up, wait this long before claiming, so the commands of concurrent commits are
   * claimed (and grouped) together instead of one claim per commit (default 10 ms).
   */
  wakeDelayMillis?: number;
  /** Claim only the types of `handlers` (default true), so services sharing a table leave the rest. */
  claimOwnTypesOnly?: boolean;
  /**
   * Renew the leases of claimed commands whose group has not started yet (default true, every
   * lock-seconds/3, one statement per beat), or the interval in ms; `false`: none. A group that has
   * started is protected by the row locks of its transaction (acknowledgement first).
   */
  heartbeat?: boolean | { intervalMillis: number };
  /** Least time between the starts of two retention sweeps of this dispatcher (default 60 000 ms). */
  retentionIntervalMillis?: number;
  /** DONE commands deleted per statement by a retention sweep (default 1000). */
  retentionBatchSize?: number;
  onEvent?: (event: OutboxEvent) => void;
  logger?: Logger;
}

export interface OutboxDispatcherStats {
  claimed: number;
  done: number;
  duplicates: number;
  retried: number;
  dead: number;
  staleAcks: number;
}

export interface OutboxDispatcher {
  readonly workerId: string;
  /** Starts the poller (idempotent). */
  start(): void;
  /** Polls now instead of after the interval (the in-process wake-up after a commit). */
  wake(): void;
  /** Claims and executes one batch; resolves the number of commands claimed (for tests and tools). */
  runOnce(): Promise<number>;
  /** Stops polling and waits for running groups (up to `timeoutMillis`, default 30 000). */
  stop(options?: { timeoutMillis?: number }): Promise<void>;
  stats(): OutboxDispatcherStats;
}
