/**
 * The metrics of a worker host: the `FwMetrics` its manager and runner record into, and, when a
 * port is set (`metricsPort` or `FW_METRICS_PORT`), its own registry with the database gauges,
 * served by `serveMetrics` from `start()` until `close()`.
 */
import type { Database, Logger } from '@fw/core';
import {
  makeCachedGaugeSource,
  makeFwMetrics,
  resolveMetricsPort,
  serveMetrics,
  type FwMetrics,
  type MetricsProfile,
  type MetricsServer,
} from '@fw/telemetry';
import { makeQueueFiguresReader } from '../monitoring/work-item-figures';

export interface WorkerHostMetricsOptions {
  /** What the host's parts record into; made here (with the gauges) when absent and a port is set. */
  metrics?: FwMetrics;
  /** Port of `GET /metrics`; default `FW_METRICS_PORT`; neither: no server. */
  metricsPort?: number;
  /** Access rule of `GET /metrics` (default `production`: it needs `FW_METRICS_TOKEN`). */
  metricsProfile?: MetricsProfile;
  database: Database;
  logger: Logger;
}

export interface WorkerHostMetrics {
  /** What the host's parts record into (undefined: no metrics). */
  readonly metrics: FwMetrics | undefined;
  /** Starts serving when a port is set (idempotent). */
  start(): void;
  /** The server once listening; undefined without a port or before `start()`. */
  server(): Promise<MetricsServer | undefined>;
  /** Stops serving (idempotent). */
  close(): Promise<void>;
}

/** Resolves the port now, so a bad `FW_METRICS_PORT` fails the host's construction. */
export function makeWorkerHostMetrics(options: WorkerHostMetricsOptions): WorkerHostMetrics {
  const port = resolveMetricsPort(options.metricsPort);
  const { logger } = options;
  const metrics =
    options.metrics ??
    (port === undefined
      ? undefined
      : makeFwMetrics(undefined, {
          gaugeSource: makeCachedGaugeSource(makeQueueFiguresReader(options.database), {
            onError: (err) => logger.warn({ err }, 'could not read the queue gauges'),
          }),
        }));
  let serving: Promise<MetricsServer | undefined> | undefined;
  return {
    metrics,
    start() {
      if (port === undefined || metrics === undefined || serving) return;
      serving = serveMetrics({
        registry: metrics.registry,
        profile: options.metricsProfile ?? 'production',
        port,
        log: logger,
      }).then(
        (server) => {
          logger.info({ url: server.url }, 'serving metrics');
          return server;
        },
        (err: unknown) => {
          logger.error({ err, port }, 'could not serve metrics');
          return undefined;
        },
      );
    },
    server: async () => serving,
    close: async () => {
      await (await serving)?.close();
    },
  };
}
