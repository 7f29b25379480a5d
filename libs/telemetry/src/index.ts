// Public entry point of @fw/telemetry. Every export is listed explicitly.
export { makeFwMetrics } from './metrics/fw-metrics';
export type { FwMetrics, FwMetricsOptions, TriggerSource, WorkLimitKind, WorkLimitSample } from './metrics/fw-metrics';
export type {
  AttemptResult,
  ProcessLabels,
  ProcessOutcome,
  ProcessSeries,
  WorkItemLabels,
  WorkItemSeries,
} from './metrics/fw-metric-types';
export { makeCachedGaugeSource } from './metrics/cached-gauge-source';
export type {
  CachedGaugeSourceOptions,
  QueueFigures,
  QueueFiguresReader,
  QueueFiguresSource,
  QueueStatus,
} from './metrics/cached-gauge-source';
export { makeMetricsAccessRule, METRICS_HIDDEN_MESSAGE, METRICS_TOKEN_ENV } from './http/metrics-access';
export type { MetricsAccessDecision, MetricsAccessRule, MetricsProfile } from './http/metrics-access';
export { makeMetricsHandler } from './http/metrics-handler';
export type { MetricsHandler, MetricsHandlerOptions, MetricsLog } from './http/metrics-handler';
export { serveMetrics, resolveMetricsPort, METRICS_PORT_ENV } from './http/metrics-server';
export type { MetricsServer, ServeMetricsOptions } from './http/metrics-server';
export {
  injectTraceContext,
  extractTraceContext,
  formatSpanTraceContext,
  formatTraceContext,
  isUnsampledTraceContext,
  parseTraceContext,
  UNSAMPLED_TRACE_CONTEXT,
  unsampledSpanOf,
} from './tracing/trace-context';
export type { TraceCarrier } from './tracing/trace-context';
export { FW_TRACER_NAME, inMessagingSpan, messagingAttributes, startMessagingSpan } from './tracing/messaging-spans';
export type { FwSpanAttributes, MessagingOperation, MessagingSpanOptions } from './tracing/messaging-spans';
export { endSpan, inFwSpan, inSpanContext, isDroppedSpan, isTracingStarted } from './tracing/fw-span';
export type { TracedSpan } from './tracing/fw-span';
export {
  CHILDREN_INLINE_ENV,
  DEFAULT_CHILDREN_INLINE,
  childrenInlineThreshold,
  makeSplitChildSpanStarter,
  splitChildPlacement,
  startSplitChildSpan,
} from './tracing/split-children';
export type { SplitChildSpanOptions } from './tracing/split-children';
export {
  isKeptNewTraceContext,
  KEPT_NEW_TRACE_CONTEXT,
  newTraceSampling,
  registerNewTraceSampling,
} from './tracing/new-trace-sampling';
export type { NewTraceSampling } from './tracing/new-trace-sampling';
