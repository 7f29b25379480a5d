import { Histogram, type HistogramConfiguration, type LabelValues } from 'prom-client';

/** One series of a {@link BufferedHistogram}, resolved once and observed many times. */
export interface HistogramSeries {
  /** Counts `value` (a finite number) in its bucket, the sum and the count of the series. */
  observe(value: number): void;
}

/**
 * A prom-client histogram whose series are resolved once and then observed in memory: an
 * observation finds its bucket among the bounds and adds one, where prom-client's `observe`
 * checks the labels and hashes them for every value (0.6 µs, twice per leaf of a fan-out). The
 * registry reads it as any histogram: the same `_bucket`, `_sum` and `_count` lines.
 */
export interface BufferedHistogram<T extends string> {
  /** The histogram as registered (read it; observe through {@link series}). */
  readonly histogram: Histogram<T>;
  /**
   * The series `key` names; `labelsOf` gives its labels the first time the key is seen. `key` must
   * tell the series apart, e.g. the label values joined by `\u0000`.
   */
  series(key: string, labelsOf: () => LabelValues<T>): HistogramSeries;
}

/** The counts of one series: per bucket (not cumulative), sum and count. */
class SeriesCounts<T extends string> implements HistogramSeries {
  readonly buckets: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: LabelValues<T>,
    private readonly bounds: readonly number[],
  ) {
    this.buckets = new Float64Array(bounds.length);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    if (i < bounds.length) this.buckets[i] += 1;
    this.sum += value;
    this.count += 1;
  }

  reset(): void {
    this.buckets.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}

/** The lines of one read, in prom-client's own shape: `le` first, the series labels shared. */
interface ExportedValue<T extends string> {
  labels: Record<string, string | number>;
  sharedLabels: LabelValues<T>;
  value: number;
  metricName: string;
  /** Always null on a bucket line and absent on the others, as prom-client writes them without exemplars. */
  exemplar?: null;
}

/** A read of the histogram as prom-client's registry takes it (its typings name the type an enum; it is the text). */
interface HistogramRead<V> {
  name: string;
  help: string;
  type: 'histogram';
  aggregator: 'sum';
  values: V[];
}

/** A histogram that keeps its series in {@link SeriesCounts} and writes them out when read. */
class BufferedHistogramMetric<T extends string> extends Histogram<T> {
  readonly entries = new Map<string, SeriesCounts<T>>();
  private readonly bounds: readonly number[];
  private readonly metricName: string;
  private readonly description: string;

  constructor(configuration: HistogramConfiguration<T>) {
    super(configuration);
    this.bounds = [...(configuration.buckets ?? [])].sort((a, b) => a - b);
    this.metricName = configuration.name;
    this.description = configuration.help;
  }

  /** What the registry formats as text (prom-client reads this when present). */
  async getForPromString(): Promise<HistogramRead<ExportedValue<T>>> {
    const name = this.metricName;
    const values: ExportedValue<T>[] = [];
    for (const series of this.entries.values()) {
      if (series.count === 0) continue;
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += series.buckets[i];
        values.push(this.line(`${name}_bucket`, { le: this.bounds[i] }, series, cumulative));
      }
      values.push(this.line(`${name}_bucket`, { le: '+Inf' }, series, series.count));
      values.push(this.line(`${name}_sum`, {}, series, series.sum));
      values.push(this.line(`${name}_count`, {}, series, series.count));
    }
    return { name, help: this.description, type: 'histogram', aggregator: 'sum', values };
  }

  override async get(): ReturnType<Histogram<T>['get']> {
    const read = await this.getForPromString();
    const values = read.values.map(({ labels, sharedLabels, ...line }) => ({
      ...line,
      labels: { ...labels, ...sharedLabels } as LabelValues<T>,
    }));
    // The same object prom-client's own histogram answers; its typings differ from its runtime.
    return { ...read, values } as unknown as Awaited<ReturnType<Histogram<T>['get']>>;
  }

  override reset(): void {
    // prom-client's constructor calls reset() before this class's fields exist.
    if (this.entries === undefined) return;
    for (const series of this.entries.values()) series.reset();
  }

  of(key: string, labelsOf: () => LabelValues<T>): SeriesCounts<T> {
    let series = this.entries.get(key);
    if (series === undefined) this.entries.set(key, (series = new SeriesCounts(labelsOf(), this.bounds)));
    return series;
  }

  private line(
    metricName: string,
    labels: Record<string, string | number>,
    series: SeriesCounts<T>,
    value: number,
  ): ExportedValue<T> {
    const line: ExportedValue<T> = { labels, sharedLabels: series.labels, value, metricName };
    if ('le' in labels) line.exemplar = null;
    return line;
  }
}

/**
 * Declares a histogram as `new Histogram(configuration)` does (give `buckets`), observed through
 * series handles. A series is written out from its first observation on; `reset()` zeroes them.
 *
 * @example
 * const wait = makeBufferedHistogram({ name: 'fw_work_item_wait_seconds', help: '…', labelNames: ['tenant'], buckets: [0.1, 1] });
 * const acme = wait.series('acme', () => ({ tenant: 'acme' }));
 * acme.observe(0.25);
 */
export function makeBufferedHistogram<T extends string>(
  configuration: Omit<HistogramConfiguration<T>, 'collect' | 'enableExemplars'>,
): BufferedHistogram<T> {
  const histogram = new BufferedHistogramMetric<T>(configuration);
  return { histogram, series: (key, labelsOf) => histogram.of(key, labelsOf) };
}
