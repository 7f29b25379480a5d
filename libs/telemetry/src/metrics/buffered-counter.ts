import { Counter, type CounterConfiguration, type LabelValues } from 'prom-client';

/**
 * A prom-client counter whose increments are added up in memory and handed to it when it is read
 * (a scrape, `registry.metrics()`, `counter.get()`). The engine counts every process and every
 * work-item attempt of a fan-out of thousands a second: prom-client checks and hashes the labels
 * of each `inc`, this adds one to an entry found by a string key. The series are the same, and a
 * read sees every increment made before it.
 */
export interface BufferedCounter<T extends string> {
  /** The counter as registered (read it, never increment it directly). */
  readonly counter: Counter<T>;
  /**
   * Adds `count` (default 1) to the series `key` names; `labelsOf` gives that series' labels the
   * first time the key is seen. `key` must tell the series apart, e.g. the label values joined by
   * `\u0000`.
   */
  add(key: string, labelsOf: () => LabelValues<T>, count?: number): void;
  /** The series `key` names, resolved once for many increments (same arguments as {@link add}). */
  series(key: string, labelsOf: () => LabelValues<T>): CounterSeries;
}

/** One series of a {@link BufferedCounter}. */
export interface CounterSeries {
  /** Adds `count` (default 1). */
  add(count?: number): void;
}

class PendingSeries<T extends string> implements CounterSeries {
  count = 0;

  constructor(readonly labels: LabelValues<T>) {}

  add(count = 1): void {
    this.count += count;
  }
}

/**
 * Declares a counter as `new Counter(configuration)` does, with buffered increments. Its entries
 * are kept once made (labels hold no ids, so there are as many as series), their counts reset at
 * each read.
 *
 * @example
 * const attempts = makeBufferedCounter({ name: 'fw_work_item_attempts_total', help: '…', labelNames: ['result'] });
 * attempts.add('success', () => ({ result: 'success' }));
 */
export function makeBufferedCounter<T extends string>(
  configuration: Omit<CounterConfiguration<T>, 'collect'>,
): BufferedCounter<T> {
  const pending = new Map<string, PendingSeries<T>>();
  const counter = new Counter<T>({
    ...configuration,
    collect() {
      for (const series of pending.values())
        if (series.count > 0) {
          this.inc(series.labels, series.count);
          series.count = 0;
        }
    },
  });
  const series = (key: string, labelsOf: () => LabelValues<T>): PendingSeries<T> => {
    let found = pending.get(key);
    if (found === undefined) pending.set(key, (found = new PendingSeries(labelsOf())));
    return found;
  };
  return {
    counter,
    add: (key, labelsOf, count = 1) => series(key, labelsOf).add(count),
    series,
  };
}
