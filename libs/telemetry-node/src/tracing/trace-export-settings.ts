/** The OTLP protocols this package exports with. */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** What the standard OTEL_* environment asks for traces. */
export type TraceExportSettings =
  { export: false; reason: string } | { export: true; url: string; protocol: OtlpProtocol };

function isTrue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === 'true';
}

function tracesUrl(env: NodeJS.ProcessEnv): { url: string; variable: string } | undefined {
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (specific) return { url: specific, variable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' };
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  // The general endpoint is a base URL; the signal's path is appended to it.
  if (base) return { url: `${base.replace(/\/+$/, '')}/v1/traces`, variable: 'OTEL_EXPORTER_OTLP_ENDPOINT' };
  return undefined;
}

/**
 * Reads the standard OpenTelemetry variables: `OTEL_SDK_DISABLED`, `OTEL_TRACES_EXPORTER`
 * (`otlp` or `none`), `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` / `OTEL_EXPORTER_OTLP_ENDPOINT` (no
 * endpoint: nothing is exported), `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` / `OTEL_EXPORTER_OTLP_PROTOCOL`
 * (`http/protobuf`, the default, or `http/json`). A value it cannot honour is an error naming
 * the variable (`grpc` among them: it would need the gRPC stack).
 */
export function readTraceExportSettings(env: NodeJS.ProcessEnv = process.env): TraceExportSettings {
  if (isTrue(env.OTEL_SDK_DISABLED)) return { export: false, reason: 'OTEL_SDK_DISABLED is true' };
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === 'none') return { export: false, reason: 'OTEL_TRACES_EXPORTER is none' };
  if (exporter && exporter !== 'otlp')
    throw new RangeError(`OTEL_TRACES_EXPORTER must be otlp or none, got ${JSON.stringify(exporter)}`);
  const target = tracesUrl(env);
  if (!target) return { export: false, reason: 'no OTEL_EXPORTER_OTLP_ENDPOINT' };
  let parsed: URL;
  try {
    parsed = new URL(target.url);
  } catch {
    throw new RangeError(`${target.variable} must be an http(s) URL, got ${JSON.stringify(target.url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new RangeError(`${target.variable} must be an http(s) URL, got ${JSON.stringify(target.url)}`);
  const protocolVariable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim()
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[protocolVariable]?.trim() || 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json')
    throw new RangeError(`${protocolVariable} must be http/protobuf or http/json, got ${JSON.stringify(protocol)}`);
  return { export: true, url: target.url, protocol };
}
