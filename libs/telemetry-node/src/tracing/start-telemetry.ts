import { context, propagation, trace } from '@opentelemetry/api';
import { registerNewTraceSampling } from '@fw/telemetry';
import type { SpanExporter } from '@opentelemetry/sdk-trace-node';
import { readEnabledInstrumentations, type InstrumentationName } from '../instrumentation/enabled-instrumentations';
import { registeredInstrumentations } from '../instrumentation/register-instrumentations';
import { FwContextManager } from './fw-context-manager';
import { readTraceExportSettings, type OtlpProtocol } from './trace-export-settings';
import { makeTraceSampling, readTraceSamplerSettings } from './trace-sampler';

/** Options of {@link startTelemetry}. */
export interface StartTelemetryOptions {
  /** `service.name` when `OTEL_SERVICE_NAME` is not set, e.g. `fw-admin-server`. */
  serviceName?: string;
}

/** The tracing of a host, started or not. */
export interface Telemetry {
  /** Whether spans are exported. */
  readonly exporting: boolean;
  /** Why not, when not (`no OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_SDK_DISABLED is true`, …): for the host's start-up log. */
  readonly reason?: string;
  /** Where spans go, when exporting. */
  readonly url?: string;
  /** The instrumentations recording besides fw's own spans (`['pg']`), empty when none or not exporting. */
  readonly instrumentations: readonly InstrumentationName[];
  /** Sends the spans ended so far. */
  forceFlush(): Promise<void>;
  /** Sends what is left and stops; the global tracer is a no-op again afterwards. Idempotent. */
  shutdown(): Promise<void>;
}

let running = false;

async function makeExporter(protocol: OtlpProtocol, url: string): Promise<SpanExporter> {
  // Loaded on demand: a process without an endpoint never loads the SDK and exporters.
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter({ url });
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter({ url });
}

/**
 * Starts tracing for a host from the standard environment (see {@link readTraceExportSettings}):
 * with an OTLP endpoint, a Node tracer provider with a batch exporter (http/protobuf or http/json),
 * the W3C propagator and {@link FwContextManager} (the active context kept in `@fw/core`'s
 * `AsyncLocalStorage`, beside the request context), registered as the global ones that
 * `@opentelemetry/api` (and so every library) uses; `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`
 * describe the service, `OTEL_TRACES_SAMPLER` / `OTEL_TRACES_SAMPLER_ARG` choose the sampler.
 * Without an endpoint, or with `OTEL_SDK_DISABLED=true`, nothing is started or exported and
 * the answer says why. One running instance per process: a second start is an error. The
 * instrumentations `OTEL_NODE_ENABLED_INSTRUMENTATIONS` names must have been registered before
 * (`registerInstrumentationsFromEnv`, first thing in the entry point): their spans go to this SDK.
 *
 * @example
 * const telemetry = await startTelemetry({ serviceName: 'fw-worker-host' });
 * logger.info(telemetry.exporting ? `traces to ${telemetry.url}` : `no traces: ${telemetry.reason}`);
 * // … on shutdown:
 * await telemetry.shutdown();
 */
export async function startTelemetry(options: StartTelemetryOptions = {}): Promise<Telemetry> {
  const settings = readTraceExportSettings(process.env);
  const wanted = readEnabledInstrumentations(process.env);
  if (!settings.export) {
    const done = async (): Promise<void> => undefined;
    return { exporting: false, reason: settings.reason, instrumentations: [], forceFlush: done, shutdown: done };
  }
  const samplerSettings = readTraceSamplerSettings(process.env);
  if (running) throw new Error('startTelemetry: tracing is already started in this process (shut it down first)');
  const instrumentations = registeredInstrumentations();
  const missing = wanted.filter((name) => !instrumentations.includes(name));
  // Registering them now would be too late for modules already loaded: say so rather than
  // export traces silently missing what the variable asked for.
  if (missing.length > 0)
    throw new Error(
      `OTEL_NODE_ENABLED_INSTRUMENTATIONS turns on ${missing.join(', ')}, but registerInstrumentationsFromEnv() ` +
        'was not called: call it first in the entry point and load the rest of the host with import() after it',
    );
  running = true;
  try {
    // @fw/core loads pg: only now, after the instrumentations were registered.
    const [sdk, resources, core] = await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/resources'),
      import('@fw/core'),
    ]);
    const resource = resources
      .defaultResource()
      .merge(options.serviceName ? resources.resourceFromAttributes({ 'service.name': options.serviceName }) : null)
      .merge(resources.detectResources({ detectors: [resources.envDetector] }));
    const exporter = await makeExporter(settings.protocol, settings.url);
    const { sampler, newTraces } = makeTraceSampling(samplerSettings, sdk);
    const provider = new sdk.NodeTracerProvider({
      resource,
      sampler,
      spanProcessors: [new sdk.BatchSpanProcessor(exporter)],
    });
    provider.register({ contextManager: new FwContextManager(core) });
    if (newTraces) registerNewTraceSampling(provider, newTraces);
    let stopping: Promise<void> | undefined;
    const stop = async (): Promise<void> => {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
      running = false;
    };
    return {
      exporting: true,
      url: settings.url,
      instrumentations,
      forceFlush: () => provider.forceFlush(),
      shutdown: () => (stopping ??= stop()),
    };
  } catch (error) {
    running = false;
    throw error;
  }
}
