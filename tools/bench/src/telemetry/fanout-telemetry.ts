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

/** `parentbased_traceidratio 0.01` */
export function describeSampler(env: Record<string, string>): string {
  return [env.OTEL_TRACES_SAMPLER, env.OTEL_TRACES_SAMPLER_ARG].filter(Boolean).join(' ');
}

/** Metrics and tracing of one bench node. */
export interface FanoutTelemetry {
  readonly metrics: FwMetrics;
  /** `http://127.0.0.1:<port>/metrics`, open (the bench's scraper holds no token). */
  readonly metricsUrl: string;
  /** Where spans go (`OTEL_EXPORTER_OTLP_ENDPOINT`). */
  readonly tracesUrl: string;
  /** Flushes and stops tracing, stops serving metrics (idempotent). */
  stop(): Promise<void>;
}

/**
 * Starts metrics and tracing for a node on `database`. Fails when `OTEL_EXPORTER_OTLP_ENDPOINT` is
 * not set: a measurement "with tracing" that exports nothing would measure the wrong thing.
 */
export async function startFanoutTelemetry(database: Database): Promise<FanoutTelemetry> {
  const tracing = await startTelemetry({ serviceName: 'fw-bench-fanout' });
  if (!tracing.exporting && !process.env.XX_NO_TRACING) throw new Error(`fanout with telemetry needs an OTLP endpoint: ${tracing.reason}`);
  const metrics = makeFwMetrics(undefined, {
    gaugeSource: makeCachedGaugeSource(makeQueueFiguresReader(database)),
  });
  const server = await serveMetrics({ registry: metrics.registry, profile: 'dev', port: 0, bindAddress: '127.0.0.1' });
  let stopped: Promise<void> | undefined;
  return {
    metrics,
    metricsUrl: server.url,
    tracesUrl: tracing.url ?? '',
    stop: () =>
      (stopped ??= (async () => {
        await server.close();
        await tracing.shutdown();
      })()),
  };
}
