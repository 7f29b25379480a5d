/**
 * The arithmetic of `npm run bench -- telemetry`: medians of the rounds with telemetry off and on,
 * the loss of leaves per second and the added CPU per leaf, and the lines that print them.
 *
 * @example
 * const s = summarizeTelemetryOverhead([{ telemetry: false, leavesPerSecond: 5000, nodeCpuSeconds: 2, leaves: 10_000 }, …]);
 * s.lossPercent; // e.g. 3.1
 */
import { median } from '../compare/compare-stats';
import { TELEMETRY_PARTS_NAMES, type TelemetryParts } from './fanout-telemetry';

/** The most leaves per second telemetry may cost, in percent of the run without it. */
export const TELEMETRY_LOSS_LIMIT_PERCENT = 5;

/** One fan-out run of the comparison. */
export interface TelemetryRound {
  telemetry: boolean;
  leaves: number;
  leavesPerSecond: number;
  /** CPU seconds of the node process during the run (undefined: not measured). */
  nodeCpuSeconds: number | undefined;
  /** The round it belongs to (its off and on runs ran one after the other), when known. */
  round?: number;
}

export interface TelemetryOverhead {
  off: { median: number; rates: number[]; cpuMillisPerLeaf: number };
  on: { median: number; rates: number[]; cpuMillisPerLeaf: number };
  /** 100 × (1 − on / off) of the medians; negative when the runs with telemetry were faster. */
  lossPercent: number;
  /**
   * 100 × (1 − on / off) within each round that has both runs, in round order: the machine's speed
   * drifts over minutes, and the two runs of a round share most of it.
   */
  pairedLossPercents: number[];
  /** The median of {@link pairedLossPercents}; undefined without a complete round. */
  pairedLossMedian: number | undefined;
  /** 100 × (on / off − 1) of the median node CPU per leaf. */
  cpuAddedPercent: number;
  withinLimit: boolean;
}

function side(rounds: readonly TelemetryRound[], telemetry: boolean): TelemetryOverhead['off'] {
  const mine = rounds.filter((r) => r.telemetry === telemetry);
  const rates = mine.map((r) => r.leavesPerSecond);
  const cpu = mine.flatMap((r) => (r.nodeCpuSeconds === undefined ? [] : [(1000 * r.nodeCpuSeconds) / r.leaves]));
  return { median: median(rates), rates, cpuMillisPerLeaf: median(cpu) };
}

function pairedLosses(rounds: readonly TelemetryRound[]): number[] {
  const numbers = [...new Set(rounds.flatMap((r) => (r.round === undefined ? [] : [r.round])))].sort((a, b) => a - b);
  return numbers.flatMap((n) => {
    const off = rounds.find((r) => r.round === n && !r.telemetry);
    const on = rounds.find((r) => r.round === n && r.telemetry);
    return off && on ? [100 * (1 - on.leavesPerSecond / off.leavesPerSecond)] : [];
  });
}

/** Medians, loss and added CPU of `rounds` (both sides must have at least one run). */
export function summarizeTelemetryOverhead(rounds: readonly TelemetryRound[]): TelemetryOverhead {
  const off = side(rounds, false);
  const on = side(rounds, true);
  if (off.rates.length === 0 || on.rates.length === 0)
    throw new Error('telemetry overhead needs runs with telemetry off and on');
  const lossPercent = 100 * (1 - on.median / off.median);
  const pairedLossPercents = pairedLosses(rounds);
  return {
    off,
    on,
    lossPercent,
    pairedLossPercents,
    pairedLossMedian: pairedLossPercents.length === 0 ? undefined : median(pairedLossPercents),
    cpuAddedPercent: 100 * (on.cpuMillisPerLeaf / off.cpuMillisPerLeaf - 1),
    withinLimit: lossPercent <= TELEMETRY_LOSS_LIMIT_PERCENT,
  };
}

/** The summary lines for a run that turned `parts` on; the last is `telemetry_loss_pct=<number>`. */
export function formatTelemetryOverhead(s: TelemetryOverhead, parts: TelemetryParts = 'both'): string[] {
  const rates = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  return [
    `  off: ${rates(s.off.rates)} leaves/s → median ${s.off.median.toFixed(0)}; node CPU ${s.off.cpuMillisPerLeaf.toFixed(3)} ms per leaf`,
    `  on:  ${rates(s.on.rates)} leaves/s → median ${s.on.median.toFixed(0)}; node CPU ${s.on.cpuMillisPerLeaf.toFixed(3)} ms per leaf (${s.cpuAddedPercent >= 0 ? '+' : ''}${s.cpuAddedPercent.toFixed(1)} %)`,
    ...(s.pairedLossMedian === undefined
      ? []
      : [
          `  loss within each round: ${s.pairedLossPercents.map((x) => x.toFixed(1)).join(', ')} % → median ${s.pairedLossMedian.toFixed(1)} %`,
        ]),
    `  loss with ${TELEMETRY_PARTS_NAMES[parts]} on: ${s.lossPercent.toFixed(1)} % of leaves/s (limit ${TELEMETRY_LOSS_LIMIT_PERCENT} %): ${s.withinLimit ? 'within' : 'OVER'} the limit`,
    `telemetry_loss_pct=${s.lossPercent.toFixed(1)}`,
  ];
}
