/**
 * `npm run bench -- bullmq --leaves N`: the BullMQ flow counterpart of `fanout` on the Redis of
 * FW_BENCH_REDIS_URL (default `redis://127.0.0.1:6379`): a parent job and N leaf children added as
 * one flow, leaves run with concurrency 50, the parent reads its children's values. Prints the
 * figures; the LAST line is `jobs_per_s=<number>` (leaf jobs per second, like fanout's leaves/s).
 */
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';
import {
  BULLMQ_LEAF_CONCURRENCY,
  runBullmqFlow,
  type BullmqFlowResult,
  type BullmqFlowRun,
  type BullmqFlowTuning,
} from './bullmq-flow-run';
import { runBullmqPostgresFlow, type BullmqPostgresFlowResult } from './bullmq-postgres-flow';

/** Redis of the BullMQ runner. */
export function benchRedisUrl(): string {
  return process.env.FW_BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
}

function checkFlow(r: BullmqFlowRun): void {
  if (r.leafRuns !== r.leaves || r.childrenSeen !== r.leaves)
    throw new Error(
      `bullmq flow: ${r.leafRuns} leaf runs and ${r.childrenSeen} children values for ${r.leaves} leaves`,
    );
}

/** Runs one flow on Redis and prints it; fails when a leaf did not run or the parent missed a child. */
export async function bullmqBenchOn(
  redisUrl: string,
  leaves: number,
  io: BenchIo,
  deadlineSeconds?: number,
): Promise<BullmqFlowResult> {
  io.out(
    `bullmq: parent + ${leaves} children as one flow, leaf concurrency ${BULLMQ_LEAF_CONCURRENCY} (Redis ${new URL(redisUrl).host})`,
  );
  const tuning: BullmqFlowTuning = { concurrency: BULLMQ_LEAF_CONCURRENCY, deadlineSeconds };
  const r = await runBullmqFlow(redisUrl, leaves, tuning, (line) => io.out(line));
  checkFlow(r);
  io.out(
    `  parent done in ${r.seconds.toFixed(2)} s (flow added after ${r.splitSeconds.toFixed(2)} s); ${r.keysRemoved} keys removed; ${r.redisCommandsPerLeaf.toFixed(2)} Redis commands per leaf (whole server)`,
  );
  io.out(`  elapsed_s=${r.seconds.toFixed(3)}`);
  io.out(`jobs_per_s=${r.leavesPerSecond.toFixed(0)}`);
  return r;
}

/** Runs one flow on BullMQ's PostgreSQL backend (scratch database of `serverUrl`) and prints it. */
export async function bullmqPostgresBenchOn(
  serverUrl: string,
  leaves: number,
  io: BenchIo,
  deadlineSeconds?: number,
): Promise<BullmqPostgresFlowResult> {
  io.out(
    `bullmq-pg: parent + ${leaves} children as one flow on BullMQ's PostgreSQL backend, leaf concurrency ${BULLMQ_LEAF_CONCURRENCY}`,
  );
  const tuning: BullmqFlowTuning = { concurrency: BULLMQ_LEAF_CONCURRENCY, deadlineSeconds };
  const r = await runBullmqPostgresFlow(serverUrl, leaves, tuning, (line) => io.out(line));
  checkFlow(r);
  io.out(`  parent done in ${r.seconds.toFixed(2)} s (flow added after ${r.splitSeconds.toFixed(2)} s)`);
  io.out(`  elapsed_s=${r.seconds.toFixed(3)}`);
  io.out(`jobs_per_s=${r.leavesPerSecond.toFixed(0)}`);
  return r;
}

/** The `bullmq` runner of `npm run bench` (`--leaves`, default 10000). */
export const bullmqBench: BenchRunner = {
  description:
    'BullMQ flow comparison for fanout: parent + N children on Redis (--leaves N, default 10000), concurrency 50; last line jobs_per_s=',
  async run(options: BenchOptions, io: BenchIo): Promise<void> {
    await bullmqBenchOn(benchRedisUrl(), options.leaves ?? 10_000, io);
  },
};

/** The `bullmq-pg` runner of `npm run bench` (`--leaves`, default 10000; `--database-url`). */
export const bullmqPostgresBench: BenchRunner = {
  description:
    "BullMQ flow on BullMQ's PostgreSQL backend: parent + N children on a scratch database (--leaves N, default 10000), concurrency 50; last line jobs_per_s=",
  async run(options: BenchOptions, io: BenchIo): Promise<void> {
    const serverUrl = process.env.FW_BENCH_DATABASE_URL || options.databaseUrl;
    await bullmqPostgresBenchOn(serverUrl, options.leaves ?? 10_000, io, options.timeout);
  },
};
