/**
 * `npm run bench -- fairness [--leaves N] [--rounds R] [--database-url URL]`: tenant `big` runs a
 * fan-out of N leaves (default 100,000); 2 s later tenant `small` triggers ten 10-leaf runs, one a
 * second. On the stack of `fanout` (manager with outbox, JDBC work-item runner, batch service) in
 * this process, three times per round on fresh scratch databases: `big` alone, both with fair
 * claims, both with the former oldest-first claim. Prints `small`'s time from trigger to PROCESSED
 * (p50, p95, max), `big`'s rate (leaves/s from its trigger to its PROCESSED) and the load average
 * of each run; with several rounds (interleaved, so a change of load touches every kind of run
 * alike) the medians of each kind.
 *
 * Goal: `small`'s p95 under 1 s while `big` runs, `big`'s rate within 10 % of running alone.
 */
import type { Database } from '@fw/core';
import * as os from 'node:os';
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';
import { openFanoutDatabase } from '../fanout-bench';
import { FANOUT_ROOT_TYPE, fanoutTuningFromEnv, startFanoutNode, type FanoutTuning } from '../fanout/fanout-node';

/** Leaves of `big`'s fan-out by default. */
export const DEFAULT_BIG_LEAVES = 100_000;
/** `small`'s runs, their leaves, when the first starts and the gap between two. */
export const SMALL_RUNS = 10;
export const SMALL_LEAVES = 10;
const SMALL_START_MILLIS = 2000;
const SMALL_GAP_MILLIS = 1000;

/** What one run measured. */
export interface FairnessRun {
  label: string;
  bigSeconds: number;
  bigLeavesPerSecond: number;
  /** `small`'s trigger → PROCESSED of each run, in seconds (empty when `small` did not run). */
  smallSeconds: number[];
  /** The machine's 1-minute load average when the run began (0 where the platform has none). */
  loadAverage: number;
}

/** The q-quantile (0..1) of `values` by the nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));

/** One run on `database`: `big`'s fan-out, and `small`'s runs when `withSmall`. */
async function runOnce(
  database: Database,
  label: string,
  bigLeaves: number,
  withSmall: boolean,
  tuning: FanoutTuning,
): Promise<FairnessRun> {
  const node = startFanoutNode(database, tuning);
  const waiting = new Map<string, () => void>();
  const early = new Set<string>();
  node.manager.onProcessCompleted((event) => {
    if (event.processType !== FANOUT_ROOT_TYPE) return;
    const done = waiting.get(event.processId);
    if (done) done();
    else early.add(event.processId);
  });
  /** Triggers a root of `leaves` for `tenant`; resolves with its seconds from trigger to PROCESSED. */
  const trigger = async (tenant: string, leaves: number): Promise<number> => {
    const started = performance.now();
    const created = await node.manager.createProcess(
      { processDefName: FANOUT_ROOT_TYPE, args: { leaves } },
      { tenant },
    );
    const id = created.mutatedEntity.id;
    if (!early.has(id)) await new Promise<void>((resolve) => waiting.set(id, resolve));
    return (performance.now() - started) / 1000;
  };
  try {
    const loadAverage = os.loadavg()[0] ?? 0;
    const big = trigger('big', bigLeaves);
    const small: Array<Promise<number>> = [];
    if (withSmall) {
      await sleep(SMALL_START_MILLIS);
      for (let i = 0; i < SMALL_RUNS; i++) {
        if (i > 0) await sleep(SMALL_GAP_MILLIS);
        small.push(trigger('small', SMALL_LEAVES));
      }
    }
    const bigSeconds = await big;
    const smallSeconds = await Promise.all(small);
    return { label, bigSeconds, bigLeavesPerSecond: bigLeaves / bigSeconds, smallSeconds, loadAverage };
  } finally {
    await node.stop();
  }
}

/** The line of one run. */
export function formatRun(run: FairnessRun, alone: FairnessRun | undefined): string {
  const big = `big ${run.bigSeconds.toFixed(1)} s, ${run.bigLeavesPerSecond.toFixed(0)} leaves/s`;
  const ofAlone =
    alone === undefined || alone === run
      ? ''
      : ` (${((100 * run.bigLeavesPerSecond) / alone.bigLeavesPerSecond).toFixed(0)} % of alone)`;
  const load = `; load ${run.loadAverage.toFixed(1)}`;
  if (run.smallSeconds.length === 0) return `  ${run.label.padEnd(10)} ${big}${load}`;
  const s = run.smallSeconds;
  return `  ${run.label.padEnd(10)} small trigger→PROCESSED p50=${quantile(s, 0.5).toFixed(2)} s p95=${quantile(s, 0.95).toFixed(2)} s max=${Math.max(...s).toFixed(2)} s; ${big}${ofAlone}${load}`;
}

