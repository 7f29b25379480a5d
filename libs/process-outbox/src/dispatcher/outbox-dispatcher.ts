/**
 * The outbox dispatcher: claims due commands in batches (`FOR UPDATE SKIP LOCKED`, lease of
 * `lockSeconds`, one claim token per claim), groups them by type and group key, and executes each
 * group in one transaction that acknowledges the commands (fenced: a dispatcher whose lease expired
 * and whose commands were claimed again changes nothing), writes their receipts and runs the
 * handler; the leases of claimed commands whose group has not started yet are renewed (heartbeat).
 * Failed attempts are retried with exponential backoff; after `maxAttempts` the command is
 * DEAD and the handler's `onDead` records the failure; DONE commands are deleted after their
 * retention (default 7 days). Any number of dispatchers, in any number of
 * OS processes, may share one table. The lease mechanics and the lifecycle (poll loop,
 * heartbeat, retention, outage reports, stop order) are those of `@fw/leased-queue` (`makeLeasedLoop`).
 *
 * @example
 * const dispatcher = makeOutboxDispatcher({ db: database.db, handlers: { PING: ping }, options: { pollIntervalMillis: 200 } });
 * dispatcher.start();
 * await outbox.enqueue(trx, [{ commandType: 'PING', payload: {} }]); // in the caller's transaction
 * dispatcher.wake();                                               // after its commit
 * await dispatcher.stop();
 */
import { createLogger } from '@fw/core';
import { resolveOutboxOptions } from '../options/outbox-options';
import { makeOutboxRepository } from '../repository/outbox-repository';
import { outboxDb } from '../schema/outbox-tables';
import { outboxBackoff } from './command-handler';
import { makeCommandGroupRunner } from './command-group-runner';
import { makeOutboxDispatcherLoop } from './outbox-dispatcher-loop';
import type { OutboxDispatcher, OutboxDispatcherOptions, OutboxDispatcherStats } from './outbox-dispatcher-types';
import { makeOutboxEvents, messageOf } from './outbox-events';
import { makeOutboxSettlement } from './outbox-settlement';

export type {
  OutboxDispatcher,
  OutboxDispatcherOptions,
  OutboxDispatcherStats,
  OutboxEvent,
  OutboxEventType,
} from './outbox-dispatcher-types';

/** The receipt consumers of a dispatcher: its own and those of its handlers. */
function consumersOf<DB>(config: OutboxDispatcherOptions<DB>, consumer: string): string[] {
  const own = Object.values(config.handlers).flatMap((h) => (h.consumer === undefined ? [] : [h.consumer]));
  return [...new Set([consumer, ...own])];
}

/** Makes a dispatcher; nothing runs until `start()` or `runOnce()`. */
export function makeOutboxDispatcher<DB>(config: OutboxDispatcherOptions<DB>): OutboxDispatcher {
  const options = resolveOutboxOptions(config.options);
  const { workerId } = options;
  const db = config.db;
  const repo = makeOutboxRepository();
  const logger = config.logger ?? createLogger({ name: 'process-outbox' });
  const consumer = config.consumer ?? 'fw-process-outbox';
  const batchSize = Math.max(1, Math.floor(config.batchSize ?? 500));
  const leaseMillis = Math.max(1, options.lockSeconds * 1000);
  const commandTypes = config.claimOwnTypesOnly === false ? undefined : Object.keys(config.handlers);
  const counters: OutboxDispatcherStats = { claimed: 0, done: 0, duplicates: 0, retried: 0, dead: 0, staleAcks: 0 };
  const { emit, commandEvent } = makeOutboxEvents({ workerId, logger, onEvent: config.onEvent });
  const settlement = makeOutboxSettlement({
    ...{ db, repo, handlers: config.handlers, workerId, logger, counters, commandEvent },
    backoff: config.backoff ?? outboxBackoff(),
  });
  const groups = makeCommandGroupRunner({
    ...{ handlers: config.handlers, consumer, workerId, repo, settlement, counters, commandEvent },
    concurrency: Math.max(1, Math.floor(config.concurrency ?? 2)),
    // `loop` (the lifecycle, made below) is called only once the dispatcher runs.
    leases: { hold: (commands) => loop.hold(commands), release: (commands) => loop.release(commands) },
  });

  async function runOnce(): Promise<number> {
    const commands = await repo.claim(outboxDb(db), { workerId, limit: batchSize, leaseMillis, commandTypes });
    loop.outage.succeeded();
    counters.claimed += commands.length;
    for (const c of commands) commandEvent('claimed', c);
    loop.hold(commands);
    try {
      await groups.execute(commands);
    } finally {
      // Normally each group has released its commands already; never leave one renewed for ever.
      await loop.release(commands);
    }
    return commands.length;
  }

  const loop = makeOutboxDispatcherLoop({
    config,
    options,
    db,
    repo,
    logger,
    leaseMillis,
    commandTypes,
    consumers: consumersOf(config, consumer),
    turn: async () => (await runOnce()) === batchSize,
    turnFailed: (err) => emit({ type: 'error', error: messageOf(err) }),
  });

  return {
    workerId,
    start: () => loop.start(),
    wake: () => loop.wake(),
    runOnce,
    async stop(stopOptions = {}) {
      await loop.stop({ timeoutMillis: stopOptions.timeoutMillis ?? 30_000 });
    },
    stats: () => ({ ...counters }),
  };
}
