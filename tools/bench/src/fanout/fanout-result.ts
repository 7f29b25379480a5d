/**
 * The figures of one fan-out run, computed the same way in the single-process mode and with
 * worker processes.
 *
 * @example
 * const result = fanoutResultOf({ leaves: 10_000, seconds: 4.6, splitSeconds: 1.7, rootState: 'PROCESSED', outboxCommands: 10_001 });
 * result.leavesPerSecond; // ≈ 2174
 */
import type { CpuSplit } from '../cpu/cpu-split';
import type { LeafCost } from './leaf-cost';
import { FANOUT_SPLIT_BATCH } from './fanout-node';

export interface FanoutResult {
  leaves: number;
  /** From the root's creation to its end (single process: its completion listener; workers: PROCESSED seen in the database). */
  seconds: number;
  /** From the root's creation to the end of its splitter. */
  splitSeconds: number;
  leavesPerSecond: number;
  transitionsPerSecond: number;
  rootState: string;
  outboxCommands: number;
  /**
   * From the moment all but the last batch of leaves had run to the root's end: the last batch,
   * the last reports and the aggregation (single-process mode only).
   */
  tailSeconds?: number;
  /**
   * The tail in parts, seconds from its start: when the last leaf's step ended, and when the
   * aggregator's step ended (the root's PROCESSED is at `tailSeconds`).
   */
  tailParts?: { lastLeafSeconds: number; aggregatedSeconds: number };
  /** Where the run's CPU went (single-process mode only). */
  cpu?: CpuSplit;
  /** What each leaf cost PostgreSQL (single-process mode only). */
  leafCost?: LeafCost;
}

/** Derives the rates of a run from what was measured and verified. */
export function fanoutResultOf(
  run: Pick<
    FanoutResult,
    'leaves' | 'seconds' | 'splitSeconds' | 'rootState' | 'outboxCommands' | 'cpu' | 'tailSeconds' | 'tailParts'
  >,
): FanoutResult {
  // Leaves: create → EXECUTING → PROCESSED; root: SPLIT_PENDING, one per split batch, one per child
  // report, AGGREGATION_PENDING, PROCESSED.
  const transitions = 2 * run.leaves + 1 + Math.ceil(run.leaves / FANOUT_SPLIT_BATCH) + run.leaves + 2;
  return { ...run, leavesPerSecond: run.leaves / run.seconds, transitionsPerSecond: transitions / run.seconds };
}
