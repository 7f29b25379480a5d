import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { makeBufferedCounter } from './buffered-counter';
import { makeBufferedHistogram } from './buffered-histogram';
import type { QueueFigures, QueueFiguresSource } from './cached-gauge-source';
import type {
  ProcessLabels,
  ProcessOutcome,
  AttemptResult,
  WorkItemLabels,
  ProcessSeries,
  WorkItemSeries,
} from './fw-metric-types';
import { makeFwSeriesResolvers, processLabels, tenantLabel, workItemLabels } from './fw-series';

/** What fired a trigger. */
export type TriggerSource = 'CRON' | 'MANUAL' | 'EXTERNAL';
/** Which limit of a process definition held work back: its `concurrency` or its `rateLimit`. */
export type WorkLimitKind = 'concurrency' | 'rate';

/** One declared limit of a process type (a definition's `concurrency.perTenant`, `concurrency.global` or `rateLimit`). */
export interface WorkLimitSample {
  processType: string;
  /** `concurrency`: most RUNNING work items; `rate`: most starts per second. */
  kind: WorkLimitKind;
  /** Per tenant or over all tenants. */
  scope: 'tenant' | 'global';
  value: number;
}

/**
 * The fw_* series with typed recording functions. Every function only increments or observes in
 * memory (no I/O); a scrape reads them through `registry`.
 */
export interface FwMetrics {
  /** Where the series live: serve it with `makeMetricsHandler` or `serveMetrics`. */
  readonly registry: Registry;
  /**
   * The process series of `labels`, for the engine's per-process events (thousands a second in a
   * fan-out): equal labels give the same series, and a call with the labels of the call before
   * finds it without building a key. `labels` may be a process record (its other fields are ignored).
   */
  processSeries(labels: ProcessLabels): ProcessSeries;
  /** The work-item series of `labels` (a claimed work item will do), as {@link processSeries}. */
  workItemSeries(labels: WorkItemLabels): WorkItemSeries;
  /** A process row was created: `fw_processes_created_total`. */
  processCreated(labels: ProcessLabels): void;
  /** A process reached a terminal state: `fw_processes_finished_total` and `fw_process_duration_seconds` (created → terminal). */
  processFinished(labels: ProcessLabels & { outcome: ProcessOutcome; durationSeconds: number }): void;
  /** A work item was claimed: `fw_work_item_wait_seconds` (due → claimed). */
  workItemClaimed(labels: WorkItemLabels & { waitSeconds: number }): void;
  /** A work-item attempt ended: `fw_work_item_attempts_total{result}`. */
  workItemAttempt(labels: WorkItemLabels & { result: AttemptResult }): void;
  /** Leases found expired and taken over: `fw_lease_expiries_total`. */
  leaseExpired(labels: WorkItemLabels, count?: number): void;
  /** Acknowledgements refused because the claim was no longer held: `fw_stale_acks_total`. */
  staleAck(labels: WorkItemLabels, count?: number): void;
  /**
   * The limits the work-item claims apply now, replacing those recorded before:
   * `fw_work_item_concurrency_limit{process_type, scope}` and
   * `fw_work_item_rate_limit_per_second{process_type, scope}`.
   */
  workLimitsDeclared(limits: readonly WorkLimitSample[]): void;
  /** A claim left a group's due work PENDING because a limit was reached: `fw_work_item_claims_limited_total{limit}`. */
  claimLimited(labels: ProcessLabels & { limit: WorkLimitKind }, count?: number): void;
  /** A trigger started a process: `fw_triggers_fired_total{source}`. */
  triggerFired(labels: ProcessLabels & { source: TriggerSource }): void;
  /** A named query ran: `fw_query_duration_seconds` (labels `tenant`, `query`: the query's name). */
  queryExecuted(labels: { tenant?: string | null; query: string; durationSeconds: number }): void;
}

/** Options of {@link makeFwMetrics}. */
export interface FwMetricsOptions {
  /**
   * Source of the gauges read from the database (`fw_work_items`, `fw_work_item_oldest_due_age_seconds`,
   * `fw_outbox_commands`, `fw_outbox_lag_seconds`); usually `makeCachedGaugeSource(reader)`. Without
   * one these gauges are declared but carry no samples.
   */
  gaugeSource?: QueueFiguresSource;
  /** Collect prom-client's `process_*` and `nodejs_*` series. Default true. */
  defaultMetrics?: boolean;
}

