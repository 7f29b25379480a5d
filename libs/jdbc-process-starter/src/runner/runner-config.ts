/**
 * The runner's options resolved once: the handler (or the batch service's `runMany`), the worker
 * id, sizes, lease and heartbeat, backoff, poll interval, and the claimer (fair or oldest first).
 */
import { createLogger, type Logger } from '@fw/core';
import { DEFAULT_RETENTION_MILLIS, heartbeatIntervalMillis } from '@fw/leased-queue';
import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { makeFairClaimer } from '../fairness/fair-claimer';
import { fixedWorkLimits, type WorkLimitsSource } from '../fairness/work-limits';
import type { ClaimedWorkItem, ClaimOptions, WorkItemRepository } from '../repository/work-item-repository';
import type { WorkItemTables } from '../schema/work-item-tables';
import { exponentialBackoff, type BackoffPolicy } from './backoff';
import { batchServiceHandler, type BatchServiceLike, type WorkItemHandler } from './work-item-handler';
import type { WorkItemRunnerOptions } from './work-item-runner-types';

/** The batch service's whole-batch call. */
export type RunMany = NonNullable<BatchServiceLike['runMany']>;

/** Claims due items (fairly, or oldest first). */
export interface WorkItemClaimer {
  claim(db: Kysely<WorkItemTables>, options: ClaimOptions): Promise<ClaimedWorkItem[]>;
  /** Claims for tenants without a backlog while fewer than `minClaim` slots are free (fair claims only). */
  claimEarly?(db: Kysely<WorkItemTables>, options: ClaimOptions): Promise<ClaimedWorkItem[]>;
}

/** A runner's settings, resolved from its options. */
export interface RunnerConfig {
  handler: WorkItemHandler;
  /** Set when each claimed batch goes to the batch service in one call. */
  runMany: RunMany | undefined;
  logger: Logger;
  workerId: string;
  concurrency: number;
  batchSize: number;
  leaseMillis: number;
  heartbeatMillis: number | undefined;
  backoff: BackoffPolicy;
  pollMillis: number;
  /** Fewest free slots worth a claim (unless nothing runs). */
  minClaim: number;
  retentionMillis: number;
  claimer: WorkItemClaimer;
}

/** The runner's `limits` option as a source (none: an empty one). */
function limitsSourceOf(limits: WorkItemRunnerOptions<unknown>['limits']): WorkLimitsSource | undefined {
  if (limits === undefined) return undefined;
  return 'current' in limits && typeof limits.current === 'function'
    ? (limits as WorkLimitsSource)
    : fixedWorkLimits(limits as Parameters<typeof fixedWorkLimits>[0]);
}

function handlerOf(options: WorkItemRunnerOptions<unknown>): WorkItemHandler {
  const given = options.handler ?? (options.batchService ? batchServiceHandler(options.batchService) : undefined);
  if (given === undefined) throw new TypeError('makeWorkItemRunner needs a handler or a batchService');
  return given;
}

/** Resolves a runner's options; throws `TypeError` without a handler or a batch service. */
export function resolveRunnerConfig<DB>(options: WorkItemRunnerOptions<DB>, repo: WorkItemRepository): RunnerConfig {
  const handler = handlerOf(options as WorkItemRunnerOptions<unknown>);
  // A batch service that takes whole batches gets each claimed batch in one call (not with a custom handler).
  const runMany =
    options.handler === undefined && options.batchService?.runMany !== undefined
      ? options.batchService.runMany.bind(options.batchService)
      : undefined;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const leaseMillis = Math.max(1, (options.leaseSeconds ?? 300) * 1000);
  return {
    handler,
    runMany,
    logger: options.logger ?? createLogger({ name: 'jdbc-process-starter' }),
    workerId: options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    concurrency,
    batchSize: Math.max(1, Math.floor(options.batchSize ?? concurrency)),
    leaseMillis,
    heartbeatMillis: heartbeatIntervalMillis(options.heartbeat, leaseMillis),
    backoff: typeof options.backoff === 'function' ? options.backoff : exponentialBackoff(options.backoff),
    pollMillis: Math.max(1, options.pollIntervalMillis ?? 1000),
    minClaim: Math.min(concurrency, Math.max(1, Math.floor(options.minClaim ?? 1))),
    retentionMillis: Math.max(0, options.successRetentionMillis ?? DEFAULT_RETENTION_MILLIS),
    claimer:
      options.fair !== false
        ? makeFairClaimer({ limits: limitsSourceOf(options.limits), metrics: options.metrics })
        : { claim: repo.claim },
  };
}
