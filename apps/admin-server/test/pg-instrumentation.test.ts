/**
 * OTEL_NODE_ENABLED_INSTRUMENTATIONS=pg on the real `fw-admin-server` process (dev profile on
 * PostgreSQL: the example workers run in it), exporting OTLP/JSON to a local receiver: the queries
 * of a triggered run are exported as postgresql spans, children of the fw spans they run in
 * (`fw.trigger`, `process fw_process_work_item`, `process fw_process_outbox`), all in the run's
 * trace; without the variable the same run exports fw's spans and no query; an unknown name stops
 * the server before it listens. PostgreSQL is the FW_TEST_DATABASE_URL server, else one started for
 * this file (PGlite does not go through node-postgres).
 */
import {
  createEmptyPostgresDatabase,
  exportedSpans,
  startOtlpReceiver,
  type ExportedSpan,
  type OtlpReceiver,
} from '@fw/test-support';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { API, eventually, headers, KEY, spawnHost, type Spawned } from './support';

/** The dev server on `databaseUrl` in an empty folder, exporting to `receiver`, with `env` added. */
async function startHost(
  dir: string,
  databaseUrl: string,
  receiver: OtlpReceiver,
  env: Record<string, string>,
): Promise<{ host: Spawned; url: string }> {
  const host = spawnHost(
    ['--profile', 'dev'],
    {
      PROCESS_DATABASE_URL: databaseUrl,
      PROCESS_ADMIN_PORT: '0',
      PROCESS_MANAGEMENT_API_KEY: KEY,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      FW_LOG_LEVEL: 'info',
      ...env,
    },
    dir,
  );
  const listening = await eventually(
    async () => {
      if (host.child.exitCode !== null) throw new Error(`the server exited: ${host.stdout()} ${host.stderr()}`);
      return /listening on (http:\/\/\S+)/.exec(host.stdout())?.[1];
    },
    80_000,
    'the dev server to listen',
  );
  return { host, url: listening };
}

/** Triggers the word-count example and waits until its root is PROCESSED. */
async function runWordCount(url: string, triggerId: string): Promise<void> {
  const triggered = await fetch(`${url}${API}/triggers`, {
    method: 'POST',
    headers: { ...headers(), 'content-type': 'application/json' },
    body: JSON.stringify({
      triggerId,
      payload: { processDefName: 'word-count', args: { text: 'to be or not to be' } },
    }),
  });
  expect(await triggered.json()).toMatchObject({ dispatched: true });
  await eventually(
    async () => {
      const query = new URLSearchParams({ triggerId: `manual:demo:${triggerId}`, processType: 'word-count' });
      const page = (await (await fetch(`${url}${API}/processes?${query}`, { headers: headers() })).json()) as {
        content?: { status: string }[];
      };
      return page.content?.[0]?.status === 'PROCESSED' ? true : undefined;
    },
    60_000,
    'the word count to finish',
  );
}

/** Stops the server with SIGTERM (its shutdown flushes the spans) and answers what it exported. */
async function stopAndCollect(host: Spawned, receiver: OtlpReceiver): Promise<ExportedSpan[]> {
  host.child.kill('SIGTERM');
  expect(await host.exited).toBe(0);
  return exportedSpans(receiver.received);
}

const isQuery = (span: ExportedSpan): boolean => span.attributes['db.system.name'] !== undefined;

describe('admin server with OTEL_NODE_ENABLED_INSTRUMENTATIONS (real process, PostgreSQL)', () => {
  let receiver: OtlpReceiver;
  let database: { url: string; dispose(): Promise<void> };
  let dir: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    database = await createEmptyPostgresDatabase();
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await database?.dispose();
  }, 60_000);
  beforeEach(() => {
    receiver.received.splice(0);
    dir = mkdtempSync(path.join(tmpdir(), 'fw-admin-pg-spans-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('=pg: the queries of a run are postgresql spans, children of the fw spans they run in', async () => {
    const { host, url } = await startHost(dir, database.url, receiver, { OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'pg' });
    expect(host.stdout()).toContain(`traces exported to ${receiver.endpoint}/v1/traces (instrumented: pg)`);
    await runWordCount(url, 'pg-spans');
    const spans = await stopAndCollect(host, receiver);

    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const parentName = (span: ExportedSpan): string | undefined => byId.get(span.parentSpanId ?? '')?.name;
    const queries = spans.filter(isQuery);
    const databaseName = new URL(database.url).pathname.slice(1);
    for (const query of queries) {
      expect(query.attributes).toMatchObject({ 'db.system.name': 'postgresql', 'db.namespace': databaseName });
      // Only inside a span: the pollers' claims between runs record nothing.
      expect(parentName(query)).toBeDefined();
    }
    const statementsUnder = (name: string): string[] =>
      queries.filter((q) => parentName(q) === name).map((q) => String(q.attributes['db.query.text']));
    expect(statementsUnder('fw.trigger')).toEqual(expect.arrayContaining([expect.stringMatching(/insert into/i)]));
    expect(statementsUnder('process fw_process_work_item')).toEqual(
      expect.arrayContaining([expect.stringMatching(/update "fw_process" set/), expect.stringMatching(/^commit$/)]),
    );
    expect(statementsUnder('process fw_process_outbox').length).toBeGreaterThan(0);

    // The run is one trace: the trigger's, queries included.
    const trigger = spans.find((s) => s.name === 'fw.trigger');
    const workItems = spans.filter((s) => s.name === 'process fw_process_work_item');
    expect(workItems.length).toBeGreaterThanOrEqual(3);
    for (const span of [...workItems, ...queries]) expect(span.traceId).toBe(trigger?.traceId);
    expect(queries[0].resource['service.name']).toBe('fw-admin-server');
  }, 150_000);

  it('unset: the same run exports fw spans and no query', async () => {
    const { host, url } = await startHost(dir, database.url, receiver, {});
    expect(host.stdout()).not.toContain('instrumented');
    await runWordCount(url, 'no-pg-spans');
    const spans = await stopAndCollect(host, receiver);
    expect(spans.filter((s) => s.name === 'process fw_process_work_item').length).toBeGreaterThanOrEqual(3);
    expect(spans.filter(isQuery)).toEqual([]);
  }, 150_000);

  it('an unknown name: one line naming it and the supported ones, exit 1, nothing listens', async () => {
    const host = spawnHost(
      ['--profile', 'dev'],
      {
        PROCESS_DATABASE_URL: database.url,
        PROCESS_ADMIN_PORT: '0',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'pg,mysql2',
      },
      dir,
    );
    expect(await host.exited).toBe(1);
    expect(host.stderr().trim()).toBe(
      'admin-server: cannot start: OTEL_NODE_ENABLED_INSTRUMENTATIONS names "mysql2", which fw hosts cannot ' +
        'instrument (supported: pg)',
    );
    expect(host.stdout()).not.toContain('listening');
  }, 60_000);
});
