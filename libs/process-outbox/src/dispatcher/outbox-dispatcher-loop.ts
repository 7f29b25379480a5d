/**
 * The dispatcher as a leased loop (`makeLeasedLoop` of `@fw/leased-queue`): its turn claims and
 * executes one batch to the end; a heartbeat keeps the leases of commands whose group has not
 * started yet; retention deletes DONE commands with their receipts; after a wake-up the loop waits
 * a little so the commands of concurrent commits are claimed together.
 */
import type { Logger } from '@fw/core';
import { DEFAULT_RETENTION_MILLIS, heartbeatIntervalMillis, makeLeasedLoop, type LeasedLoop } from '@fw/leased-queue';
import type { Kysely } from 'kysely';
import type { OutboxOptions } from '../options/outbox-options';
import type { OutboxCommand, OutboxRepository } from '../repository/outbox-repository';
import { outboxDb } from '../schema/outbox-tables';
import type { OutboxDispatcherOptions } from './outbox-dispatcher-types';

export interface OutboxDispatcherLoopDeps<DB> {
  config: Pick<
    OutboxDispatcherOptions<DB>,
    'wakeDelayMillis' | 'heartbeat' | 'retentionIntervalMillis' | 'retentionBatchSize'
  >;
  options: OutboxOptions;
  db: Kysely<DB>;
  repo: Pick<OutboxRepository, 'renew' | 'purgeDone'>;
  logger: Logger;
  leaseMillis: number;
  /** The types the dispatcher claims (all when undefined); retention deletes only these. */
  commandTypes: readonly string[] | undefined;
  /** Receipt consumers whose receipts retention deletes with the commands. */
  consumers: readonly string[];
  /** Claims and executes one batch; resolves true when it was full. */
  turn(): Promise<boolean>;
  /** After a failed turn (logged or counted into the outage already). */
  turnFailed(error: unknown): void;
}

/** Makes the dispatcher's lifecycle; nothing runs until its `start()`. */
export function makeOutboxDispatcherLoop<DB>(deps: OutboxDispatcherLoopDeps<DB>): LeasedLoop<OutboxCommand> {
  const { config, options, db, repo, logger, leaseMillis, commandTypes, consumers } = deps;
  const wakeDelayMillis = Math.max(0, config.wakeDelayMillis ?? 10);
  const retentionMillis = options.doneRetentionMillis ?? DEFAULT_RETENTION_MILLIS;
  const loop: LeasedLoop<OutboxCommand> = makeLeasedLoop<OutboxCommand>({
    subject: 'outbox dispatcher',
    workerId: options.workerId,
    logger,
    pollIntervalMillis: options.pollIntervalMillis,
    turn: () => deps.turn(),
    turnFailed: {
      message: 'claiming outbox commands failed; retrying after the poll interval',
      notify: (err) => deps.turnFailed(err),
    },
    // After a wake-up, wait a little so the commands of concurrent commits are claimed together.
    async afterPause(waited) {
      if (!loop.stopping && waited < wakeDelayMillis)
        await new Promise((resolve) => setTimeout(resolve, wakeDelayMillis - waited));
    },
    // The commands of one claim run group after group, `concurrency` at a time, so the last groups
    // may wait longer than lock-seconds; their leases are renewed (one statement per beat) until
    // their group starts. From then on the group's transaction holds the rows (acknowledgement
    // first), and a renewal would only wait on those locks.
    heartbeat: {
      intervalMillis: heartbeatIntervalMillis(config.heartbeat, leaseMillis),
      renew: (commands) => repo.renew(outboxDb(db), commands, leaseMillis),
      onLost: (c) =>
        logger.warn(
          { commandId: c.id, commandType: c.commandType },
          'lease lost while the command waited for its group; its acknowledgement will be refused',
        ),
      failureMessage: 'outbox heartbeat failed; retrying at the next beat',
    },
    // Now and then (from the poll loop, in the background) delete DONE commands past their retention
    // with the receipts this dispatcher's consumers wrote for them; the types it claims are its own.
    retention: {
      retentionMillis,
      intervalMillis: config.retentionIntervalMillis,
      batchSize: config.retentionBatchSize,
      purge: (limit) =>
        repo.purgeDone(outboxDb(db), { olderThanMillis: retentionMillis, limit, commandTypes, consumers }),
      purgedMessage: 'deleted DONE outbox commands past their retention',
      failureMessage: 'deleting old DONE outbox commands failed; retried at the next interval',
    },
  });
  return loop;
}
