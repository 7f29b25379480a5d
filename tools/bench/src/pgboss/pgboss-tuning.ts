/**
 * Settings of the pg-boss flow benchmark, read from the environment. The defaults are pg-boss's
 * fastest documented settings for this shape (many tiny jobs, one dependent job), so the
 * comparison gives pg-boss its best chance:
 *
 * | variable                     | setting                                                               | default |
 * | ---------------------------- | --------------------------------------------------------------------- | ------- |
 * | `FW_PGBOSS_BATCH`            | leaf worker's `batchSize` (jobs fetched, handled and completed at once) | 50    |
 * | `FW_PGBOSS_CONCURRENCY`      | leaf worker's `localConcurrency` (fetch loops)                          | 2     |
 * | `FW_PGBOSS_POLL_MS`          | `pollingIntervalSeconds` of both workers, in ms (pg-boss's least: 500)  | 500   |
 * | `FW_PGBOSS_FLOW_INTERVAL_S`  | `flowIntervalSeconds`: how often dependents are released (least: 1)    | 1     |
 * | `FW_PGBOSS_POOL`             | `max`, connections of pg-boss's pool                                   | 10    |
 */

export interface PgBossTuning {
  batchSize: number;
  localConcurrency: number;
  pollingIntervalMillis: number;
  flowIntervalSeconds: number;
  pool: number;
}

function integerFromEnv(name: string, min: number, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be an integer of at least ${min} (got '${raw}')`);
  return value;
}

/** Reads `FW_PGBOSS_*` (see the table at the top of this file); a bad value throws. */
export function pgBossTuningFromEnv(): PgBossTuning {
  return {
    batchSize: integerFromEnv('FW_PGBOSS_BATCH', 1, 50),
    localConcurrency: integerFromEnv('FW_PGBOSS_CONCURRENCY', 1, 2),
    pollingIntervalMillis: integerFromEnv('FW_PGBOSS_POLL_MS', 500, 500),
    flowIntervalSeconds: integerFromEnv('FW_PGBOSS_FLOW_INTERVAL_S', 1, 1),
    pool: integerFromEnv('FW_PGBOSS_POOL', 2, 10),
  };
}

/** One line naming every setting as pg-boss calls it. */
export function describePgBossTuning(t: PgBossTuning): string {
  return [
    `batchSize=${t.batchSize}`,
    `localConcurrency=${t.localConcurrency}`,
    `pollingIntervalSeconds=${t.pollingIntervalMillis / 1000}`,
    'burstWhenBatchFull=true',
    `flowIntervalSeconds=${t.flowIntervalSeconds}`,
    `max=${t.pool}`,
  ].join(' ');
}
