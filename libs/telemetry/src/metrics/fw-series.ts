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

class ProcessSeriesEntry implements ProcessSeries {
  private readonly createdCount: CounterSeries;
  private readonly durations: HistogramSeries;
  private readonly outcomes = new Map<ProcessOutcome, CounterSeries>();

  constructor(
    private readonly key: string,
    private readonly labels: LabelValues<ProcessLabelName>,
    private readonly series: FwEventSeries,
  ) {
    this.createdCount = series.created.series(key, () => labels);
    this.durations = series.duration.series(key, () => labels);
  }

  created(count = 1): void {
    this.createdCount.add(count);
  }

  finished(outcome: ProcessOutcome, durationSeconds: number): void {
    let finished = this.outcomes.get(outcome);
    if (finished === undefined)
      this.outcomes.set(
        outcome,
        (finished = this.series.finished.series(`${this.key}\u0000${outcome}`, () => ({ ...this.labels, outcome }))),
      );
    finished.add();
    this.durations.observe(durationSeconds);
  }
}

class WorkItemSeriesEntry implements WorkItemSeries {
  private readonly waits: HistogramSeries;
  private readonly results = new Map<AttemptResult, CounterSeries>();

  constructor(
    private readonly key: string,
    private readonly labels: LabelValues<WorkItemLabelName>,
    private readonly series: FwEventSeries,
  ) {
    this.waits = series.wait.series(key, () => labels);
  }

  claimed(waitSeconds: number): void {
    this.waits.observe(waitSeconds);
  }

  attempt(result: AttemptResult): void {
    let attempts = this.results.get(result);
    if (attempts === undefined)
      this.results.set(
        result,
        (attempts = this.series.attempts.series(`${this.key}\u0000${result}`, () => ({ ...this.labels, result }))),
      );
    attempts.add();
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
