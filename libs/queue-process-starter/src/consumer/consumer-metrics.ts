/**
 * The metrics of the RabbitMQ worker host: the `FwMetrics` its consumer records attempts into,
 * and, when a port is set (`metricsPort` or `FW_METRICS_PORT`), its own registry served by
 * `serveMetrics` from `start()` until `stop()`. No database gauges: this host owns no SQL queue.
 */
import type { Logger } from '@fw/core';
import {
  makeFwMetrics,
  resolveMetricsPort,
  serveMetrics,
  type FwMetrics,
  type MetricsProfile,
  type MetricsServer,
} from '@fw/telemetry';

export interface ConsumerMetrics {
  readonly metrics: FwMetrics | undefined;
  /** Starts serving when a port is set (idempotent); a port in use rejects. */
  serve(): Promise<MetricsServer | undefined>;
  /** The server `serve()` started (undefined without a port or before it). */
  server(): Promise<MetricsServer | undefined>;
  /** Stops serving (idempotent). */
  close(): Promise<void>;
}

/** Resolves the port now, so a bad `FW_METRICS_PORT` fails the consumer's construction. */
export function makeConsumerMetrics(
  options: { metrics?: FwMetrics; metricsPort?: number; metricsProfile?: MetricsProfile },
  logger: Logger,
): ConsumerMetrics {
  const port = resolveMetricsPort(options.metricsPort);
  const metrics = options.metrics ?? (port === undefined ? undefined : makeFwMetrics());
  let serving: Promise<MetricsServer> | undefined;
  return {
    metrics,
    async serve() {
      if (port === undefined || metrics === undefined) return undefined;
      serving ??= serveMetrics({
        registry: metrics.registry,
        profile: options.metricsProfile ?? 'production',
        port,
        log: logger,
      });
      const server = await serving;
      logger.info({ url: server.url }, 'serving metrics');
      return server;
    },
    server: async () => serving,
    async close() {
      const server = await serving?.catch(() => undefined);
      await server?.close();
    },
  };
}
