/**
 * `npm run bench -- graphile --leaves N [--database-url URL]`: the graphile-worker equivalent of the
 * `fanout` bench, for the target "at least as fast as graphile-worker running N bare jobs
 * plus one aggregate job on the same database". It creates a scratch database on the server of
 * `--database-url` (or FW_BENCH_DATABASE_URL), installs graphile-worker's schema there, runs the
 * `bare` and then the `counted` fan-in (src/graphile/graphile-fanout-run.ts) with the settings of
 * `FW_GRAPHILE_*` (src/graphile/graphile-tuning.ts), then `batched`: the counted fan-in with the
 * local queue and a completion window always on (`batchedGraphileTuning`), and drops the database
 * again. Each variant's CPU split and cost per leaf (transactions, statements, rows and index
 * entries, from the database's statistics) are measured on their own.
 *
 * Prints the settings and every variant's figures; the last three lines are
 * `batched_jobs_per_s=<number>`, `counted_jobs_per_s=<number>` and, LAST, `jobs_per_s=<number>`
 * (bare variant), all leaf jobs per second like the fanout bench's `leaves_per_s`.
 */
import { runMigrations } from 'graphile-worker';
import pg from 'pg';
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';
import { formatLeafCost, startLeafCost, type LeafCost } from '../fanout/leaf-cost';
import { createScratchDatabase } from '../scratch/scratch-database';
import { sessionsReported } from '../scratch/scratch-sessions';
import { runGraphileFanout, SILENT_LOGGER, type GraphileFanIn, type GraphileFanoutResult } from './graphile-fanout-run';
import {
  batchedGraphileTuning,
  describeGraphileTuning,
  graphileTuningFromEnv,
  type GraphileTuning,
} from './graphile-tuning';

/** One variant's run with what each of its leaves cost the database. */
export type GraphileVariantResult = GraphileFanoutResult & { leafCost: LeafCost };

/** The variants of one bench run, in the order they ran. */
export interface GraphileBenchResult {
  bare: GraphileVariantResult;
  counted: GraphileVariantResult;
  batched: GraphileVariantResult;
}

function openPool(url: string, size: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: size });
  // A dropped server connection, idle or checked out, must not crash the bench: the query running
  // on it rejects anyway. (graphile-worker warns about a pool without both handlers.)
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

function printVariant(label: string, r: GraphileVariantResult, io: BenchIo): void {
  const counter = r.counter === null ? '' : `, counter ${r.counter}`;
  io.out(
    `  ${label}: ${r.leafRuns} leaves + ${r.aggregateRuns} aggregate in ${r.seconds.toFixed(2)} s (split added the leaves after ${r.splitSeconds.toFixed(2)} s${counter}, ${r.jobsLeft} jobs left)`,
  );
  for (const line of formatLeafCost(r.leafCost)) io.out(line);
  io.out(`  ${label}: elapsed_s=${r.seconds.toFixed(3)} leaves_per_s=${r.leavesPerSecond.toFixed(0)}`);
}

/** Opens every connection of `pool` before a run, so that no variant's clock includes connecting. */
async function connectAll(pool: pg.Pool, size: number): Promise<void> {
  const clients = await Promise.all(Array.from({ length: size }, () => pool.connect()));
  for (const client of clients) client.release();
}

/**
 * One variant on a pool of its own, connected before the clock starts and closed after it, so that
 * its sessions report their statistics as they end and its cost per leaf is its own.
 */
async function runVariant(
  label: string,
  url: string,
  fanIn: GraphileFanIn,
  leaves: number,
  tuning: GraphileTuning,
  io: BenchIo,
): Promise<GraphileVariantResult> {
  io.out(`${label}:`);
  const pool = openPool(url, tuning.pool);
  let run: GraphileFanoutResult;
  let cost: Awaited<ReturnType<typeof startLeafCost>>;
  try {
    await connectAll(pool, tuning.pool);
    cost = await startLeafCost(url);
    run = await runGraphileFanout(pool, fanIn, leaves, tuning, (line) => io.out(line));
  } finally {
    await pool.end().catch(() => undefined);
  }
  await sessionsReported();
  const result = { ...run, leafCost: await cost.stop(leaves) };
  printVariant(label, result, io);
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
  try {
    const pool = openPool(scratch.url, 2);
    await runMigrations({ pgPool: pool, logger: SILENT_LOGGER }).finally(() => pool.end().catch(() => undefined));
    io.out(
      `graphile: graphile-worker split job + ${leaves} leaf jobs (one addJobs batch) + 1 aggregate job (PostgreSQL)`,
    );
    io.out(`  ${describeGraphileTuning(tuning)}`);
    io.out(
      '  bare: leaves do nothing, the bench counts job:success events and adds the aggregate; counted: each leaf bumps a counter row, the last one adds the aggregate; batched: counted with the settings below',
    );
    const batchedTuning = batchedGraphileTuning(tuning);
    io.out(`  batched: ${describeGraphileTuning(batchedTuning)}`);
    const bare = await runVariant('bare', scratch.url, 'bare', leaves, tuning, io);
    const counted = await runVariant('counted', scratch.url, 'counted', leaves, tuning, io);
    const batched = await runVariant('batched', scratch.url, 'counted', leaves, batchedTuning, io);
    io.out(`batched_jobs_per_s=${batched.leavesPerSecond.toFixed(0)}`);
    io.out(`counted_jobs_per_s=${counted.leavesPerSecond.toFixed(0)}`);
    io.out(`jobs_per_s=${bare.leavesPerSecond.toFixed(0)}`);
    return { bare, counted, batched };
  } finally {
    await scratch.drop();
  }
}

/** The `graphile` runner of `npm run bench` (`--leaves`, default 10000; `--database-url`). */
export const graphileBench: BenchRunner = {
  description:
    'graphile-worker comparison for fanout: split + N leaf jobs + aggregate (--leaves N, default 10000), bare, counted and batched fan-in; last line jobs_per_s=',
  async run(options: BenchOptions, io: BenchIo): Promise<void> {
    await graphileBenchOn(process.env.FW_BENCH_DATABASE_URL || options.databaseUrl, options.leaves ?? 10_000, io);
  },
};
