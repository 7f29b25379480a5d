/**
 * The lifecycle of a leased-queue consumer, in one place: a poll loop whose turns claim work, the
 * heartbeat that keeps the leases of claimed work, retention of finished rows swept in the
 * background, a lost database reported once (and once when it is back), an optional wake-up source,
 * and the order in which all of it stops. The work-item runner and the outbox dispatcher are this
 * lifecycle with their own claim, execution and settlement.
 *
 * @example
 * const lifecycle = makeLeasedLoop<Claimed>({
 *   subject: 'job runner',
 *   workerId,
 *   logger,
 *   pollIntervalMillis: 1000,
 *   turn: async () => {
 *     const claims = await queue.claim(db, { workerId, limit: 50, leaseMillis });
 *     lifecycle.outage.succeeded();
 *     lifecycle.hold(claims);
 *     await Promise.all(claims.map(run)); // run: lifecycle.release([c]) before acknowledging c
 *     return claims.length === 50;
 *   },
 *   turnFailed: { message: 'claiming jobs failed; retrying after the poll interval' },
 *   heartbeat: { intervalMillis: leaseMillis / 3, renew: (c) => queue.renew(db, c, leaseMillis), onLost: abortRun, failureMessage: 'heartbeat failed' },
 *   retention: { retentionMillis: DEFAULT_RETENTION_MILLIS, purge: (limit) => queue.purgeFinished(db, { olderThanMillis: DEFAULT_RETENTION_MILLIS, limit }), purgedMessage: 'deleted old jobs', failureMessage: 'deleting old jobs failed' },
 * });
 * lifecycle.start();
 * await lifecycle.stop({ timeoutMillis: 30_000 });
 */
import { makeLeaseKeeper, type LeaseKeeper } from '../lease/lease-keeper';
import { makePollLoop, type PollLoop } from '../loop/poll-loop';
import { isConnectionError, makeOutageTracker, type OutageTracker } from '../outage/outage-tracker';
import type { Claim } from '../queue/leased-queue';
import { makeRetentionSweeper, type RetentionSweeper } from '../retention/retention-sweeper';
import { stopLeasedLoop, type BackgroundWork, type LeasedLoopStopped } from './leased-loop-stop';

/** The log lines a lifecycle writes: `(fields, message)`, as pino and most structured loggers take them. */
export interface LeasedLoopLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** The heartbeat of a lifecycle (see `makeLeaseKeeper`). */
export interface LeasedLoopHeartbeat<C extends Claim> {
  /** Time between beats; undefined: no heartbeat (`heartbeatIntervalMillis` turns an option into this). */
  intervalMillis: number | undefined;
  /** Renews the leases of these claims (ONE statement); resolves the ids still held. */
  renew(claims: readonly C[]): Promise<ReadonlySet<string>>;
  /** A held claim whose renewal found it gone. */
  onLost(claim: C): void;
  /** Logged (warn) when a beat fails for a reason other than a lost database. */
  failureMessage: string;
}

/** Retention of finished rows (see `makeRetentionSweeper`). */
export interface LeasedLoopRetention {
  /** How long finished rows are kept; 0: never deleted (no sweeper). */
  retentionMillis: number;
  /** Least time between the starts of two sweeps. */
  intervalMillis?: number;
  /** Rows per statement. */
  batchSize?: number;
  /** Deletes at most `limit` rows (one statement); resolves how many. */
  purge(limit: number): Promise<number>;
  /** Logged (info) after a sweep that deleted rows. */
  purgedMessage: string;
  /** Logged (warn) when a batch fails for a reason other than a lost database. */
  failureMessage: string;
}

/** Starts listening for wake-ups; resolves a function that stops listening (e.g. LISTEN/NOTIFY). */
export interface LeasedLoopWakeSource {
  subscribe(onWake: () => void): Promise<() => Promise<void>>;
}

export interface LeasedLoopOptions<C extends Claim> {
  /** What the log lines call the consumer ("work-item runner"). */
  subject: string;
  workerId: string;
  logger: LeasedLoopLogger;
  /** Longest pause between turns when idle. */
  pollIntervalMillis: number;
  /**
   * One turn: claims and runs (or launches) work; resolves true to turn again without pausing.
   * It reports a successful claim with `outage.succeeded()`. A rejection is counted into the outage
   * (or logged with `turnFailed.message`), then the loop pauses.
   */
  turn(): Promise<boolean>;
  turnFailed: {
    /** Logged (error) when a turn fails for a reason other than a lost database. */
    message: string;
    /** Called after every failed turn (for example to emit an event). */
    notify?(error: unknown): void;
  };
  /** Runs after each pause with how long it lasted (see `PollLoopOptions.afterPause`). */
  afterPause?(pausedMillis: number): Promise<void>;
  /** Heartbeat of the claims the consumer holds (none when absent). */
  heartbeat?: LeasedLoopHeartbeat<C>;
  /** Retention sweeps, poked at the start of every turn (none when absent). */
  retention?: LeasedLoopRetention;
  /** Wake-ups besides `wake()`; a source that fails to start leaves the loop polling only. */
  wakeSource?: LeasedLoopWakeSource;
  /**
   * Work a turn launches in the background and the loop does not wait for (the runner's items).
   * Absent: a turn runs its work to the end, and `stop` bounds the last turn by the timeout.
   */
  backgroundWork?: BackgroundWork;
}

