/**
 * The outbox dispatcher: claims due commands in batches (`FOR UPDATE SKIP LOCKED`, lease of
 * `lockSeconds`, one claim token per claim), groups them by type and group key, and executes each
 * group in one transaction that acknowledges the commands (fenced: a dispatcher whose lease expired
 * and whose commands were claimed again changes nothing), writes their receipts and runs the
 * handler; the leases of claimed commands whose group has not started yet are renewed (heartbeat).
 * Failed attempts are retried with exponential backoff; after `maxAttempts` the command is
 * DEAD and the handler's `onDead` records the failure; DONE commands are deleted after their
 * retention (default 7 days). Any number of dispatchers, in any number of
 * OS processes, may share one table. The lease mechanics and the poll loop are those of
 * `@fw/leased-queue`.
 *
 * @example
 * const dispatcher = makeOutboxDispatcher({ db: database.db, handlers: { PING: ping }, options: { pollIntervalMillis: 200 } });
 * dispatcher.start();
 * await outbox.enqueue(trx, [{ commandType: 'PING', payload: {} }]); // in the caller's transaction
 * dispatcher.wake();                                               // after its commit
 * await dispatcher.stop();
 */
import { createLogger, type Logger } from '@fw/core';
import {
  DEFAULT_RETENTION_MILLIS,
  heartbeatIntervalMillis,
  makeLeaseKeeper,
  makePollLoop,
  isConnectionError,
  makeOutageTracker,
  makeRetentionSweeper,
  type LeaseKeeper,
  type RetentionSweeper,
} from '@fw/leased-queue';
import type { Kysely } from 'kysely';
import { resolveOutboxOptions, type OutboxOptions } from '../options/outbox-options';
import { makeOutboxRepository, type OutboxCommand } from '../repository/outbox-repository';
import { outboxDb } from '../schema/outbox-tables';
import {
  outboxBackoff,
  type OutboxBackoff,
  type OutboxCommandHandler,
  type OutboxExecutionContext,
} from './command-handler';

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

