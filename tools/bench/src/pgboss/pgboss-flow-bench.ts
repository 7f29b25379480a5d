/**
 * `npm run bench -- pgboss --leaves N [--database-url URL] [--timeout S]`: the pg-boss 12 flow
 * counterpart of `fanout` (`pgboss-flow-run.ts`) on a scratch database of the server, with the
 * settings of `FW_PGBOSS_*` (`pgboss-tuning.ts`). Prints the settings, progress, the CPU split, the
 * cost per leaf; the LAST line is `jobs_per_s=<number>` (leaf jobs per second, like fanout's leaves/s).
 */
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';
import { runPgBossFlow, type PgBossFlowResult } from './pgboss-flow-run';
import { describePgBossTuning, pgBossTuningFromEnv } from './pgboss-tuning';

/** Runs one flow and prints it; fails when a leaf did not run or the aggregate missed a dependency. */
export async function pgBossBenchOn(
  serverUrl: string,
  leaves: number,
  io: BenchIo,
  deadlineSeconds?: number,
): Promise<PgBossFlowResult> {
  const tuning = pgBossTuningFromEnv();
  io.out(`pgboss: ${leaves} leaf jobs + 1 aggregate job depending on all of them, as one pg-boss flow (PostgreSQL)`);
  io.out(`  ${describePgBossTuning(tuning)}`);
  const r = await runPgBossFlow(serverUrl, leaves, tuning, deadlineSeconds, (line) => io.out(line));
  if (r.leafRuns !== leaves || r.dependenciesSeen !== leaves)
    throw new Error(
      `pg-boss flow: ${r.leafRuns} leaf runs and ${r.dependenciesSeen} dependencies for ${leaves} leaves`,
    );
  io.out(`  aggregate done in ${r.seconds.toFixed(2)} s (flow committed after ${r.splitSeconds.toFixed(2)} s)`);
  io.out(`  elapsed_s=${r.seconds.toFixed(3)}`);
  io.out(`jobs_per_s=${r.leavesPerSecond.toFixed(0)}`);
  return r;
}

/** The `pgboss` runner of `npm run bench` (`--leaves`, default 10000; `--database-url`; `--timeout`). */
export const pgBossBench: BenchRunner = {
  description:
    'pg-boss 12 flow comparison for fanout: N leaf jobs + 1 aggregate with dependsOn on all (--leaves N, default 10000); last line jobs_per_s=',
  async run(options: BenchOptions, io: BenchIo): Promise<void> {
    const serverUrl = process.env.FW_BENCH_DATABASE_URL || options.databaseUrl;
    await pgBossBenchOn(serverUrl, options.leaves ?? 10_000, io, options.timeout);
  },
};