export interface LeasedLoop<C extends Claim> {
  /** Starts polling and the wake source (idempotent). */
  start(): void;
  /** Ends the current pause now (or the next one, when a turn is running). */
  wake(): void;
  /** Keeps the leases of these claims renewed (a no-op without a heartbeat). */
  hold(claims: Iterable<C>): void;
  /** Stops renewing these claims; resolves once no renewal that includes them is in flight. */
  release(claims: Iterable<Claim>): Promise<void>;
  /** The database outage shared by claims, heartbeats, sweeps and the consumer's own bookkeeping. */
  readonly outage: OutageTracker;
  /** True once `stop()` was called. */
  readonly stopping: boolean;
  /**
   * Stops in this order: the loop (after its turn in progress), the wake source, the retention
   * sweeps (none starts; the one in progress ends after its batch), then the background work is
   * waited for up to `timeoutMillis` and what is unfinished is released; without background work
   * the last turn and the sweep in progress are what the timeout bounds.
   */
  stop(options: { timeoutMillis: number }): Promise<LeasedLoopStopped>;
}

function outageOf(options: Pick<LeasedLoopOptions<Claim>, 'subject' | 'workerId' | 'logger'>): OutageTracker {
  const { subject, workerId, logger } = options;
  return makeOutageTracker({
    isOutage: isConnectionError,
    onLost: (err) =>
      logger.warn(
        { err, workerId },
        `${subject} lost its database: claims, heartbeats and sweeps retry quietly until it answers again`,
      ),
    onBack: ({ millis, failures }) =>
      logger.info(
        { workerId, outageMillis: millis, failedAttempts: failures },
        `${subject} has its database back after ${millis} ms (${failures} failed attempts)`,
      ),
  });
}

function keeperOf<C extends Claim>(
  heartbeat: LeasedLoopHeartbeat<C> | undefined,
  deps: { outage: OutageTracker; logger: LeasedLoopLogger; workerId: string },
): LeaseKeeper<C> | undefined {
  if (heartbeat?.intervalMillis === undefined) return undefined;
  return makeLeaseKeeper<C>({
    intervalMillis: heartbeat.intervalMillis,
    renew: (claims) => heartbeat.renew(claims),
    onLost: (claim) => heartbeat.onLost(claim),
    onError: (err) => {
      if (!deps.outage.failed(err)) deps.logger.warn({ err, workerId: deps.workerId }, heartbeat.failureMessage);
    },
  });
}

function sweeperOf(
  retention: LeasedLoopRetention | undefined,
  deps: { outage: OutageTracker; logger: LeasedLoopLogger; workerId: string },
): RetentionSweeper | undefined {
  if (retention === undefined || retention.retentionMillis === 0) return undefined;
  const { retentionMillis } = retention;
  return makeRetentionSweeper({
    intervalMillis: retention.intervalMillis,
    batchSize: retention.batchSize,
    purge: (limit) => retention.purge(limit),
    onPurged: (rows) => deps.logger.info({ workerId: deps.workerId, rows, retentionMillis }, retention.purgedMessage),
    onError: (err) => {
      if (!deps.outage.failed(err)) deps.logger.warn({ err, workerId: deps.workerId }, retention.failureMessage);
    },
  });
}

/** Makes a lifecycle; nothing runs until `start()`. */
export function makeLeasedLoop<C extends Claim>(options: LeasedLoopOptions<C>): LeasedLoop<C> {
  const { workerId, logger } = options;
  const outage = outageOf(options);
  const keeper = keeperOf(options.heartbeat, { outage, logger, workerId });
  const sweeper = sweeperOf(options.retention, { outage, logger, workerId });
  let started = false;
  let stopWakeSource: (() => Promise<void>) | undefined;

  const loop: PollLoop = makePollLoop({
    pollIntervalMillis: options.pollIntervalMillis,
    async turn() {
      sweeper?.poke();
      try {
        return await options.turn();
      } catch (err) {
        if (!outage.failed(err)) logger.error({ err, workerId }, options.turnFailed.message);
        options.turnFailed.notify?.(err);
        return false;
      }
    },
    afterPause: options.afterPause,
  });

  function subscribeWakeSource(source: LeasedLoopWakeSource): void {
    source
      .subscribe(() => loop.wake())
      .then(
        (unsubscribe) => {
          if (loop.stopping) void unsubscribe();
          else stopWakeSource = unsubscribe;
        },
        (err) => logger.warn({ err }, 'wake source failed to start; polling only'),
      );
  }

  return {
    start() {
      if (started) return;
      started = true;
      loop.start();
      if (options.wakeSource) subscribeWakeSource(options.wakeSource);
    },
    wake: () => loop.wake(),
    hold: (claims) => keeper?.hold(claims),
    release: (claims) => keeper?.release(claims) ?? Promise.resolve(),
    outage,
    get stopping() {
      return loop.stopping;
    },
    stop: ({ timeoutMillis }) =>
      stopLeasedLoop({
        loop,
        sweeper,
        stopWakeSource: async () => {
          await stopWakeSource?.().catch(() => undefined);
        },
        backgroundWork: options.backgroundWork,
        timeoutMillis,
      }),
  };
}
