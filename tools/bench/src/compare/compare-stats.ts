/**
 * The arithmetic of `npm run bench -- compare`: medians of the rounds, fanout's ratio to each other
 * series, each runner's peak RSS, and the lines that print them.
 *
 * @example
 * const s = summarizeCompare([{ round: 1, runner: 'fanout', rates: { fanout: 3000 }, seconds: 3.3, splitSeconds: 1, maxRssBytes: 3e8 }, …]);
 * s.ratios; // [{ against: 'bullmq', ratio: 0.9 }, …]
 */

/** The runners of the comparison, in the order of the first round. */
export const COMPARE_RUNNERS = ['fanout', 'bullmq', 'graphile'] as const;
export type CompareRunner = (typeof COMPARE_RUNNERS)[number];

/** What one runner measured in one round (a runner may report several series, e.g. graphile's two fan-ins). */
export interface CompareRecord {
  round: number;
  runner: CompareRunner;
  /** Leaves per second by series name. */
  rates: Readonly<Record<string, number>>;
  seconds: number;
  splitSeconds: number;
  /** Peak resident set of the runner's process (`process.resourceUsage().maxRSS`). */
  maxRssBytes: number;
}

export interface CompareSummary {
  /** Each series with its rate per round (in round order) and the median. */
  series: Array<{ name: string; rates: number[]; median: number }>;
  /** fanout's median divided by each other series' median. */
  ratios: Array<{ against: string; ratio: number }>;
  /** Largest peak RSS of each runner over its rounds. */
  peakRss: Array<{ runner: CompareRunner; bytes: number }>;
}

/** The median (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The order of the runners in round `round` (1-based): rotated by one each round, so none always runs first. */
export function roundOrder(round: number): CompareRunner[] {
  const shift = (round - 1) % COMPARE_RUNNERS.length;
  return [...COMPARE_RUNNERS.slice(shift), ...COMPARE_RUNNERS.slice(0, shift)];
}

/** Medians, ratios and peak RSS of the records of every round. */
export function summarizeCompare(records: readonly CompareRecord[]): CompareSummary {
  const byRound = [...records].sort((a, b) => a.round - b.round);
  const rates = new Map<string, number[]>();
  for (const r of byRound)
    for (const [name, rate] of Object.entries(r.rates)) rates.set(name, [...(rates.get(name) ?? []), rate]);
  const series = [...rates.entries()].map(([name, values]) => ({ name, rates: values, median: median(values) }));
  const fanout = series.find((s) => s.name === 'fanout');
  const ratios =
    fanout === undefined
      ? []
      : series.filter((s) => s.name !== 'fanout').map((s) => ({ against: s.name, ratio: fanout.median / s.median }));
  const peakRss = COMPARE_RUNNERS.filter((runner) => records.some((r) => r.runner === runner)).map((runner) => ({
    runner,
    bytes: Math.max(...records.filter((r) => r.runner === runner).map((r) => r.maxRssBytes)),
  }));
  return { series, ratios, peakRss };
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** The closing lines: one per series (rounds and median), the ratios, the peak RSS. */
export function formatCompareSummary(s: CompareSummary): string[] {
  const width = Math.max(...s.series.map((x) => x.name.length));
  return [
    ...s.series.map(
      (x) =>
        `  ${x.name.padEnd(width)}  ${x.rates.map((r) => r.toFixed(0).padStart(6)).join(' ')}   median ${x.median.toFixed(0)} leaves/s`,
    ),
    `  ratios (fanout median / other median): ${s.ratios.map((r) => `${r.against} ${r.ratio.toFixed(2)}`).join(', ')}`,
    `  peak RSS: ${s.peakRss.map((p) => `${p.runner} ${mb(p.bytes)}`).join(', ')}`,
  ];
}