/** The acknowledgement changed fewer rows than claimed: the lease was lost. */
class StaleClaimError extends Error {}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  const e = error as { description?: unknown } | null;
  return typeof e?.description === 'string' ? e.description : String(error);
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
  const concurrency = Math.max(1, Math.floor(config.concurrency ?? 2));
  const leaseMillis = Math.max(1, options.lockSeconds * 1000);
  const backoff = config.backoff ?? outboxBackoff();
  const commandTypes = config.claimOwnTypesOnly === false ? undefined : Object.keys(config.handlers);
  const wakeDelayMillis = Math.max(0, config.wakeDelayMillis ?? 10);
  const counters: OutboxDispatcherStats = { claimed: 0, done: 0, duplicates: 0, retried: 0, dead: 0, staleAcks: 0 };

  // A lost database is said once (and once when it is back), not on every poll, beat or sweep.
  const outage = makeOutageTracker({
    isOutage: isConnectionError,
    onLost: (err) =>
      logger.warn(
        { err, workerId },
        'outbox dispatcher lost its database: claims, heartbeats and sweeps retry quietly until it answers again',
      ),
    onBack: ({ millis, failures }) =>
      logger.info(
        { workerId, outageMillis: millis, failedAttempts: failures },
        `outbox dispatcher has its database back after ${millis} ms (${failures} failed attempts)`,
      ),
  });

  // The heartbeat: the commands of one claim run group after group, `concurrency` at a time, so
  // the last groups may wait longer than lock-seconds; their leases are renewed (one statement
  // per beat) until their group starts. From then on the group's transaction holds the rows
  // (acknowledgement first), and a renewal would only wait on those locks.
  const heartbeatMillis = heartbeatIntervalMillis(config.heartbeat, leaseMillis);
  const keeper: LeaseKeeper<OutboxCommand> | undefined =
    heartbeatMillis === undefined
      ? undefined
      : makeLeaseKeeper<OutboxCommand>({
          intervalMillis: heartbeatMillis,
          renew: (commands) => repo.renew(outboxDb(db), commands, leaseMillis),
          onLost: (c) =>
            logger.warn(
              { commandId: c.id, commandType: c.commandType },
              'lease lost while the command waited for its group; its acknowledgement will be refused',
            ),
          onError: (err) => {
            if (!outage.failed(err))
              logger.warn({ err, workerId }, 'outbox heartbeat failed; retrying at the next beat');
          },
        });

  // Now and then (from the poll loop, in the background) delete DONE commands past their retention
  // with the receipts this dispatcher's consumers wrote for them; the types it claims are its own.
  const retentionMillis = options.doneRetentionMillis ?? DEFAULT_RETENTION_MILLIS;
  const consumers = [
    ...new Set([
      consumer,
      ...Object.values(config.handlers).flatMap((h) => (h.consumer === undefined ? [] : [h.consumer])),
    ]),
  ];
  const retention: RetentionSweeper | undefined =
    retentionMillis === 0
      ? undefined
      : makeRetentionSweeper({
          intervalMillis: config.retentionIntervalMillis,
          batchSize: config.retentionBatchSize,
          purge: (limit) =>
            repo.purgeDone(outboxDb(db), { olderThanMillis: retentionMillis, limit, commandTypes, consumers }),
          onPurged: (rows) =>
            logger.info({ workerId, rows, retentionMillis }, 'deleted DONE outbox commands past their retention'),
          onError: (err) => {
            if (!outage.failed(err))
              logger.warn({ err, workerId }, 'deleting old DONE outbox commands failed; retried at the next interval');
          },
        });

  const emit = (event: Omit<OutboxEvent, 'workerId'>): void => {
    try {
      config.onEvent?.({ workerId, ...event });
    } catch (err) {
      logger.error({ err }, 'onEvent listener failed');
    }
  };
  const commandEvent = (type: OutboxEventType, c: OutboxCommand, error?: string) =>
    emit({ type, commandId: c.id, commandType: c.commandType, attempts: c.attempts, error });

  /** Runs `fn` in a transaction, then its after-commit callbacks. */
  async function inTransaction(fn: (ctx: OutboxExecutionContext<DB>) => Promise<void>): Promise<void> {
    const callbacks: Array<() => void | Promise<void>> = [];
    await db.transaction().execute((trx) => fn({ trx, workerId, afterCommit: (cb) => callbacks.push(cb) }));
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
    const handler = config.handlers[c.commandType];
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
      if (!(await repo.retry(outboxDb(db), c.id, c.claimToken, error, backoff(c.attempts)))) return staleAck(c);
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

  /**
   * The handler's `deliver` for each command, outside any transaction, leases still kept alive by
   * the heartbeat; a command whose delivery failed goes to retry (or DEAD) on its own. Returns the
   * delivered ones, in order.
   */
  async function deliverEach(
    deliver: NonNullable<OutboxCommandHandler<DB>['deliver']>,
    commands: readonly OutboxCommand[],
  ): Promise<OutboxCommand[]> {
    const outcomes = await Promise.allSettled(commands.map((c) => deliver(c, { workerId })));
    const delivered: OutboxCommand[] = [];
    const failures: Array<{ command: OutboxCommand; reason: unknown }> = [];
    outcomes.forEach((outcome, i) =>
      outcome.status === 'fulfilled'
        ? delivered.push(commands[i])
        : failures.push({ command: commands[i], reason: outcome.reason }),
    );
    if (failures.length > 0) {
      await keeper?.release(failures.map((f) => f.command));
      for (const f of failures) await failed(f.command, f.reason);
    }
    return delivered;
  }

  /**
   * Executes commands of one type (and group) in one transaction; a failing group is retried one
   * by one. A handler with `deliver` delivers first (once: the one-by-one retry does not deliver again).
   */
  async function runGroup(claimed: readonly OutboxCommand[], deliveredAlready = false): Promise<void> {
    const handler = config.handlers[claimed[0].commandType];
    const commands =
      handler?.deliver !== undefined && !deliveredAlready
        ? await deliverEach(handler.deliver.bind(handler), claimed)
        : claimed;
    if (commands.length === 0) return;
    const first = commands[0];
    let fresh = new Set<string>();
    // The group starts: no more renewals (and none still in flight) once its transaction may lock the rows.
    await keeper?.release(commands);
    try {
      if (handler === undefined) throw new Error(`no outbox handler for command type '${first.commandType}'`);
      await handler.prepare?.();
      await inTransaction(async (ctx) => {
        const odb = outboxDb(ctx.trx);
        const ids = commands.map((c) => c.id);
        if ((await repo.complete(odb, ids, first.claimToken)) !== ids.length) throw new StaleClaimError();
        fresh = await repo.receive(odb, handler.consumer ?? consumer, ids);
        const todo = commands.filter((c) => fresh.has(c.id));
        if (todo.length > 0) await handler.execute(todo, ctx);
      });
    } catch (err) {
      if (commands.length > 1) {
        // Retried one by one: the later ones wait again, under the heartbeat.
        keeper?.hold(commands);
        for (const c of commands) await runGroup([c], true);
        return;
      }
      if (err instanceof StaleClaimError) return staleAck(first);
      return failed(first, err);
    }
    for (const c of commands) {
      if (fresh.has(c.id)) {
        counters.done++;
        commandEvent('done', c);
      } else {
        counters.duplicates++;
        commandEvent('duplicate', c);
      }
    }
  }

  function groupsOf(commands: readonly OutboxCommand[]): OutboxCommand[][] {
    const groups = new Map<string, OutboxCommand[]>();
    for (const c of commands) {
      const grouped = config.handlers[c.commandType]?.grouped ?? true;
      const key = `${c.commandType}\u0000${grouped ? (c.groupKey ?? '') : c.id}`;
      const list = groups.get(key) ?? [];
      list.push(c);
      groups.set(key, list);
    }
    return [...groups.values()];
  }

  async function execute(commands: readonly OutboxCommand[]): Promise<void> {
    const expired = commands.filter((c) => c.attempts > c.maxAttempts);
    for (const c of expired) {
      await keeper?.release([c]);
      const earlier = c.lastError === null ? '' : ` (earlier error: ${c.lastError})`;
      await markDead(
        c,
        `the lease expired on the last of ${c.maxAttempts} attempt(s): the dispatcher holding it stopped${earlier}`,
      );
    }
    const queue = groupsOf(commands.filter((c) => c.attempts <= c.maxAttempts));
    const lanes = Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let group = queue.shift(); group !== undefined; group = queue.shift()) await runGroup(group);
    });
    await Promise.all(lanes);
  }

  async function runOnce(): Promise<number> {
    const commands = await repo.claim(outboxDb(db), { workerId, limit: batchSize, leaseMillis, commandTypes });
    outage.succeeded();
    counters.claimed += commands.length;
    for (const c of commands) commandEvent('claimed', c);
    keeper?.hold(commands);
    try {
      await execute(commands);
    } finally {
      // Normally each group has released its commands already; never leave one renewed for ever.
      await keeper?.release(commands);
    }
    return commands.length;
  }

  const loop = makePollLoop({
    pollIntervalMillis: options.pollIntervalMillis,
    async turn() {
      retention?.poke();
      try {
        return (await runOnce()) === batchSize;
      } catch (err) {
        if (!outage.failed(err))
          logger.error({ err, workerId }, 'claiming outbox commands failed; retrying after the poll interval');
        emit({ type: 'error', error: messageOf(err) });
        return false;
      }
    },
    // After a wake-up, wait a little so the commands of concurrent commits are claimed together.
    async afterPause(waited) {
      if (!loop.stopping && waited < wakeDelayMillis)
        await new Promise((resolve) => setTimeout(resolve, wakeDelayMillis - waited));
    },
  });

  return {
    workerId,
    start: () => loop.start(),
    wake: () => loop.wake(),
    runOnce,
    async stop(stopOptions = {}) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([loop.stop(), retention?.stop()]),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, stopOptions.timeoutMillis ?? 30_000);
        }),
      ]);
      clearTimeout(timer);
    },
    stats: () => ({ ...counters }),
  };
}
