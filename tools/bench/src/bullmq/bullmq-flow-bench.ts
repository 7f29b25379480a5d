/**
 * `npm run bench -- bullmq --leaves N`: the BullMQ flow counterpart of `fanout` on the Redis of
 * FW_BENCH_REDIS_URL (default `redis://127.0.0.1:6379`): a parent job and N leaf children added as
 * one flow, leaves run with concurrency 50, the parent reads its children's values. Prints the
 * figures; the LAST line is `jobs_per_s=<number>` (leaf jobs per second, like fanout's leaves/s).
 */
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';
import { BULLMQ_LEAF_CONCURRENCY, runBullmqFlow, type BullmqFlowResult } from './bullmq-flow-run';

/** Redis of the BullMQ runner. */
export function benchRedisUrl(): string {
  return process.env.FW_BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
}

/** Runs one flow and prints it; fails when a leaf did not run or the parent missed a child. */
export async function bullmqBenchOn(redisUrl: string, leaves: number, io: BenchIo): Promise<BullmqFlowResult> {
  io.out(
    `bullmq: parent + ${leaves} children as one flow, leaf concurrency ${BULLMQ_LEAF_CONCURRENCY} (Redis ${new URL(redisUrl).host})`,
  );
  const r = await runBullmqFlow(redisUrl, leaves, { concurrency: BULLMQ_LEAF_CONCURRENCY }, (line) => io.out(line));
  if (r.leafRuns !== leaves || r.childrenSeen !== leaves)
    throw new Error(`bullmq flow: ${r.leafRuns} leaf runs and ${r.childrenSeen} children values for ${leaves} leaves`);
  io.out(
    `  parent done in ${r.seconds.toFixed(2)} s (flow added after ${r.splitSeconds.toFixed(2)} s); ${r.keysRemoved} keys removed`,
  );
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
