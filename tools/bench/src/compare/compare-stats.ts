/**
 * The arithmetic of `npm run bench -- compare`: medians of the rounds, fanout's ratio to each other
 * series, each runner's peak RSS, each series' cost per leaf (CPU of the runner's node process and
 * of the rest of the machine, statements, transactions, Redis commands), the runs that did not
 * finish in time, and the lines that print them.
 *
 * @example
 * const s = summarizeCompare([{ round: 1, runner: 'fanout', rates: { fanout: 3000 }, seconds: 3.3, splitSeconds: 1, maxRssBytes: 3e8 }, …]);
 * s.ratios; // [{ against: 'bullmq', ratio: 0.9 }, …]
 */

/** The runners of the comparison, in the order of the first round. */
export const COMPARE_RUNNERS = ['fanout', 'bullmq', 'bullmq-pg', 'pgboss', 'graphile'] as const;
export type CompareRunner = (typeof COMPARE_RUNNERS)[number];

/**
 * What one series cost per leaf. CPU is from `process.cpuUsage` of the runner's process and the
 * machine's other busy time in `/proc/stat` (the database server or Redis, and anything else
 * running); statements are the queries the runner's process sent (`pg.Client#query` calls);
 * transactions are `xact_commit + xact_rollback` of its scratch database; Redis commands are the
 * `INFO commandstats` calls of the whole server. A figure that cannot be measured is absent.
 */
export interface SeriesCost {
  nodeCpuMs?: number;
  restCpuMs?: number;
  statements?: number;
  transactions?: number;
  redisCommands?: number;
}

/** What a runner's child process measured in one run. */
export interface ChildMeasured {
  /** Leaves per second by series name (series that finished). */
  rates: Record<string, number>;
  /** Of the run (the bound when it did not finish). */
  seconds: number;
  /** Until the leaves were all stored (NaN when it did not finish). */
  splitSeconds: number;
  /** CPU seconds of the runner's process and of the rest of the machine during the run (fanout only). */
  cpu?: { processSeconds: number; restSeconds: number | undefined };
  /** Cost per leaf by series name. */
  costs?: Record<string, SeriesCost>;
  /** Series that did not finish, by name: the bound in seconds they ran into. */
  unfinished?: Record<string, number>;
  /** Runners whose process ended without a result, by name: how it ended (e.g. `SIGABRT`, V8's end when its heap is full). */
  failed?: Record<string, string>;
}

/** What one runner measured in one round (a runner may report several series, e.g. graphile's fan-ins). */
export interface CompareRecord extends ChildMeasured {
  round: number;
  runner: CompareRunner;
  /** Peak resident set of the runner's process (`process.resourceUsage().maxRSS`; 0 when it was killed). */
  maxRssBytes: number;
}

/** The columns of the cost table, in print order. */
export const COST_COLUMNS = ['nodeCpuMs', 'restCpuMs', 'statements', 'transactions', 'redisCommands'] as const;

export interface SeriesSummary {
  name: string;
  /** Rates of the rounds it finished, in round order. */
  rates: number[];
  /** Median of `rates` (NaN when it finished no round). */
  median: number;
  /** Rounds it did not finish, with the bound of each. */
  unfinished: Array<{ round: number; withinSeconds: number }>;
  /** Rounds whose process ended without a result, with how it ended. */
  failed: Array<{ round: number; reason: string }>;
  /** Median over its finished rounds of each cost per leaf it reported. */
  cost: SeriesCost;
}

