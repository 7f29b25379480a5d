/**
 * `npm run bench -- graphile --leaves N [--database-url URL]`: the graphile-worker equivalent of the
 * `fanout` bench, for the issue's target "at least as fast as graphile-worker running N bare jobs
 * plus one aggregate job on the same database". It creates a scratch database on the server of
 * `--database-url` (or FW_BENCH_DATABASE_URL), installs graphile-worker's schema there, runs the
 * `bare` and then the `counted` fan-in (src/graphile/graphile-fanout-run.ts) with the settings of
 * `FW_GRAPHILE_*` (src/graphile/graphile-tuning.ts), and drops the database again.
 *
 * Prints the settings and both variants' figures; the line before last is
 * `counted_jobs_per_s=<number>` and the LAST line `jobs_per_s=<number>` (bare variant), both leaf
 * jobs per second like the fanout bench's `leaves_per_s`.
 */
import { runMigrations } from 'graphile-worker';
import pg from 'pg';
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';
import { createScratchDatabase } from '../scratch/scratch-database';
import { runGraphileFanout, SILENT_LOGGER, type GraphileFanIn, type GraphileFanoutResult } from './graphile-fanout-run';
import { describeGraphileTuning, graphileTuningFromEnv, type GraphileTuning } from './graphile-tuning';

/** Both variants of one bench run, in the order they ran. */
export interface GraphileBenchResult {
  bare: GraphileFanoutResult;
  counted: GraphileFanoutResult;
}

function openPool(url: string, size: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: size });
  // A dropped server connection, idle or checked out, must not crash the bench: the query running
  // on it rejects anyway. (graphile-worker warns about a pool without both handlers.)
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

function printVariant(r: GraphileFanoutResult, io: BenchIo): void {
  const counter = r.counter === null ? '' : `, counter ${r.counter}`;
  io.out(
    `  ${r.fanIn}: ${r.leafRuns} leaves + ${r.aggregateRuns} aggregate in ${r.seconds.toFixed(2)} s (split added the leaves after ${r.splitSeconds.toFixed(2)} s${counter}, ${r.jobsLeft} jobs left)`,
  );
  io.out(`  ${r.fanIn}: elapsed_s=${r.seconds.toFixed(3)} leaves_per_s=${r.leavesPerSecond.toFixed(0)}`);
}

async function runVariant(
  pool: pg.Pool,
  fanIn: GraphileFanIn,
  leaves: number,
  tuning: GraphileTuning,
  io: BenchIo,
): Promise<GraphileFanoutResult> {
  io.out(`${fanIn}:`);
  const result = await runGraphileFanout(pool, fanIn, leaves, tuning, (line) => io.out(line));
  printVariant(result, io);
  return result;
}

/** Runs both variants on a scratch database of `serverUrl`; drops it even when a run fails. */
export async function graphileBenchOn(
  serverUrl: string,
  leaves: number,
  io: BenchIo,
  tuning: GraphileTuning = graphileTuningFromEnv(),
): Promise<GraphileBenchResult> {
  const scratch = await createScratchDatabase(serverUrl, 'fw_graphile');
  const pool = openPool(scratch.url, tuning.pool);
  try {
    await runMigrations({ pgPool: pool, logger: SILENT_LOGGER });
    io.out(
      `graphile: graphile-worker split job + ${leaves} leaf jobs (one addJobs batch) + 1 aggregate job (PostgreSQL)`,
    );
    io.out(`  ${describeGraphileTuning(tuning)}`);
    io.out(
      '  bare: leaves do nothing, the bench counts job:success events and adds the aggregate; counted: each leaf bumps a counter row, the last one adds the aggregate',
    );
    const bare = await runVariant(pool, 'bare', leaves, tuning, io);
    const counted = await runVariant(pool, 'counted', leaves, tuning, io);
    io.out(`counted_jobs_per_s=${counted.leavesPerSecond.toFixed(0)}`);
    io.out(`jobs_per_s=${bare.leavesPerSecond.toFixed(0)}`);
    return { bare, counted };
  } finally {
    await pool.end().catch(() => undefined);
    await scratch.drop();
  }
}

/** The `graphile` runner of `npm run bench` (`--leaves`, default 10000; `--database-url`). */
export const graphileBench: BenchRunner = {
  description:
    'graphile-worker comparison for fanout: split + N leaf jobs + aggregate (--leaves N, default 10000), bare and counted fan-in; last line jobs_per_s=',
  async run(options: BenchOptions, io: BenchIo): Promise<void> {
    await graphileBenchOn(process.env.FW_BENCH_DATABASE_URL || options.databaseUrl, options.leaves ?? 10_000, io);
  },
};
