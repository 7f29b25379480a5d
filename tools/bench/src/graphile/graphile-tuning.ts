/**
 * Settings of the graphile-worker comparison benchmark, read from the environment. The defaults are
 * the throughput configuration that graphile-worker's performance page documents for 0.17
 * (24 concurrent jobs, a pool of 25, a local queue of 500 and batched completion), so the
 * comparison gives graphile-worker its best documented chance.
 *
 * | variable                        | setting                                        | default |
 * | ------------------------------- | ---------------------------------------------- | ------- |
 * | `FW_GRAPHILE_CONCURRENCY`       | `concurrency` (jobs run at once)               | 24      |
 * | `FW_GRAPHILE_POOL`              | pg pool size given to graphile-worker          | 25      |
 * | `FW_GRAPHILE_LOCAL_QUEUE`       | `localQueue.size` (-1 disables the local queue) | 500    |
 * | `FW_GRAPHILE_COMPLETE_DELAY`    | `completeJobBatchDelay` / `failJobBatchDelay` in ms (-1 disables) | 0 |
 * | `FW_GRAPHILE_POLL`              | `pollInterval` in ms                           | 200     |
 * | `FW_GRAPHILE_BATCHED_DELAY`     | the `batched` run's `completeJobBatchDelay` / `failJobBatchDelay` in ms | 250 |
 *
 * The `batched` run is the counted fan-in with both batching options always on: the local queue
 * (`FW_GRAPHILE_LOCAL_QUEUE` when that is on, else 500) and completions collected for
 * `FW_GRAPHILE_BATCHED_DELAY` ms, the window graphile-worker's documentation suggests starting from.
 */

/** One configuration of graphile-worker for a run. */
export interface GraphileTuning {
  /** Jobs run at once by the worker pool (`concurrency`). */
  concurrency: number;
  /** Connections of the pg pool handed to graphile-worker (`pgPool`); at least 2. */
  pool: number;
  /** `preset.worker.localQueue.size`: jobs fetched and locked per query; -1 = off. */
  localQueueSize: number;
  /** `completeJobBatchDelay` and `failJobBatchDelay` in ms; -1 = one statement per job. */
  completionBatchDelayMillis: number;
  /** `pollInterval` in ms (new jobs are also announced by LISTEN/NOTIFY). */
  pollIntervalMillis: number;
}

/** The integer in `name` if it is one and at least `min`, else `fallback`. */
function integerFromEnv(name: string, min: number, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value >= min ? value : fallback;
}

/** Reads `FW_GRAPHILE_*` (see the table at the top of this file). */
export function graphileTuningFromEnv(): GraphileTuning {
  return {
    concurrency: integerFromEnv('FW_GRAPHILE_CONCURRENCY', 1, 24),
    pool: integerFromEnv('FW_GRAPHILE_POOL', 2, 25),
    localQueueSize: integerFromEnv('FW_GRAPHILE_LOCAL_QUEUE', -1, 500),
    completionBatchDelayMillis: integerFromEnv('FW_GRAPHILE_COMPLETE_DELAY', -1, 0),
    pollIntervalMillis: integerFromEnv('FW_GRAPHILE_POLL', 1, 200),
  };
}

/** One line naming every setting, as graphile-worker calls them. */
export function describeGraphileTuning(tuning: GraphileTuning): string {
  return [
    `concurrency=${tuning.concurrency}`,
    `pool=${tuning.pool}`,
    `localQueue.size=${tuning.localQueueSize}`,
    `completeJobBatchDelay=${tuning.completionBatchDelayMillis}`,
    `failJobBatchDelay=${tuning.completionBatchDelayMillis}`,
    `pollInterval=${tuning.pollIntervalMillis}`,
    'noHandleSignals=true',
    'preparedStatements=true',
  ].join(' ');
}

/** Local queue of the `batched` run when `FW_GRAPHILE_LOCAL_QUEUE` turns it off. */
const BATCHED_LOCAL_QUEUE = 500;

/** The settings of the `batched` run: `tuning` with the local queue and a completion window of `FW_GRAPHILE_BATCHED_DELAY` ms. */
export function batchedGraphileTuning(tuning: GraphileTuning): GraphileTuning {
  return {
    ...tuning,
    localQueueSize: tuning.localQueueSize > 1 ? tuning.localQueueSize : BATCHED_LOCAL_QUEUE,
    completionBatchDelayMillis: integerFromEnv('FW_GRAPHILE_BATCHED_DELAY', 0, 250),
  };
}