const PROCESS = ['tenant', 'process_type'] as const;
const WORK_ITEM = ['tenant', 'process_type', 'worker_type'] as const;
const PROCESS_DURATION_BUCKETS = [0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600, 4 * 3600, 24 * 3600];
const WAIT_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600];
const QUERY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The counters and histograms recorded by the engine, the runner, the triggers and the queries. */
function declareEventSeries(registry: Registry) {
  const registers = [registry];
  const created = makeBufferedCounter<(typeof PROCESS)[number]>({
    name: 'fw_processes_created_total',
    help: 'Processes created.',
    labelNames: PROCESS,
    registers,
  });
  const finished = makeBufferedCounter<(typeof PROCESS)[number] | 'outcome'>({
    name: 'fw_processes_finished_total',
    help: 'Processes that reached a terminal state, by outcome (success or errors).',
    labelNames: [...PROCESS, 'outcome'],
    registers,
  });
  const duration = makeBufferedHistogram<(typeof PROCESS)[number]>({
    name: 'fw_process_duration_seconds',
    help: 'Time from the creation of a process to its terminal state.',
    labelNames: PROCESS,
    buckets: PROCESS_DURATION_BUCKETS,
    registers,
  });
  const wait = makeBufferedHistogram<(typeof WORK_ITEM)[number]>({
    name: 'fw_work_item_wait_seconds',
    help: 'Time from a work item being due to its claim by a worker.',
    labelNames: WORK_ITEM,
    buckets: WAIT_BUCKETS,
    registers,
  });
  const attempts = makeBufferedCounter<(typeof WORK_ITEM)[number] | 'result'>({
    name: 'fw_work_item_attempts_total',
    help: 'Work-item attempts, by result (success, retry or dead).',
    labelNames: [...WORK_ITEM, 'result'],
    registers,
  });
  const expiries = new Counter({
    name: 'fw_lease_expiries_total',
    help: 'Work-item leases that expired and were claimed again.',
    labelNames: WORK_ITEM,
    registers,
  });
  const staleAcks = new Counter({
    name: 'fw_stale_acks_total',
    help: 'Acknowledgements refused because the claim was no longer held.',
    labelNames: WORK_ITEM,
    registers,
  });
  const triggers = new Counter({
    name: 'fw_triggers_fired_total',
    help: 'Triggers fired, by source (CRON, MANUAL or EXTERNAL).',
    labelNames: [...PROCESS, 'source'],
    registers,
  });
  const queries = new Histogram({
    name: 'fw_query_duration_seconds',
    help: 'Execution time of named queries.',
    labelNames: ['tenant', 'query'],
    buckets: QUERY_BUCKETS,
    registers,
  });
  const limited = new Counter({
    name: 'fw_work_item_claims_limited_total',
    help: 'Claims that left due work items of a tenant and process type PENDING because a limit was reached, by limit (concurrency or rate).',
    labelNames: [...PROCESS, 'limit'],
    registers,
  });
  return { created, finished, duration, wait, attempts, expiries, staleAcks, triggers, queries, limited };
}

/**
 * The declared limits as gauges (no tenant label: a per-tenant limit is the same number for every
 * tenant). Set by the work-item runners from the limits they apply; compare the concurrency limit
 * with `fw_work_items{status="RUNNING"}`.
 */
function declareLimitGauges(registry: Registry): (limits: readonly WorkLimitSample[]) => void {
  const registers = [registry];
  const concurrency = new Gauge({
    name: 'fw_work_item_concurrency_limit',
    help: 'Most RUNNING work items a process type may have, per tenant (scope="tenant") or over all tenants (scope="global").',
    labelNames: ['process_type', 'scope'],
    registers,
  });
  const rate = new Gauge({
    name: 'fw_work_item_rate_limit_per_second',
    help: 'Most work-item starts per second of a process type, per tenant (scope="tenant") or over all tenants (scope="global").',
    labelNames: ['process_type', 'scope'],
    registers,
  });
  return (limits) => {
    concurrency.reset();
    rate.reset();
    for (const l of limits)
      (l.kind === 'rate' ? rate : concurrency).set({ process_type: l.processType, scope: l.scope }, l.value);
  };
}

