/**
 * What a worker host turns on for operators, on the fan-out bench's node: the fw_* metrics its
 * manager and runner record (with the queue gauges read from the database through the 5-second
 * cache, served on `GET /metrics` for a scraper) and OpenTelemetry tracing started from the
 * `OTEL_*` environment as a host starts it (`@fw/telemetry-node`).
 *
 * @example
 * const telemetry = await startFanoutTelemetry(database);
 * const node = startFanoutNode(database, tuning, { metrics: telemetry.metrics });
 * // … the run …
 * await telemetry.stop(); // flushes the spans still queued
 */
import type { Database } from '@fw/core';
import { makeQueueFiguresReader } from '@fw/jdbc-process-starter';
import { makeCachedGaugeSource, makeFwMetrics, serveMetrics, type FwMetrics } from '@fw/telemetry';
import { startTelemetry } from '@fw/telemetry-node';

/**
 * The sampler of a traced bench run unless `OTEL_TRACES_SAMPLER` says otherwise: what a fan-out of
 * thousands of leaves a second runs in production. The root's trace and each leaf's own trace (above
 * the inline threshold leaves are traces of their own) are kept one time in a hundred, whole.
 * `OTEL_TRACES_SAMPLER=always_on` measures the cost of exporting every span.
 */
export const BENCH_TRACE_SAMPLER = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.01' };

/** The sampler settings a traced run uses: the environment's when set, else {@link BENCH_TRACE_SAMPLER}. */
export function benchSamplerEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  if (env.OTEL_TRACES_SAMPLER)
    return {
      OTEL_TRACES_SAMPLER: env.OTEL_TRACES_SAMPLER,
      ...(env.OTEL_TRACES_SAMPLER_ARG ? { OTEL_TRACES_SAMPLER_ARG: env.OTEL_TRACES_SAMPLER_ARG } : {}),
    };
  return BENCH_TRACE_SAMPLER;
}

/**
 * What a telemetry run turns on: both (the default), or only one of them when
 * `FW_BENCH_TELEMETRY` is `metrics` or `traces`, to see which costs what.
 */
export type TelemetryParts = 'both' | 'metrics' | 'traces';

/** The parts `FW_BENCH_TELEMETRY` asks for; another value is an error naming the variable. */
export function telemetryPartsOf(env: NodeJS.ProcessEnv = process.env): TelemetryParts {
  const value = env.FW_BENCH_TELEMETRY?.trim() || 'both';
  if (value === 'both' || value === 'metrics' || value === 'traces') return value;
  throw new RangeError(`FW_BENCH_TELEMETRY must be both, metrics or traces, got ${JSON.stringify(value)}`);
}

/** What each {@link TelemetryParts} turns on, as the bench's lines name it. */
export const TELEMETRY_PARTS_NAMES: Readonly<Record<TelemetryParts, string>> = {
  both: 'metrics and tracing',
  metrics: 'metrics only',
  traces: 'tracing only',
};

/** `parentbased_traceidratio 0.01` */
export function describeSampler(env: Record<string, string>): string {
  return [env.OTEL_TRACES_SAMPLER, env.OTEL_TRACES_SAMPLER_ARG].filter(Boolean).join(' ');
}

/** Metrics and tracing of one bench node (one of them only when {@link TelemetryParts} says so). */
export interface FanoutTelemetry {
  /** The series the node records into; undefined with traces only. */
  readonly metrics: FwMetrics | undefined;
  /** `http://127.0.0.1:<port>/metrics`, open (the bench's scraper holds no token); undefined with traces only. */
  readonly metricsUrl: string | undefined;
  /** Where spans go (`OTEL_EXPORTER_OTLP_ENDPOINT`); undefined with metrics only. */
  readonly tracesUrl: string | undefined;
  /** Flushes and stops tracing, stops serving metrics (idempotent). */
  stop(): Promise<void>;
}

/**
 * Starts metrics and tracing (or the one of them `parts` names) for a node on `database`. Fails
 * when tracing is wanted and `OTEL_EXPORTER_OTLP_ENDPOINT` is not set: a measurement "with
 * tracing" that exports nothing would measure the wrong thing.
 */
export async function startFanoutTelemetry(
  database: Database,
  parts: TelemetryParts = telemetryPartsOf(),
): Promise<FanoutTelemetry> {
  const tracing = parts === 'metrics' ? undefined : await startTelemetry({ serviceName: 'fw-bench-fanout' });
  if (tracing && !tracing.exporting) throw new Error(`fanout with telemetry needs an OTLP endpoint: ${tracing.reason}`);
  const metrics =
    parts === 'traces'
      ? undefined
      : makeFwMetrics(undefined, { gaugeSource: makeCachedGaugeSource(makeQueueFiguresReader(database)) });
  const server = metrics
    ? await serveMetrics({ registry: metrics.registry, profile: 'dev', port: 0, bindAddress: '127.0.0.1' })
    : undefined;
  let stopped: Promise<void> | undefined;
  return {
    metrics,
    metricsUrl: server?.url,
    tracesUrl: tracing?.url,
    stop: () =>
      (stopped ??= (async () => {
        await server?.close();
        await tracing?.shutdown();
      })()),
  };
}
