/**
 * The peers of `compare`, each measured the same way inside its own child process: the leaves per
 * second of each series it runs, and each series' cost per leaf (CPU of this process and of the
 * rest of the machine; statements and transactions for the PostgreSQL peers; Redis commands for
 * BullMQ on Redis). A peer that runs out of time is reported as not finished, not as a failure.
 *
 * @example
 * const measured = await measurePeer('pgboss', { leaves: 2000, databaseUrl, redisUrl, timeoutSeconds: 600 }, io);
 * measured.rates.pgboss; measured.costs?.pgboss.statements;
 */
import { bullmqBenchOn, bullmqPostgresBenchOn } from '../bullmq/bullmq-flow-bench';
import type { BenchIo } from '../bench-types';
import type { CpuSplit } from '../cpu/cpu-split';
import { DidNotFinishError } from '../deadline/run-deadline';
import type { LeafCost } from '../fanout/leaf-cost';
import { graphileBenchOn } from '../graphile/graphile-fanout-bench';
import { pgBossBenchOn } from '../pgboss/pgboss-flow-bench';
import type { ChildMeasured, CompareRunner, SeriesCost } from './compare-stats';

/** The runners other than fanout. */
export type PeerRunner = Exclude<CompareRunner, 'fanout'>;

export interface PeerSettings {
  leaves: number;
  databaseUrl: string;
  redisUrl: string;
  /** The longest one run may take (no bound when undefined). */
  timeoutSeconds?: number;
}

/** A series' cost per leaf from a run's CPU split and, where measured, its database or Redis figures. */
export function seriesCostOf(
  leaves: number,
  cpu: Pick<CpuSplit, 'processSeconds' | 'restSeconds'> | undefined,
  measured: { leafCost?: Pick<LeafCost, 'statements' | 'transactions'>; redisCommandsPerLeaf?: number } = {},
): SeriesCost {
  const cost: SeriesCost = {};
  if (cpu) cost.nodeCpuMs = (cpu.processSeconds * 1000) / leaves;
  if (cpu?.restSeconds !== undefined) cost.restCpuMs = (cpu.restSeconds * 1000) / leaves;
  if (measured.leafCost?.statements !== undefined) cost.statements = measured.leafCost.statements;
  if (measured.leafCost) cost.transactions = measured.leafCost.transactions;
  if (measured.redisCommandsPerLeaf !== undefined) cost.redisCommands = measured.redisCommandsPerLeaf;
  return cost;
}

/** A run of `series` that ran into its bound. */
function unfinished(series: string, error: DidNotFinishError, io: BenchIo): ChildMeasured {
  io.out(`${series}: ${error.message}`);
  return {
    rates: {},
    seconds: error.withinSeconds,
    splitSeconds: Number.NaN,
    unfinished: { [series]: error.withinSeconds },
  };
}

async function measureGraphile(s: PeerSettings, io: BenchIo): Promise<ChildMeasured> {
  const { counted, bare, batched } = await graphileBenchOn(s.databaseUrl, s.leaves, io);
  return {
    rates: {
      'graphile-counted': counted.leavesPerSecond,
      'graphile-bare': bare.leavesPerSecond,
      'graphile-batched': batched.leavesPerSecond,
    },
    seconds: counted.seconds,
    splitSeconds: counted.splitSeconds,
    costs: {
      'graphile-counted': seriesCostOf(s.leaves, counted.cpu, counted),
      'graphile-bare': seriesCostOf(s.leaves, bare.cpu, bare),
      'graphile-batched': seriesCostOf(s.leaves, batched.cpu, batched),
    },
  };
}

/** The one-series peers: their run, reduced to rate, times and cost. */
async function runSingle(
  runner: Exclude<PeerRunner, 'graphile'>,
  s: PeerSettings,
  io: BenchIo,
): Promise<{ leavesPerSecond: number; seconds: number; splitSeconds: number; cost: SeriesCost }> {
  switch (runner) {
    case 'bullmq': {
      const r = await bullmqBenchOn(s.redisUrl, s.leaves, io, s.timeoutSeconds);
      return { ...r, cost: seriesCostOf(s.leaves, r.cpu, r) };
    }
    case 'bullmq-pg': {
      const r = await bullmqPostgresBenchOn(s.databaseUrl, s.leaves, io, s.timeoutSeconds);
      return { ...r, cost: seriesCostOf(s.leaves, r.cpu, r) };
    }
    case 'pgboss': {
      const r = await pgBossBenchOn(s.databaseUrl, s.leaves, io, s.timeoutSeconds);
      return { ...r, cost: seriesCostOf(s.leaves, r.cpu, r) };
    }
  }
}

/** Runs `runner` once and returns what it measured (a run past its bound as not finished). */
export async function measurePeer(runner: PeerRunner, s: PeerSettings, io: BenchIo): Promise<ChildMeasured> {
  if (runner === 'graphile') return measureGraphile(s, io);
  try {
    const r = await runSingle(runner, s, io);
    return {
      rates: { [runner]: r.leavesPerSecond },
      seconds: r.seconds,
      splitSeconds: r.splitSeconds,
      costs: { [runner]: r.cost },
    };
  } catch (err) {
    if (err instanceof DidNotFinishError) return unfinished(runner, err, io);
    throw err;
  }
}
