/**
 * Retention of finished rows: now and then (at most once per `intervalMillis`), in the background,
 * delete done rows older than the retention in batches (one short statement each) until a batch
 * comes back short. A consumer loop pokes it every turn; the poke is a clock comparison. Several
 * instances may sweep the same table at once: the purge statement skips rows another one has
 * locked.
 *
 * @example
 * const sweeper = makeRetentionSweeper({
 *   purge: (limit) => queue.purgeFinished(db, { olderThanMillis: DEFAULT_RETENTION_MILLIS, limit }),
 *   onError: (err) => logger.warn({ err }, 'retention purge failed; retried at the next interval'),
 * });
 * loopTurn = async () => { sweeper.poke(); ... };
 * await sweeper.stop(); // at shutdown, after the batch in progress
 */

/** Finished rows are kept 7 days by default. */
export const DEFAULT_RETENTION_MILLIS = 7 * 24 * 60 * 60 * 1000;
/** A sweep starts at most once a minute by default. */
export const DEFAULT_RETENTION_INTERVAL_MILLIS = 60_000;
/** Rows deleted per statement by default: short statements, short row locks. */
export const DEFAULT_RETENTION_BATCH_SIZE = 1000;

export interface RetentionSweeperOptions {
  /** Deletes at most `limit` rows (one statement); resolves how many. */
  purge(limit: number): Promise<number>;
  /** Least time between the starts of two sweeps (default {@link DEFAULT_RETENTION_INTERVAL_MILLIS}). */
  intervalMillis?: number;
  /** Rows per statement (default {@link DEFAULT_RETENTION_BATCH_SIZE}). */
  batchSize?: number;
  /** After a sweep that deleted rows. */
  onPurged?(rows: number): void;
  /** A batch failed; the sweep ends and the next one comes after the interval. */
  onError(error: unknown): void;
}

export interface RetentionSweeper {
  /** Starts a sweep in the background when one is due and none is running. */
  poke(): void;
  /** Sweeps now (or waits for the sweep in progress); resolves the rows it deleted. */
  sweep(): Promise<number>;
  /** Ends the sweep in progress after its current batch; no further sweeps start. */
  stop(): Promise<void>;
}

/** Makes a sweeper; the first poke sweeps at once (a restarted instance cleans up promptly). */
export function makeRetentionSweeper(options: RetentionSweeperOptions): RetentionSweeper {
  const intervalMillis = Math.max(0, options.intervalMillis ?? DEFAULT_RETENTION_INTERVAL_MILLIS);
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_RETENTION_BATCH_SIZE));
  let lastStart = Number.NEGATIVE_INFINITY;
  let current: Promise<number> | undefined;
  let stopped = false;

  async function run(): Promise<number> {
    let total = 0;
    try {
      while (!stopped) {
        const deleted = await options.purge(batchSize);
        total += deleted;
        if (deleted < batchSize) break;
        // Let the consumer's own statements in between batches of a large backlog.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      options.onError(error);
    }
    if (total > 0) options.onPurged?.(total);
    return total;
  }

  function start(): Promise<number> {
    lastStart = Date.now();
    const sweep = run().finally(() => {
      current = undefined;
    });
    current = sweep;
    return sweep;
  }

  return {
    poke() {
      if (stopped || current !== undefined || Date.now() - lastStart < intervalMillis) return;
      void start();
    },
    sweep: () => current ?? (stopped ? Promise.resolve(0) : start()),
    async stop() {
      stopped = true;
      await current;
    },
  };
}
