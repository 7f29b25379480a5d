/** Status of an unfinished or dead work item or outbox command, as counted by the gauges. */
export type QueueStatus = 'PENDING' | 'RUNNING' | 'DEAD';

/** The figures behind the database-backed gauges, one read of the database. */
export interface QueueFigures {
  /** `fw_work_items`: items per tenant, process type, worker type and status. */
  workItems: { tenant: string | null; processType: string; workerType: string; status: QueueStatus; count: number }[];
  /** `fw_work_item_oldest_due_age_seconds`: now − run_at of the oldest due PENDING item, per group. */
  oldestDueWorkItems: { tenant: string | null; processType: string; workerType: string; ageSeconds: number }[];
  /** `fw_outbox_commands`: commands per tenant and status. */
  outboxCommands: { tenant: string | null; status: QueueStatus; count: number }[];
  /** `fw_outbox_lag_seconds`: now − run_at of the oldest due PENDING command, per tenant. */
  outboxLag: { tenant: string | null; ageSeconds: number }[];
}

/**
 * The port the caller implements: reads every figure at once (a few `group by` statements over
 * `fw_process_work_item` and `fw_process_outbox`, times from the database clock).
 */
export interface QueueFiguresReader {
  readFigures(): Promise<QueueFigures>;
}

/** What the gauges ask on each scrape. `undefined`: no figures (the last read failed). */
export interface QueueFiguresSource {
  figures(): Promise<QueueFigures | undefined>;
}

/** Options of {@link makeCachedGaugeSource}. */
export interface CachedGaugeSourceOptions {
  /** At most one read per this many seconds, whatever the scrape rate. Default 5. */
  maxAgeSeconds?: number;
  /** Called with the error of a failed read; the gauges then carry no samples until a read succeeds. */
  onError?: (error: unknown) => void;
  /** Milliseconds clock; default `Date.now`. */
  now?: () => number;
}

/**
 * Reads the gauge figures through `reader` at most once every `maxAgeSeconds` (default 5, counted
 * from the end of the previous read), however
 * often Prometheus scrapes and however many series ask: every gauge of one scrape and every
 * concurrent scrape share one read in flight. A failed read is remembered for the same period (a
 * database in trouble is not asked again on every scrape) and reported to `onError`.
 *
 * @example
 * const source = makeCachedGaugeSource({ readFigures: () => readQueueFigures(db) }, { maxAgeSeconds: 10 });
 * const metrics = makeFwMetrics(undefined, { gaugeSource: source });
 */
export function makeCachedGaugeSource(
  reader: QueueFiguresReader,
  options: CachedGaugeSourceOptions = {},
): QueueFiguresSource {
  const maxAgeMillis = (options.maxAgeSeconds ?? 5) * 1000;
  if (!Number.isFinite(maxAgeMillis) || maxAgeMillis < 0)
    throw new RangeError(`maxAgeSeconds must be a number >= 0, got ${String(options.maxAgeSeconds)}`);
  const now = options.now ?? Date.now;
  let cached: { at: number; figures: Promise<QueueFigures | undefined>; settled: boolean } | undefined;

  const read = async (): Promise<QueueFigures | undefined> => {
    try {
      return await reader.readFigures();
    } catch (error) {
      options.onError?.(error);
      return undefined;
    }
  };
  return {
    figures() {
      const at = now();
      // A read in flight is shared even when it takes longer than the period; the period counts
      // from the end of the last read, so a slow database is not asked again at once.
      if (!cached || (cached.settled && at - cached.at >= maxAgeMillis)) {
        const entry = { at, figures: read(), settled: false };
        void entry.figures.then(() => {
          entry.settled = true;
          entry.at = now();
        });
        cached = entry;
      }
      return cached.figures;
    },
  };
}