/**
 * Declares every fw_* series in `registry` (a fresh one by default) at once, so a scrape shows
 * their HELP and TYPE lines from start-up, before the first sample; and the default `process_*`
 * and `nodejs_*` series of prom-client. Labels carry tenants, types and names, never ids (one
 * series per id would grow without bound).
 *
 * @example
 * const metrics = makeFwMetrics(undefined, { gaugeSource: makeCachedGaugeSource(reader) });
 * metrics.processCreated({ tenant: 'acme', processType: 'invoice' });
 * app.get('/metrics', makeMetricsHandler({ registry: metrics.registry, profile: 'production' }));
 */
export function makeFwMetrics(registry: Registry = new Registry(), options: FwMetricsOptions = {}): FwMetrics {
  const { created, finished, duration, wait, attempts, expiries, staleAcks, triggers, queries, limited } =
    declareEventSeries(registry);
  const setLimits = declareLimitGauges(registry);
  declareQueueGauges(registry, options.gaugeSource);
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const { processSeries, workItemSeries } = makeFwSeriesResolvers({ created, finished, duration, wait, attempts });

  return {
    registry,
    processSeries,
    workItemSeries,
    processCreated: (labels) => processSeries(labels).created(),
    processFinished: (labels) => processSeries(labels).finished(labels.outcome, labels.durationSeconds),
    workItemClaimed: (labels) => workItemSeries(labels).claimed(labels.waitSeconds),
    workItemAttempt: (labels) => workItemSeries(labels).attempt(labels.result),
    leaseExpired: (labels, count = 1) => expiries.inc(workItemLabels(labels), count),
    staleAck: (labels, count = 1) => staleAcks.inc(workItemLabels(labels), count),
    workLimitsDeclared: setLimits,
    claimLimited: (labels, count = 1) => limited.inc({ ...processLabels(labels), limit: labels.limit }, count),
    triggerFired: (labels) => triggers.inc({ ...processLabels(labels), source: labels.source }),
    queryExecuted: (labels) =>
      queries.observe({ tenant: tenantLabel(labels.tenant), query: labels.query }, labels.durationSeconds),
  };
}

/**
 * The four gauges read from the database. Each scrape calls every gauge's `collect`; they all ask
 * the one source, which answers from its cache (one database read per period, not per series).
 */
function declareQueueGauges(registry: Registry, source: QueueFiguresSource | undefined): void {
  const registers = [registry];
  const fill = async (apply: (figures: QueueFigures) => void): Promise<void> => {
    if (!source) return;
    const figures = await source.figures();
    if (figures) apply(figures);
  };
  const workItems: Gauge<string> = new Gauge({
    name: 'fw_work_items',
    help: 'Work items by status (PENDING, RUNNING, DEAD), read from the database.',
    labelNames: [...WORK_ITEM, 'status'],
    registers,
    collect: () =>
      fill((f) => {
        workItems.reset();
        for (const row of f.workItems) workItems.set({ ...workItemLabels(row), status: row.status }, row.count);
      }),
  });
  const oldestDue: Gauge<string> = new Gauge({
    name: 'fw_work_item_oldest_due_age_seconds',
    help: 'Age of the oldest pending work item that is due, read from the database.',
    labelNames: WORK_ITEM,
    registers,
    collect: () =>
      fill((f) => {
        oldestDue.reset();
        for (const row of f.oldestDueWorkItems) oldestDue.set(workItemLabels(row), row.ageSeconds);
      }),
  });
  const outbox: Gauge<string> = new Gauge({
    name: 'fw_outbox_commands',
    help: 'Outbox commands by status (PENDING, RUNNING, DEAD), read from the database.',
    labelNames: ['tenant', 'status'],
    registers,
    collect: () =>
      fill((f) => {
        outbox.reset();
        for (const row of f.outboxCommands)
          outbox.set({ tenant: tenantLabel(row.tenant), status: row.status }, row.count);
      }),
  });
  const lag: Gauge<string> = new Gauge({
    name: 'fw_outbox_lag_seconds',
    help: 'Age of the oldest pending outbox command that is due, read from the database.',
    labelNames: ['tenant'],
    registers,
    collect: () =>
      fill((f) => {
        lag.reset();
        for (const row of f.outboxLag) lag.set({ tenant: tenantLabel(row.tenant) }, row.ageSeconds);
      }),
  });
}
