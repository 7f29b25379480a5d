/**
 * The `history` bench's retention pass beside a fan-out, paced and unpaced: rounds of fan-outs,
 * one alone and one beside a sweep at each duty cycle compared, in an order that turns every
 * round (a machine shared with others drifts from minute to minute, so each ratio compares runs
 * of the same round). A sweep is stopped when its fan-out ends and the next one continues where
 * it left off (the expired roots are read oldest first each time).
 *
 * @example
 * const rounds = await pacingRounds(database, { leaves: 20_000, rounds: 3, dutyCycles: [1, 0.25], fanout }, io);
 * printPacing(rounds, io);   // per duty cycle: the fan-out's rate as a share of the same round's alone, rows/s removed
 */
import type { Database } from '@fw/core';
import {
  DEFAULT_SWEEP_DUTY_CYCLE,
  makeHistoryRetentionStore,
  makeHistorySweeper,
  retentionSettingsFromEnv,
  totalRows,
  type SweepPass,
} from '@fw/process-management';
import type { BenchIo } from '../bench-types';
import type { FanoutResult } from '../fanout/fanout-result';

/** Duty cycles compared by default: unpaced, one half, the sweeper's default. */
export const DEFAULT_COMPARED_DUTY_CYCLES: readonly number[] = [1, 0.5, DEFAULT_SWEEP_DUTY_CYCLE];

/** A fan-out of `leaves` labelled for the output, as the bench runs it. */
export type FanoutRun = (database: Database, leaves: number, label: string, io: BenchIo) => Promise<FanoutResult>;

export interface PacingOptions {
  leaves: number;
  rounds: number;
  dutyCycles: readonly number[];
  fanout: FanoutRun;
}

/** One fan-out of a round: alone (dutyCycle undefined) or beside a sweep at `dutyCycle`. */
export interface PacingRun {
  round: number;
  dutyCycle: number | undefined;
  leavesPerSecond: number;
  /** Beside a sweep: what it removed while the fan-out ran. */
  sweep?: { rows: number; seconds: number; pausedSeconds: number; transactions: number };
}

const always = { acquire: async () => true, release: async () => undefined, isHeld: () => true };

/** A fan-out with a sweep at `dutyCycle` running beside it; the sweep is stopped when the fan-out ends. */
async function besideSweep(
  database: Database,
  dutyCycle: number,
  options: PacingOptions,
  io: BenchIo,
): Promise<{ fanout: FanoutResult; pass: SweepPass }> {
  const sweeper = makeHistorySweeper({
    store: makeHistoryRetentionStore(database),
    lease: always,
    settings: retentionSettingsFromEnv({}),
    definitions: async () => [],
    dutyCycle,
  });
  const passing = sweeper.sweepOnce();
  const fanout = await options.fanout(database, options.leaves, `beside a sweep at duty cycle ${dutyCycle}`, io);
  await sweeper.stop();
  return { fanout, pass: await passing };
}

/** The runs of one round in a turned order: round r starts at variant r (mod their number). */
function roundOrder(round: number, dutyCycles: readonly number[]): Array<number | undefined> {
  const variants: Array<number | undefined> = [undefined, ...dutyCycles];
  const shift = round % variants.length;
  return [...variants.slice(shift), ...variants.slice(0, shift)];
}

/** Runs the rounds; each run is printed as it ends. */
export async function pacingRounds(database: Database, options: PacingOptions, io: BenchIo): Promise<PacingRun[]> {
  const runs: PacingRun[] = [];
  for (let round = 0; round < options.rounds; round++) {
    io.out(`  round ${round + 1} of ${options.rounds}`);
    for (const dutyCycle of roundOrder(round, options.dutyCycles)) {
      if (dutyCycle === undefined) {
        const alone = await options.fanout(database, options.leaves, 'alone', io);
        runs.push({ round, dutyCycle, leavesPerSecond: alone.leavesPerSecond });
        continue;
      }
      const { fanout, pass } = await besideSweep(database, dutyCycle, options, io);
      const sweep = {
        rows: totalRows(pass.removed),
        seconds: pass.millis / 1000,
        pausedSeconds: pass.pausedMillis / 1000,
        transactions: pass.transactions,
      };
      io.out(
        `    sweep at duty cycle ${dutyCycle}: ${sweep.rows.toLocaleString('en')} rows in ${sweep.seconds.toFixed(1)} s = ${(sweep.rows / sweep.seconds).toFixed(0)} rows/s, ${sweep.transactions} transactions, paused ${sweep.pausedSeconds.toFixed(1)} s`,
      );
      runs.push({ round, dutyCycle, leavesPerSecond: fanout.leavesPerSecond, sweep });
    }
  }
  return runs;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Per duty cycle: the fan-out's rate as a share of the same round's fan-out alone (each round, median) and rows/s removed. */
export function printPacing(runs: readonly PacingRun[], dutyCycles: readonly number[], io: BenchIo): void {
  const alone = new Map(runs.filter((r) => r.dutyCycle === undefined).map((r) => [r.round, r.leavesPerSecond]));
  io.out(`  fan-out alone: ${[...alone.values()].map((v) => v.toFixed(0)).join(' / ')} leaves/s (rounds in order)`);
  for (const dutyCycle of dutyCycles) {
    const mine = runs.filter((r) => r.dutyCycle === dutyCycle);
    const shares = mine.map((r) => (100 * r.leavesPerSecond) / (alone.get(r.round) ?? Number.NaN));
    const rows = mine.reduce((n, r) => n + (r.sweep?.rows ?? 0), 0);
    const seconds = mine.reduce((n, r) => n + (r.sweep?.seconds ?? 0), 0);
    io.out(
      `  duty cycle ${dutyCycle}: fan-out at ${shares.map((s) => `${s.toFixed(0)} %`).join(' / ')} of alone (median ${median(shares).toFixed(0)} %); ${mine.map((r) => r.leavesPerSecond.toFixed(0)).join(' / ')} leaves/s; sweep ${(rows / seconds).toFixed(0)} rows/s over ${seconds.toFixed(0)} s`,
    );
  }
}

/** `FW_HISTORY_DUTY_CYCLES` (comma-separated shares, default 1, 0.5 and the sweeper's default) for trials. */
export function comparedDutyCycles(raw: string | undefined): readonly number[] {
  if (raw === undefined || raw.trim() === '') return DEFAULT_COMPARED_DUTY_CYCLES;
  const values = raw.split(',').map((v) => Number(v.trim()));
  if (values.some((v) => !(v > 0 && v <= 1)))
    throw new Error(`FW_HISTORY_DUTY_CYCLES must be shares above 0 and at most 1, comma-separated, got '${raw}'`);
  return values;
}
