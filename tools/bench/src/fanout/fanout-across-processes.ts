/**
 * `npm run bench -- fanout --workers K` (K ≥ 1): the coordinator. K worker OS processes each run a
 * full fan-out node on the scratch database (`fanout-worker-main.ts`); this process only creates the
 * root — through a manager with the outbox on and no dispatcher, so the root's splitter item is all
 * it writes — then watches the root's state in the database, stops the workers and verifies the run.
 *
 * The clock runs from the root's creation to the root seen PROCESSED, like the single-process mode
 * (there: its completion listener). Worker start-up (tsx compiles the stack) is off the clock: each
 * worker reports `ready` first.
 *
 * @example
 * const result = await runFanoutAcrossWorkers(scratch, 10_000, 2, console.log, fanoutTuningFromEnv(2));
 * result.itemsPerWorker; // e.g. [5003, 4999]
 */
import type { Database } from '@fw/core';
import { makeWorkItemStarter } from '@fw/jdbc-process-starter';
import { sql } from 'kysely';
import { startFanoutProgress, verifyFanout, waitForOutboxDrained, waitForRootFinished } from './fanout-checks';
import { createFanoutRoot, makeFanoutManager, type FanoutTuning } from './fanout-node';
import { fanoutResultOf, type FanoutResult } from './fanout-result';
import { startFanoutWorkerProcesses } from './fanout-worker-processes';
import { epochMillis } from './fanout-worker-protocol';

/** Pool of the coordinator: the root's creation, the state polls, progress and verification. */
export const COORDINATOR_POOL = 4;
/** How often the coordinator reads the root's state. */
const ROOT_POLL_MILLIS = 50;

export interface FanoutAcrossWorkersResult extends FanoutResult {
  /** Work items (leaves, splitter, aggregator) completed by each worker process, in fork order. */
  itemsPerWorker: number[];
}

/** Connections the server still accepts beside those open now (superuser reserve included). */
async function freeConnections(database: Database): Promise<number> {
  const { rows } = await sql<{
    free: number;
  }>`select current_setting('max_connections')::int - (select count(*) from pg_stat_activity)::int as free`.execute(
    database.db,
  );
  return rows[0].free;
}

/**
 * Runs one fan-out of `leaves` across `workerCount` worker processes on the migrated scratch
 * database (`url` is handed to the workers, `database` is this process's pool on it), verifies it
 * (throws when any leaf was not carried exactly once) and stops the workers; on any failure the
 * workers are killed.
 */
export async function runFanoutAcrossWorkers(
  scratch: { database: Database; url: string },
  leaves: number,
  workerCount: number,
  print: (line: string) => void,
  tuning: FanoutTuning,
): Promise<FanoutAcrossWorkersResult> {
  const { database } = scratch;
  const free = await freeConnections(database);
  // Pools open lazily, so this is a warning, not a refusal: a run may need fewer than its pools allow.
  if (workerCount * tuning.pool > free)
    print(
      `  warning: ${workerCount} workers × pool ${tuning.pool} exceed the ${free} connections the server has free (lower FW_FANOUT_POOL)`,
    );

  const workers = await startFanoutWorkerProcesses(workerCount, scratch.url, tuning);
  print(`  ${workerCount} worker process(es) ready (pids ${workers.pids.join(', ')})`);
  const manager = makeFanoutManager(database, makeWorkItemStarter(), { runDispatcher: false });
  try {
    const startedAt = epochMillis();
    const started = performance.now();
    const rootId = await createFanoutRoot(manager, leaves);
    // The splitter's item was committed here, where no runner listens: wake the workers' runners.
    workers.wakeAll();
    const progress = startFanoutProgress(database, rootId, started, print);
    try {
      await Promise.race([waitForRootFinished(database, rootId, ROOT_POLL_MILLIS), workers.crashed]);
    } finally {
      progress.stop();
    }
    const ended = performance.now();
    await Promise.race([waitForOutboxDrained(database, 30_000), workers.crashed]);
    const itemsPerWorker = await workers.stop();
    const verified = await verifyFanout(database, rootId, leaves);
    const splitDoneAt = workers.splitDoneAtEpochMillis();
    if (splitDoneAt === undefined) throw new Error('no worker reported the end of the split');
    return {
      ...fanoutResultOf({
        leaves,
        seconds: (ended - started) / 1000,
        splitSeconds: (splitDoneAt - startedAt) / 1000,
        ...verified,
      }),
      itemsPerWorker,
    };
  } catch (err) {
    workers.kill();
    throw err;
  } finally {
    await manager.close();
  }
}