export interface CompareSummary {
  series: SeriesSummary[];
  /** fanout's median divided by each other series' median (NaN when that series finished no round). */
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
export function roundOrder(round: number, runners: readonly CompareRunner[] = COMPARE_RUNNERS): CompareRunner[] {
  const shift = (round - 1) % runners.length;
  return [...runners.slice(shift), ...runners.slice(0, shift)];
}

/**
 * The runners `--runners` names, in the order of {@link COMPARE_RUNNERS}; all of them when none are
 * named. An unknown name, or a list without `fanout` (every ratio is fanout's), is an error
 * saying what is accepted.
 */
export function compareRunnersOf(names: readonly string[] | undefined): CompareRunner[] {
  if (names === undefined) return [...COMPARE_RUNNERS];
  const unknown = names.filter((n) => !(COMPARE_RUNNERS as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new RangeError(
      `--runners: unknown runner(s) ${unknown.join(', ')}; choose from ${COMPARE_RUNNERS.join(', ')}`,
    );
  if (!names.includes('fanout')) throw new RangeError("--runners must include fanout (the ratios are fanout's)");
  return COMPARE_RUNNERS.filter((r) => names.includes(r));
}

/** The series of the records, in the order they first appear (by round), with their rounds gathered. */
function gatherSeries(records: readonly CompareRecord[]): SeriesSummary[] {
  const byRound = [...records].sort((a, b) => a.round - b.round);
  const series = new Map<
    string,
    { rates: number[]; unfinished: SeriesSummary['unfinished']; failed: SeriesSummary['failed']; costs: SeriesCost[] }
  >();
  const entry = (name: string) => {
    if (!series.has(name)) series.set(name, { rates: [], unfinished: [], failed: [], costs: [] });
    return series.get(name)!;
  };
  for (const r of byRound) {
    for (const [name, rate] of Object.entries(r.rates)) {
      entry(name).rates.push(rate);
      if (r.costs?.[name]) entry(name).costs.push(r.costs[name]);
    }
    for (const [name, withinSeconds] of Object.entries(r.unfinished ?? {}))
      entry(name).unfinished.push({ round: r.round, withinSeconds });
    for (const [name, reason] of Object.entries(r.failed ?? {})) entry(name).failed.push({ round: r.round, reason });
  }
  return [...series.entries()].map(([name, s]) => ({
    name,
    rates: s.rates,
    median: median(s.rates),
    unfinished: s.unfinished,
    failed: s.failed,
    cost: medianCost(s.costs),
  }));
}

/** The median of each cost column over the rounds that reported it; columns no round reported stay absent. */
export function medianCost(costs: readonly SeriesCost[]): SeriesCost {
  const cost: SeriesCost = {};
  for (const column of COST_COLUMNS) {
    const values = costs.map((c) => c[column]).filter((v): v is number => v !== undefined && Number.isFinite(v));
    if (values.length > 0) cost[column] = median(values);
  }
  return cost;
}

/** Medians, ratios, peak RSS, costs and unfinished runs of the records of every round. */
export function summarizeCompare(records: readonly CompareRecord[]): CompareSummary {
  const series = gatherSeries(records);
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

/** `did not finish within 600 s in rounds 2, 3`. */
function unfinishedText(x: SeriesSummary): string {
  if (x.unfinished.length === 0) return '';
  const bounds = [...new Set(x.unfinished.map((u) => u.withinSeconds))].join(' / ');
  const rounds = x.unfinished.map((u) => u.round).join(', ');
  return `did not finish within ${bounds} s in round${x.unfinished.length > 1 ? 's' : ''} ${rounds}`;
}

/** `ended without a result in round 1 (SIGABRT), round 2 (SIGABRT)`. */
function failedText(x: SeriesSummary): string {
  if (x.failed.length === 0) return '';
  return `ended without a result in ${x.failed.map((f) => `round ${f.round} (${f.reason})`).join(', ')}`;
}

/** One series: its rates per finished round, the median, and the rounds it did not finish. */
function seriesLine(x: SeriesSummary, width: number): string {
  const median = x.rates.length > 0 ? `median ${x.median.toFixed(0)} leaves/s` : 'median n/a';
  const notes = [unfinishedText(x), failedText(x)].filter((t) => t !== '');
  return `  ${x.name.padEnd(width)}  ${x.rates.map((r) => r.toFixed(0).padStart(6)).join(' ')}   ${median}${notes.map((n) => `; ${n}`).join('')}`;
}

const COST_HEADERS: Record<(typeof COST_COLUMNS)[number], string> = {
  nodeCpuMs: 'node CPU ms',
  restCpuMs: 'rest CPU ms',
  statements: 'statements',
  transactions: 'transactions',
  redisCommands: 'Redis commands',
};

/** The cost table: one row per series, `n/a` where a figure was not measured. */
export function formatCostTable(series: readonly SeriesSummary[]): string[] {
  const width = Math.max(6, ...series.map((x) => x.name.length));
  const cell = (column: (typeof COST_COLUMNS)[number], value: number | undefined) =>
    (value === undefined ? 'n/a' : value.toFixed(column.endsWith('CpuMs') ? 3 : 2)).padStart(
      COST_HEADERS[column].length,
    );
  return [
    `  per leaf (medians)${' '.repeat(Math.max(1, width - 16))}${COST_COLUMNS.map((c) => `  ${COST_HEADERS[c]}`).join('')}`,
    ...series.map((x) => `  ${x.name.padEnd(width + 2)}${COST_COLUMNS.map((c) => `  ${cell(c, x.cost[c])}`).join('')}`),
  ];
}

/** The closing lines: one per series (rounds and median), the ratios, the peak RSS, the cost per leaf. */
export function formatCompareSummary(s: CompareSummary): string[] {
  const width = Math.max(...s.series.map((x) => x.name.length));
  const ratio = (r: { against: string; ratio: number }) =>
    `${r.against} ${Number.isFinite(r.ratio) ? r.ratio.toFixed(2) : 'n/a'}`;
  return [
    ...s.series.map((x) => seriesLine(x, width)),
    `  ratios (fanout median / other median): ${s.ratios.map(ratio).join(', ')}`,
    `  peak RSS: ${s.peakRss.map((p) => `${p.runner} ${mb(p.bytes)}`).join(', ')}`,
    ...formatCostTable(s.series),
  ];
}
