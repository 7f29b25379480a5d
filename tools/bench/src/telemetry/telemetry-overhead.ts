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
  /** Busy CPU seconds of the rest of the machine (the database server) during the run, when measured. */
  restCpuSeconds?: number;
  /** The round it belongs to (its off and on runs ran one after the other), when known. */
  round?: number;
}

/** The runs of one side (telemetry off, or on). */
export interface TelemetrySide {
  median: number;
  rates: number[];
  cpuMillisPerLeaf: number;
  /**
   * The median of node CPU seconds per busy CPU second of the rest of the machine; undefined
   * unless every run measured both. The database does the same work per leaf on both sides, so
   * this ratio moves with what telemetry adds to node, not with the machine's speed, which
   * drifts by more than the limit between runs minutes apart (both sides slow down together).
   */
  nodeCpuPerRestCpu: number | undefined;
}

export interface TelemetryOverhead {
  off: TelemetrySide;
  on: TelemetrySide;
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
  /** 100 × (on / off − 1) of {@link TelemetrySide.nodeCpuPerRestCpu}; undefined when a side lacks it. */
  cpuAddedPercentOfRest: number | undefined;
  withinLimit: boolean;
}

function side(rounds: readonly TelemetryRound[], telemetry: boolean): TelemetrySide {
  const mine = rounds.filter((r) => r.telemetry === telemetry);
  const rates = mine.map((r) => r.leavesPerSecond);
  const cpu = mine.flatMap((r) => (r.nodeCpuSeconds === undefined ? [] : [(1000 * r.nodeCpuSeconds) / r.leaves]));
  const ofRest = mine.flatMap((r) =>
    r.nodeCpuSeconds === undefined || !r.restCpuSeconds ? [] : [r.nodeCpuSeconds / r.restCpuSeconds],
  );
  return {
    median: median(rates),
    rates,
    cpuMillisPerLeaf: median(cpu),
    nodeCpuPerRestCpu: ofRest.length === mine.length && mine.length > 0 ? median(ofRest) : undefined,
  };
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
    cpuAddedPercentOfRest:
      on.nodeCpuPerRestCpu === undefined || off.nodeCpuPerRestCpu === undefined
        ? undefined
        : 100 * (on.nodeCpuPerRestCpu / off.nodeCpuPerRestCpu - 1),
    withinLimit: lossPercent <= TELEMETRY_LOSS_LIMIT_PERCENT,
  };
}

/** The summary lines for a run that turned `parts` on; the last is `telemetry_loss_pct=<number>`. */
export function formatTelemetryOverhead(s: TelemetryOverhead, parts: TelemetryParts = 'both'): string[] {
  const rates = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;
  return [
    `  off: ${rates(s.off.rates)} leaves/s → median ${s.off.median.toFixed(0)}; node CPU ${s.off.cpuMillisPerLeaf.toFixed(3)} ms per leaf`,
    `  on:  ${rates(s.on.rates)} leaves/s → median ${s.on.median.toFixed(0)}; node CPU ${s.on.cpuMillisPerLeaf.toFixed(3)} ms per leaf (${s.cpuAddedPercent >= 0 ? '+' : ''}${s.cpuAddedPercent.toFixed(1)} %)`,
    ...(s.cpuAddedPercentOfRest === undefined
      ? []
      : [
          `  node CPU per CPU second of the rest of the machine (steadier than either alone): off ${s.off.nodeCpuPerRestCpu!.toFixed(3)}, on ${s.on.nodeCpuPerRestCpu!.toFixed(3)} (${signed(s.cpuAddedPercentOfRest)} %)`,
        ]),
    ...(s.pairedLossMedian === undefined
      ? []
      : [
          `  loss within each round: ${s.pairedLossPercents.map((x) => x.toFixed(1)).join(', ')} % → median ${s.pairedLossMedian.toFixed(1)} %`,
        ]),
    `  loss with ${TELEMETRY_PARTS_NAMES[parts]} on: ${s.lossPercent.toFixed(1)} % of leaves/s (limit ${TELEMETRY_LOSS_LIMIT_PERCENT} %): ${s.withinLimit ? 'within' : 'OVER'} the limit`,
    `telemetry_loss_pct=${s.lossPercent.toFixed(1)}`,
  ];
}
