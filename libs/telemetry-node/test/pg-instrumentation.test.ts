/**
 * OTEL_NODE_ENABLED_INSTRUMENTATIONS=pg in real child processes on a real PostgreSQL (the
 * FW_TEST_DATABASE_URL server, else one started for this file): the queries of node-postgres are
 * exported over OTLP/JSON as spans, children of the span they run in; without the variable (or
 * without an endpoint) nothing is instrumented nor loaded; an unknown name, or pg loaded before the
 * registration, stops the process with a message saying what to do.
 */
import {
  exportedSpans,
  postgresServerUrl,
  spawnScript,
  startOtlpReceiver,
  startPrivatePostgres,
  type ExportedSpan,
  type OtlpReceiver,
  type PrivatePostgres,
} from '@fw/test-support';
import * as path from 'node:path';

const FIXTURES = path.join(__dirname, 'fixtures');

interface FixtureAnswer {
  registered: { enabled: string[]; reason?: string };
  instrumentations: string[];
  loaded: boolean;
}

describe('pg instrumentation turned on by OTEL_NODE_ENABLED_INSTRUMENTATIONS (real processes, PostgreSQL)', () => {
  let receiver: OtlpReceiver;
  let privatePostgres: PrivatePostgres | undefined;
  let databaseUrl: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const shared = postgresServerUrl();
    if (shared) databaseUrl = shared;
    else {
      privatePostgres = await startPrivatePostgres();
      databaseUrl = privatePostgres.url;
    }
  }, 60_000);
  afterAll(async () => {
    await receiver.close();
    await privatePostgres?.stop();
  });
  beforeEach(() => receiver.received.splice(0));

  /** Runs the query fixture with `env`; its one JSON line and the spans the receiver got. */
  async function runQueries(
    env: Record<string, string>,
    args: readonly string[] = [],
  ): Promise<{ answer: FixtureAnswer; spans: ExportedSpan[] }> {
    const run = spawnScript(path.join(FIXTURES, 'traced-pg-queries.ts'), [databaseUrl, ...args], {
      env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_NODE_ENABLED_INSTRUMENTATIONS: '', ...env },
    });
    const [line] = await run.waitFor(/^\{.*\}$/m, 30_000);
    expect(await run.exited).toBe(0);
    return { answer: JSON.parse(line) as FixtureAnswer, spans: exportedSpans(receiver.received) };
  }

  const turnedOn = (): Record<string, string> => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_NODE_ENABLED_INSTRUMENTATIONS: ' pg ',
  });

  it('exports the queries run inside a span as postgresql spans, its children, and no others', async () => {
    const { answer, spans } = await runQueries(turnedOn());
    expect(answer).toEqual({ registered: { enabled: ['pg'] }, instrumentations: ['pg'], loaded: true });
    const parent = spans.find((s) => s.name === 'fixture.parent');
    const queries = spans.filter((s) => s.name.startsWith('pg.query'));
    expect(parent).toBeDefined();
    expect(queries).toHaveLength(1);
    expect(queries[0]).toMatchObject({
      // `pg.query:<operation> <database>`
      name: `pg.query:SELECT ${new URL(databaseUrl).pathname.slice(1)}`,
      traceId: parent?.traceId,
      parentSpanId: parent?.spanId,
      attributes: {
        'db.system.name': 'postgresql',
        'db.query.text': 'select $1::int as inside_span',
        'server.address': '127.0.0.1',
      },
    });
    // Connecting outside a span records nothing either: every pg span is in the parent's trace.
    for (const span of spans.filter((s) => s.attributes['db.system.name'] !== undefined))
      expect(span.traceId).toBe(parent?.traceId);
    expect(spans[0].resource['service.name']).toBe('fw-pg-fixture');
  }, 60_000);

  it('with requireParentSpan false, a query outside any span is a trace of its own', async () => {
    const { spans } = await runQueries(turnedOn(), ['--without-parent-spans']);
    const parent = spans.find((s) => s.name === 'fixture.parent');
    const queries = spans.filter((s) => s.name.startsWith('pg.query'));
    expect(queries.map((s) => s.attributes['db.query.text'])).toEqual([
      'select $1::int as inside_span',
      'select 2 as outside_span',
    ]);
    const [inside, outside] = queries;
    expect(inside).toMatchObject({ traceId: parent?.traceId, parentSpanId: parent?.spanId });
    expect(outside.parentSpanId).toBeUndefined();
    expect(outside.traceId).not.toBe(parent?.traceId);
    expect(outside.attributes).toMatchObject({ 'db.system.name': 'postgresql' });
  }, 60_000);

  it('instruments nothing and loads nothing without the variable, or without an endpoint', async () => {
    const unset = await runQueries({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
    expect(unset.answer).toEqual({
      registered: { enabled: [], reason: 'OTEL_NODE_ENABLED_INSTRUMENTATIONS is not set' },
      instrumentations: [],
      loaded: false,
    });
    // The span of the fixture itself is exported: only the queries are not.
    expect(unset.spans.map((s) => s.name)).toEqual(['fixture.parent']);

    receiver.received.splice(0);
    const noEndpoint = await runQueries({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'pg' });
    expect(noEndpoint.answer).toEqual({
      registered: { enabled: [], reason: 'traces not exported: no OTEL_EXPORTER_OTLP_ENDPOINT' },
      instrumentations: [],
      loaded: false,
    });
    expect(noEndpoint.spans).toEqual([]);
  }, 60_000);

  it('stops on a name it does not support, saying which ones it does', async () => {
    const run = spawnScript(path.join(FIXTURES, 'traced-pg-queries.ts'), [databaseUrl], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'pg,http' },
    });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain(
      'OTEL_NODE_ENABLED_INSTRUMENTATIONS names "http", which fw hosts cannot instrument (supported: pg)',
    );
    expect(receiver.received).toEqual([]);
  }, 60_000);

  it('refuses to register once pg is loaded, since its queries would silently go untraced', async () => {
    const run = spawnScript(path.join(FIXTURES, 'pg-loaded-first.ts'), [], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'pg' },
    });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain(
      'pg was loaded before registerInstrumentationsFromEnv(), so its calls would not be traced: call it first in ' +
        'the entry point and load the rest with import() after it',
    );
  }, 60_000);
});
