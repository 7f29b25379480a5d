/**
 * The admin server's metrics: one `FwMetrics` per server, which its engine, runner and trigger
 * service record into, with the queue gauges (`fw_work_items`, `fw_work_item_oldest_due_age_seconds`,
 * `fw_outbox_commands`, `fw_outbox_lag_seconds`) read from its database at most once every five
 * seconds however often Prometheus scrapes; and the `GET /metrics` handler serving them.
 */
import type { Database, Logger } from '@fw/core';
import { makeQueueFiguresReader } from '@fw/jdbc-process-starter';
import {
  makeCachedGaugeSource,
  makeFwMetrics,
  makeMetricsHandler,
  type FwMetrics,
  type MetricsHandler,
} from '@fw/telemetry';
import type { AdminServerConfig } from '../config/admin-config';

/** The server's series, the database gauges behind a cache; a failed read is logged and leaves the gauges empty. */
export function makeAdminMetrics(database: Database, logger: Logger): FwMetrics {
  return makeFwMetrics(undefined, {
    gaugeSource: makeCachedGaugeSource(makeQueueFiguresReader(database), {
      onError: (err) => logger.warn({ err }, 'could not read the queue gauges for /metrics'),
    }),
  });
}

/**
 * `GET /metrics` under its own rule (not the management key): `FW_METRICS_TOKEN` set → Bearer
 * token required; unset → 404 in production (said once, now, with how to turn it on), open in dev.
 */
export function makeAdminMetricsHandler(config: AdminServerConfig, metrics: FwMetrics, logger: Logger): MetricsHandler {
  return makeMetricsHandler({
    registry: metrics.registry,
    profile: config.profile,
    token: config.metricsToken,
    log: { info: (message) => logger.info(message), warn: (message) => logger.warn(message) },
  });
}
