// Public entry point of @fw/telemetry-node. Every export is listed explicitly.
export { startTelemetry } from './tracing/start-telemetry';
export type { StartTelemetryOptions, Telemetry } from './tracing/start-telemetry';
export { FwContextManager } from './tracing/fw-context-manager';
export type { TracingContextStorage } from './tracing/fw-context-manager';
export { readTraceExportSettings } from './tracing/trace-export-settings';
export type { OtlpProtocol, TraceExportSettings } from './tracing/trace-export-settings';
export { makeTraceSampling, readTraceSamplerSettings, TRACE_SAMPLER_NAMES } from './tracing/trace-sampler';
export type { TraceSamplerName, TraceSamplerSettings, TraceSampling } from './tracing/trace-sampler';
export { readEnabledInstrumentations, SUPPORTED_INSTRUMENTATIONS } from './instrumentation/enabled-instrumentations';
export type { InstrumentationName } from './instrumentation/enabled-instrumentations';
export { registerInstrumentationsFromEnv } from './instrumentation/register-instrumentations';
export type {
  RegisteredInstrumentations,
  RegisterInstrumentationsOptions,
} from './instrumentation/register-instrumentations';
