/**
 * The per-series handles of the fw_* event series: a process series (tenant, process type) and a
 * work-item series (and worker type), each holding the buffered counter and histogram entries it
 * records into, found again through a resolver that remembers the last labels it was asked for.
 */
import type { LabelValues } from 'prom-client';
import type { BufferedCounter, CounterSeries } from './buffered-counter';
import type { BufferedHistogram, HistogramSeries } from './buffered-histogram';
import type {
  AttemptResult,
  ProcessLabels,
  ProcessOutcome,
  ProcessSeries,
  WorkItemLabels,
  WorkItemSeries,
} from './fw-metric-types';

type ProcessLabelName = 'tenant' | 'process_type';
type WorkItemLabelName = ProcessLabelName | 'worker_type';

/** The series that hold per-process and per-work-item events. */
export interface FwEventSeries {
  created: BufferedCounter<ProcessLabelName>;
  finished: BufferedCounter<ProcessLabelName | 'outcome'>;
  duration: BufferedHistogram<ProcessLabelName>;
  wait: BufferedHistogram<WorkItemLabelName>;
  attempts: BufferedCounter<WorkItemLabelName | 'result'>;
}

/** A missing tenant (single-tenant) is the empty label. */
export function tenantLabel(tenant: string | null | undefined): string {
  return tenant ?? '';
}

/** The series key of a process's labels: its label values joined by `\u0000` (never in a name). */
export function processKey(labels: ProcessLabels): string {
  return `${tenantLabel(labels.tenant)}\u0000${labels.processType}`;
}

export function processLabels(labels: ProcessLabels): LabelValues<ProcessLabelName> {
  return { tenant: tenantLabel(labels.tenant), process_type: labels.processType };
}

export function workItemLabels(labels: WorkItemLabels): LabelValues<WorkItemLabelName> {
  return { ...processLabels(labels), worker_type: labels.workerType };
}

/**
 * The counter series of one series' labels plus one more label (`outcome`, `result`), one per
 * value of it, each made on first use.
 */
class CounterSeriesByValue<L extends string, E extends string, V extends string> {
  private readonly byValue = new Map<V, CounterSeries>();

  constructor(
    private readonly counter: BufferedCounter<L | E>,
    private readonly key: string,
    private readonly labels: LabelValues<L>,
    private readonly label: E,
  ) {}

  add(value: V): void {
    let series = this.byValue.get(value);
    if (series === undefined)
      this.byValue.set(
        value,
        (series = this.counter.series(
          `${this.key}\u0000${value}`,
          () => ({ ...this.labels, [this.label]: value }) as LabelValues<L | E>,
        )),
      );
    series.add();
  }
}

class ProcessSeriesEntry implements ProcessSeries {
  private readonly createdCount: CounterSeries;
  private readonly durations: HistogramSeries;
  private readonly outcomes: CounterSeriesByValue<ProcessLabelName, 'outcome', ProcessOutcome>;

  constructor(key: string, labels: LabelValues<ProcessLabelName>, series: FwEventSeries) {
    this.createdCount = series.created.series(key, () => labels);
    this.durations = series.duration.series(key, () => labels);
    this.outcomes = new CounterSeriesByValue(series.finished, key, labels, 'outcome');
  }

  created(count = 1): void {
    this.createdCount.add(count);
  }

  finished(outcome: ProcessOutcome, durationSeconds: number): void {
    this.outcomes.add(outcome);
    this.durations.observe(durationSeconds);
  }
}

class WorkItemSeriesEntry implements WorkItemSeries {
  private readonly waits: HistogramSeries;
  private readonly results: CounterSeriesByValue<WorkItemLabelName, 'result', AttemptResult>;

  constructor(key: string, labels: LabelValues<WorkItemLabelName>, series: FwEventSeries) {
    this.waits = series.wait.series(key, () => labels);
    this.results = new CounterSeriesByValue(series.attempts, key, labels, 'result');
  }

  claimed(waitSeconds: number): void {
    this.waits.observe(waitSeconds);
  }

  attempt(result: AttemptResult): void {
    this.results.add(result);
  }
}

/**
 * A resolver of series by labels: a map by key, and in front of it the labels of the last call
 * (the engine records batches of one tenant and type: most calls are answered by a few string
 * comparisons, without building a key or allocating).
 */
function makeSeriesResolver<L extends ProcessLabels, S>(
  same: (a: L, b: L) => boolean,
  copy: (labels: L) => L,
  keyOf: (labels: L) => string,
  make: (key: string, labels: L) => S,
): (labels: L) => S {
  const byKey = new Map<string, S>();
  let last: { labels: L; series: S } | undefined;
  return (labels) => {
    if (last !== undefined && same(last.labels, labels)) return last.series;
    const key = keyOf(labels);
    let series = byKey.get(key);
    if (series === undefined) byKey.set(key, (series = make(key, labels)));
    last = { labels: copy(labels), series };
    return series;
  };
}

/** The resolvers of process and work-item series over `series`. */
export function makeFwSeriesResolvers(series: FwEventSeries): {
  processSeries: (labels: ProcessLabels) => ProcessSeries;
  workItemSeries: (labels: WorkItemLabels) => WorkItemSeries;
} {
  const sameProcess = (a: ProcessLabels, b: ProcessLabels) =>
    a.processType === b.processType && tenantLabel(a.tenant) === tenantLabel(b.tenant);
  return {
    processSeries: makeSeriesResolver<ProcessLabels, ProcessSeries>(
      sameProcess,
      (l) => ({ tenant: l.tenant, processType: l.processType }),
      processKey,
      (key, labels) => new ProcessSeriesEntry(key, processLabels(labels), series),
    ),
    workItemSeries: makeSeriesResolver<WorkItemLabels, WorkItemSeries>(
      (a, b) => a.workerType === b.workerType && sameProcess(a, b),
      (l) => ({ tenant: l.tenant, processType: l.processType, workerType: l.workerType }),
      (labels) => `${processKey(labels)}\u0000${labels.workerType}`,
      (key, labels) => new WorkItemSeriesEntry(key, workItemLabels(labels), series),
    ),
  };
}
