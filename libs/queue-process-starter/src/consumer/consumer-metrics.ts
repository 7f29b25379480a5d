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
  /**
   * Starts serving when a port is set, then runs `start`; a port in use rejects before `start`
   * runs (nothing is consumed), and a failed `start` stops serving again.
   */
  serveWhile(start: () => Promise<void>): Promise<void>;
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
  const close = async (): Promise<void> => {
    const server = await serving?.catch(() => undefined);
    await server?.close();
  };
  return {
    metrics,
    async serveWhile(start) {
      if (port !== undefined && metrics !== undefined && serving === undefined) {
        serving = serveMetrics({
          registry: metrics.registry,
          profile: options.metricsProfile ?? 'production',
          port,
          log: logger,
        });
        logger.info({ url: (await serving).url }, 'serving metrics');
      }
      await start().catch(async (error: unknown) => {
        await close();
        throw error;
      });
    },
    server: async () => serving,
    close,
  };
}
