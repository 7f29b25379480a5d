import { readTraceExportSettings } from '@fw/telemetry-node';

describe('readTraceExportSettings', () => {
  it('exports nothing without an endpoint, when disabled, or with OTEL_TRACES_EXPORTER=none', () => {
    expect(readTraceExportSettings({})).toEqual({ export: false, reason: 'no OTEL_EXPORTER_OTLP_ENDPOINT' });
    expect(
      readTraceExportSettings({ OTEL_SDK_DISABLED: 'TRUE', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }),
    ).toEqual({ export: false, reason: 'OTEL_SDK_DISABLED is true' });
    expect(
      readTraceExportSettings({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }),
    ).toEqual({ export: false, reason: 'OTEL_TRACES_EXPORTER is none' });
  });

  it('appends /v1/traces to the base endpoint, takes the traces endpoint as it is, http/protobuf by default', () => {
    expect(readTraceExportSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      export: true,
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
    });
    expect(
      readTraceExportSettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector/custom',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }),
    ).toEqual({ export: true, url: 'https://collector/custom', protocol: 'http/json' });
  });

  it('names the variable of a value it cannot honour', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(() => readTraceExportSettings({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      'OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json, got "grpc"',
    );
    expect(() => readTraceExportSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, got "collector:4318/v1/traces"',
    );
    expect(() => readTraceExportSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'not a url' })).toThrow(
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL',
    );
    expect(() => readTraceExportSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(
      'OTEL_TRACES_EXPORTER must be otlp or none, got "zipkin"',
    );
  });
});