/** The median (the upper one of an even count). */
const median = (values: readonly number[]) => quantile(values, 0.5);

/**
 * The summary of several rounds: per kind of run, the medians of `small`'s p50 and p95 and of
 * `big`'s rate (the latter also against the median of `big` alone).
 */
export function formatSummary(runs: readonly FairnessRun[]): string[] {
  const labels = [...new Set(runs.map((r) => r.label))];
  const rateOf = (label: string) => median(runs.filter((r) => r.label === label).map((r) => r.bigLeavesPerSecond));
  const alone = rateOf(labels[0] ?? '');
  return labels.map((label) => {
    const of = runs.filter((r) => r.label === label);
    const rate = rateOf(label);
    const big = `big ${rate.toFixed(0)} leaves/s${label === labels[0] ? '' : ` (${((100 * rate) / alone).toFixed(0)} % of alone)`}`;
    const loads = of.map((r) => r.loadAverage);
    const load = `load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`;
    if (of.every((r) => r.smallSeconds.length === 0))
      return `  ${label.padEnd(10)} median of ${of.length}: ${big}; ${load}`;
    const p50 = median(of.map((r) => quantile(r.smallSeconds, 0.5)));
    const p95 = median(of.map((r) => quantile(r.smallSeconds, 0.95)));
    return `  ${label.padEnd(10)} median of ${of.length}: small p50=${p50.toFixed(2)} s p95=${p95.toFixed(2)} s; ${big}; ${load}`;
  });
}

/** Runs `rounds` rounds of the three runs, each on a fresh scratch database of `serverUrl`. */
export async function fairnessBenchOn(
  serverUrl: string,
  bigLeaves: number,
  io: BenchIo,
  rounds = 1,
): Promise<FairnessRun[]> {
  process.env.FW_LOG_LEVEL ??= 'error';
  const base = fanoutTuningFromEnv(0);
  io.out(
    `fairness: tenant big fans out ${bigLeaves} leaves; from 2 s tenant small triggers ${SMALL_RUNS} runs of ${SMALL_LEAVES} leaves, one a second (PostgreSQL, one worker host)`,
  );
  io.out(`  batch=${base.batch} lanes=${base.lanes} pool=${base.pool} rounds=${rounds} cores=${os.cpus().length}`);
  const plan: Array<{ label: string; withSmall: boolean; fair: boolean }> = [
    { label: 'big alone', withSmall: false, fair: true },
    { label: 'fair on', withSmall: true, fair: true },
    { label: 'fair off', withSmall: true, fair: false },
  ];
  const runs: FairnessRun[] = [];
  for (let round = 0; round < rounds; round++) {
    if (rounds > 1) io.out(` round ${round + 1}/${rounds}`);
    let alone: FairnessRun | undefined;
    for (const step of plan) {
      const scratch = await openFanoutDatabase(serverUrl, base.pool);
      try {
        const run = await runOnce(scratch.database, step.label, bigLeaves, step.withSmall, {
          ...base,
          fair: step.fair,
        });
        alone ??= run;
        runs.push(run);
        io.out(formatRun(run, alone));
      } finally {
        await scratch.drop();
      }
    }
  }
  if (rounds > 1) for (const line of [' medians', ...formatSummary(runs)]) io.out(line);
  return runs;
}

/** The `fairness` runner of `npm run bench` (`--leaves`, default 100000; `--rounds`, default 1; `--database-url`). */
export const fairnessBench: BenchRunner = {
  description: `tenant big fans out N leaves (--leaves N, default ${DEFAULT_BIG_LEAVES}) while tenant small triggers ${SMALL_RUNS} small runs: small's trigger→PROCESSED p50/p95/max and big's rate, fair claims on and off (--rounds R interleaved, with medians)`,
  async run(options: BenchOptions, io: BenchIo): Promise<void> {
    await fairnessBenchOn(
      process.env.FW_BENCH_DATABASE_URL || options.databaseUrl,
      options.leaves ?? DEFAULT_BIG_LEAVES,
      io,
      options.rounds ?? 1,
    );
  },
};
