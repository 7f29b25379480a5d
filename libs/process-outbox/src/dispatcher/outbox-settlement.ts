/**
 * What becomes of a command whose attempt failed: a retry after its backoff, or DEAD after its last
 * attempt (with the handler's `onDead` in the same transaction); every write fenced by the claim
 * token, a refused one counted and logged as a stale acknowledgement. Also the transaction a group
 * runs in, with its after-commit callbacks.
 */
import type { Logger } from '@fw/core';
import type { Kysely } from 'kysely';
import type { OutboxCommand, OutboxRepository } from '../repository/outbox-repository';
import { outboxDb } from '../schema/outbox-tables';
import type { OutboxBackoff, OutboxCommandHandler, OutboxExecutionContext } from './command-handler';
import type { OutboxDispatcherStats } from './outbox-dispatcher-types';
import { messageOf, type OutboxEvents } from './outbox-events';

export interface OutboxSettlementDeps<DB> {
  db: Kysely<DB>;
  repo: Pick<OutboxRepository, 'retry' | 'markDead'>;
  handlers: Readonly<Record<string, OutboxCommandHandler<DB>>>;
  workerId: string;
  logger: Logger;
  backoff: OutboxBackoff;
  counters: Pick<OutboxDispatcherStats, 'retried' | 'dead' | 'staleAcks'>;
  commandEvent: OutboxEvents['commandEvent'];
}

export interface OutboxSettlement<DB> {
  /** Runs `fn` in a transaction, then its after-commit callbacks. */
  inTransaction(fn: (ctx: OutboxExecutionContext<DB>) => Promise<void>): Promise<void>;
  /** An acknowledgement refused: the lease was lost and the command claimed again. */
  staleAck(command: OutboxCommand): void;
  /** DEAD, with the handler's `onDead` in the same transaction. */
  markDead(command: OutboxCommand, error: string): Promise<void>;
  /** A failed attempt: retried after its backoff, or DEAD after the last one. */
  failed(command: OutboxCommand, err: unknown): Promise<void>;
}

export function makeOutboxSettlement<DB>(deps: OutboxSettlementDeps<DB>): OutboxSettlement<DB> {
  const { db, repo, logger, counters, commandEvent } = deps;

  async function inTransaction(fn: (ctx: OutboxExecutionContext<DB>) => Promise<void>): Promise<void> {
    const callbacks: Array<() => void | Promise<void>> = [];
    await db
      .transaction()
      .execute((trx) => fn({ trx, workerId: deps.workerId, afterCommit: (cb) => callbacks.push(cb) }));
    for (const cb of callbacks) {
      try {
        await cb();
      } catch (err) {
        logger.error({ err }, 'outbox after-commit callback failed (the command is done)');
      }
    }
  }

  function staleAck(c: OutboxCommand): void {
    counters.staleAcks++;
    logger.warn(
      { commandId: c.id, commandType: c.commandType },
      'acknowledgement refused: the lease was lost and the command claimed again',
    );
    commandEvent('stale-ack', c);
  }

  async function markDead(c: OutboxCommand, error: string): Promise<void> {
    const handler = deps.handlers[c.commandType];
    let stale = false;
    try {
      await handler?.prepare?.();
      await inTransaction(async (ctx) => {
        if (!(await repo.markDead(outboxDb(ctx.trx), c.id, c.claimToken, error))) {
          stale = true;
          return;
        }
        await handler?.onDead?.(c, error, ctx);
      });
    } catch (err) {
      logger.error(
        { err, commandId: c.id },
        'could not mark an outbox command DEAD; it is tried again after its lease',
      );
      commandEvent('error', c, messageOf(err));
      return;
    }
    if (stale) return staleAck(c);
    counters.dead++;
    logger.error(
      { commandId: c.id, commandType: c.commandType, attempts: c.attempts, error },
      'outbox command is DEAD',
    );
    commandEvent('dead', c, error);
  }

  async function failed(c: OutboxCommand, err: unknown): Promise<void> {
    const error = messageOf(err);
    if (c.attempts >= c.maxAttempts) return markDead(c, error);
    try {
      if (!(await repo.retry(outboxDb(db), c.id, c.claimToken, error, deps.backoff(c.attempts)))) return staleAck(c);
      counters.retried++;
      logger.warn(
        { commandId: c.id, commandType: c.commandType, attempts: c.attempts, error },
        'outbox command failed; retrying',
      );
      commandEvent('retried', c, error);
    } catch (retryErr) {
      logger.error(
        { err: retryErr, commandId: c.id },
        'could not schedule the retry of an outbox command; its lease will expire',
      );
      commandEvent('error', c, messageOf(retryErr));
    }
  }

  return { inTransaction, staleAck, markDead, failed };
}
