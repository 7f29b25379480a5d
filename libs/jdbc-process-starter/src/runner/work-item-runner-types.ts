/**
 * The public types of the work-item runner: options, events, stats, the wake-up port (the
 * behaviour is in `work-item-runner.ts`).
 */
import type { Logger } from '@fw/core';
import type { FwMetrics } from '@fw/telemetry';
import type { Kysely } from 'kysely';
import type { DeadItemReporter } from '../reporting/failure-reporter';
import type { WorkLimits, WorkLimitsByType, WorkLimitsSource } from '../fairness/work-limits';
import type { BackoffPolicy, ExponentialBackoffOptions } from './backoff';
import type { BatchServiceLike, WorkItemHandler } from './work-item-handler';

/** Something that calls `onWake` when items may be waiting (for example LISTEN on the NOTIFY channel). */
export interface WakeSource {
  /** Starts listening; resolves to a function that stops. */
  subscribe(onWake: () => void): Promise<() => Promise<void>>;
}

export type WorkItemRunnerEventType =
  'claimed' | 'completed' | 'retried' | 'dead' | 'reported' | 'lease-lost' | 'stale-ack' | 'released' | 'error';

/** What happened to an item (for metrics, logs and tests). */
export interface WorkItemRunnerEvent {
  type: WorkItemRunnerEventType;
  workerId: string;
  itemId?: string;
  processId?: string;
  attempts?: number;
  error?: string;
}

export interface WorkItemRunnerOptions<DB> {
  /** The database holding `fw_process_work_item` (a `Database` of `@fw/core`, or a Kysely). */
  database: { db: Kysely<DB> } | Kysely<DB>;
  /** Runs one item. Give this or `batchService`. */
  handler?: WorkItemHandler;
  /** The application's BatchService (`@fw/process-utils`); adapted by `batchServiceHandler`. */
  batchService?: BatchServiceLike;
  /** Reports DEAD items to their processes (see `makeSinkFailureReporter`). Strongly advised. */
  onDead?: DeadItemReporter;
  /** Claimant identity stored in `locked_by` (default `<host>:<pid>:<random>`). */
  workerId?: string;
  /** Items run at the same time (default 1). */
  concurrency?: number;
  /** Most items claimed by one statement (default `concurrency`). */
  batchSize?: number;
  /**
   * Claim only when at least this many slots are free, or nothing runs (default 1). With
   * `concurrency` = 2 × `batchSize` and `minClaim` = `batchSize`, one batch runs while the next is
   * claimed, instead of many small claims as single items finish.
   */
  minClaim?: number;
  /**
   * Acknowledge the successes of one event-loop turn with one statement (default true; each
   * acknowledgement is still fenced by its own claim token).
   */
  coalesceAcks?: boolean;
  /** Lease of a claim, in seconds (default 300). */
  leaseSeconds?: number;
  /** Renew leases while items run (default true, every lease/3), or the interval in ms. */
  heartbeat?: boolean | { intervalMillis: number };
  /** Overrides the `max_attempts` stored on each item by the starter. */
  maxAttempts?: number;
  /** Delay before a retry: a policy, or exponential options (default base 1 s, max 300 s). */
  backoff?: BackoffPolicy | ExponentialBackoffOptions;
  /** Poll interval when idle (default 1000 ms). */
  pollIntervalMillis?: number;
  /** Claim only these process types (default all). */
  processTypes?: readonly string[];
  /**
   * Fair claims (default true): tenants with due work are served in turn, each tenant's work in
   * priority order (aged), within `limits`. `false` is the former claim, oldest due first, which
   * ignores priorities and limits (kept for comparisons).
   */
  fair?: boolean;
  /**
   * Concurrency and rate limits by process type (`makeJdbcWorkerHost` passes those of its
   * definitions). Every runner claiming a limited type must be given the same limits.
   */
  limits?: WorkLimitsSource | WorkLimitsByType | Readonly<Record<string, WorkLimits>>;
  /** Wakes the runner early (LISTEN/NOTIFY); optional. */
  wakeSource?: WakeSource;
  /** How long `stop()` waits for running items by default (default 30 000 ms). */
  stopTimeoutMillis?: number;
  /**
   * SUCCESS items finished longer ago than this are deleted (default 7 days; 0 keeps them for
   * ever). DEAD items are always kept: they are the failure record.
   */
  successRetentionMillis?: number;
  /** Least time between the starts of two retention sweeps of this runner (default 60 000 ms). */
  retentionIntervalMillis?: number;
  /** SUCCESS items deleted per statement by a sweep (default 1000). */
  retentionBatchSize?: number;
  onEvent?: (event: WorkItemRunnerEvent) => void;
  logger?: Logger;
  /**
   * Where the runner records `fw_work_item_wait_seconds`, `fw_work_item_attempts_total`,
   * `fw_lease_expiries_total` and `fw_stale_acks_total` (`makeFwMetrics()` of `@fw/telemetry`).
   * Absent: nothing is recorded.
   */
  metrics?: FwMetrics;
}

export interface WorkItemRunnerStats {
  inFlight: number;
  claimed: number;
  completed: number;
  retried: number;
  dead: number;
  released: number;
  staleAcks: number;
}

export interface StopResult {
  /** Items that finished while stopping. */
  finished: number;
  /** Items released back to PENDING because they did not finish in time. */
  released: number;
}

export interface WorkItemRunner {
  readonly workerId: string;
  /** Starts claiming (idempotent). */
  start(): void;
  /** Claims now instead of at the next poll. */
  wake(): void;
  /** Stops claiming, waits for running items up to the timeout, releases the rest. */
  stop(options?: { timeoutMillis?: number }): Promise<StopResult>;
  stats(): WorkItemRunnerStats;
}
