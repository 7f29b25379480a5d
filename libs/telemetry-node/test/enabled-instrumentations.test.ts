import { readEnabledInstrumentations, startTelemetry, SUPPORTED_INSTRUMENTATIONS } from '@fw/telemetry-node';

const VARIABLES = ['OTEL_NODE_ENABLED_INSTRUMENTATIONS', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_SDK_DISABLED'];

describe('readEnabledInstrumentations', () => {
  it('reads the comma-separated names of OTEL_NODE_ENABLED_INSTRUMENTATIONS, none when unset or empty', () => {
    expect(SUPPORTED_INSTRUMENTATIONS).toEqual(['pg']);
    expect(readEnabledInstrumentations({})).toEqual([]);
    expect(readEnabledInstrumentations({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: '' })).toEqual([]);
    expect(readEnabledInstrumentations({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: ' , ' })).toEqual([]);
    expect(readEnabledInstrumentations({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'pg' })).toEqual(['pg']);
    expect(readEnabledInstrumentations({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: ' pg ,pg,' })).toEqual(['pg']);
  });

  it('refuses names it does not support, naming them and the supported ones', () => {
    expect(() => readEnabledInstrumentations({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'pg,http,mysql2' })).toThrow(
      new RangeError(
        'OTEL_NODE_ENABLED_INSTRUMENTATIONS names "http", "mysql2", which fw hosts cannot instrument (supported: pg)',
      ),
    );
    // The package name is not the instrumentation's name in this variable.
    expect(() =>
      readEnabledInstrumentations({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: '@opentelemetry/instrumentation-pg' }),
    ).toThrow(RangeError);
    expect(() => readEnabledInstrumentations({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'PG' })).toThrow(
      'names "PG", which fw hosts cannot instrument (supported: pg)',
    );
  });
});

describe('startTelemetry and OTEL_NODE_ENABLED_INSTRUMENTATIONS', () => {
  const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
  beforeEach(() => {
    for (const name of VARIABLES) delete process.env[name];
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });

  it('refuses an unknown name even when nothing is exported', async () => {
    process.env.OTEL_NODE_ENABLED_INSTRUMENTATIONS = 'http';
    await expect(startTelemetry()).rejects.toThrow('names "http", which fw hosts cannot instrument');
  });

  it('refuses to export without the registration the variable asks for, saying where to call it', async () => {
    process.env.OTEL_NODE_ENABLED_INSTRUMENTATIONS = 'pg';
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:4318';
    await expect(startTelemetry()).rejects.toThrow(
      'OTEL_NODE_ENABLED_INSTRUMENTATIONS turns on pg, but registerInstrumentationsFromEnv() was not called: call ' +
        'it first in the entry point and load the rest of the host with import() after it',
    );
    // Not exporting, there is nothing to refuse.
    process.env.OTEL_SDK_DISABLED = 'true';
    await expect(startTelemetry()).resolves.toMatchObject({ exporting: false, instrumentations: [] });
  });
});
