/**
 * OTEL_NODE_ENABLED_INSTRUMENTATIONS=pg on the real `fw-query-host` process (the demo's mapper and
 * definitions over a PostgreSQL tenant), exporting OTLP/JSON to a local receiver: the statements of
 * a `POST /q/books` are exported as postgresql spans with their SQL (no span surrounds a request
 * here, so each is a trace of its own); without the variable, none; an unknown name stops the host
 * before it listens. PostgreSQL is the FW_TEST_DATABASE_URL server, else one started for this file
 * (PGlite does not go through node-postgres).
 */
import { createDatabase } from '@fw/core';
import {
  createEmptyPostgresDatabase,
  exportedSpans,
  startOtlpReceiver,
  type ExportedSpan,
  type OtlpReceiver,
} from '@fw/test-support';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEMO_DIR } from '../src';
import { seedTenant } from './support/host-fixture';

const ROOT = path.resolve(__dirname, '../../..');
const MAIN = path.join(ROOT, 'apps/query-host/src/main.ts');
const TSX_LOADER = pathToFileURL(require.resolve('tsx', { paths: [ROOT] })).href;

interface Host {
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

/** `node --import tsx main.ts --config FILE` with `env` added to a minimal environment. */
function spawnHost(configFile: string, env: Record<string, string>): Host {
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', FW_LOG_LEVEL: 'info' };
  const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN, '--config', configFile], {
    cwd: ROOT,
    env: { ...base, TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'), ...env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    }),
  );
  // Once it listens: one search, then SIGTERM (the shutdown flushes the spans).
  void (async () => {
    const until = Date.now() + 45_000;
    while (!/listening on (http:\/\/\S+)/.test(out) && child.exitCode === null && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    if (!url) return;
    const answer = await fetch(`${url}/q/books`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-fw-tenant-id': 'demo' },
      body: JSON.stringify({ filters: { title: 'the' }, numRowsInPage: 5 }),
    });
    out += `search answered ${answer.status}\n`;
    child.kill('SIGTERM');
  })();
  return { exited, stdout: () => out, stderr: () => err };
}

/** A PostgreSQL database holding the demo tenant's rows. */
async function demoDatabase(): Promise<{ url: string; dispose(): Promise<void> }> {
  const target = await createEmptyPostgresDatabase();
  const database = createDatabase({ url: target.url, maxConnections: 1 });
  try {
    await seedTenant(database, 'demo');
  } finally {
    await database.close();
  }
  return target;
}

const isQuery = (span: ExportedSpan): boolean => span.attributes['db.system.name'] !== undefined;

describe('query host with OTEL_NODE_ENABLED_INSTRUMENTATIONS (real process, PostgreSQL)', () => {
  let receiver: OtlpReceiver;
  let database: { url: string; dispose(): Promise<void> };
  let dir: string;
  let configFile: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    database = await demoDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'fw-query-pg-spans-'));
    configFile = path.join(dir, 'query-host.json');
    const config = {
      server: { port: 0, bindAddress: '127.0.0.1' },
      query: {
        defaultTenantId: null,
        datasources: { demo: { jdbcUrl: database.url, maximumPoolSize: 2 } },
        mapperFiles: path.join(DEMO_DIR, 'mappers/*.xml'),
        definitionFiles: path.join(DEMO_DIR, 'definitions/*.json'),
        pagination: { countQueryEnabled: true },
      },
    };
    writeFileSync(configFile, JSON.stringify(config));
  }, 120_000);
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await receiver?.close();
    await database?.dispose();
  }, 60_000);
  beforeEach(() => receiver.received.splice(0));

  const exporting = (): Record<string, string> => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  });

  it('=pg: the statements of a search are exported as postgresql spans with their SQL', async () => {
    const host = spawnHost(configFile, { ...exporting(), OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'pg' });
    expect(await host.exited).toBe(0);
    expect(host.stdout()).toContain('search answered 200');
    expect(host.stdout()).toContain('(instrumented: pg)');
    const spans = exportedSpans(receiver.received);
    const queries = spans.filter(isQuery);
    const statementSpans = queries.filter((q) => q.name.startsWith('pg.query'));
    const statements = statementSpans.map((q) => q.attributes['db.query.text']);
    // No span surrounds a request in this host: a statement is in a trace of the driver's own
    // spans, the root one or under the pool's connect.
    const names = new Map(spans.map((s) => [s.spanId, s.name]));
    for (const span of statementSpans)
      if (span.parentSpanId !== undefined) expect(names.get(span.parentSpanId)).toBe('pg-pool.connect');
    // The page and its count, both over the demo's book table.
    expect(statements.filter((sql) => /from\s+book/i.test(String(sql))).length).toBeGreaterThanOrEqual(2);
    for (const query of queries) {
      expect(query.attributes).toMatchObject({ 'db.system.name': 'postgresql' });
      expect(query.resource['service.name']).toBe('fw-query-host');
    }
  }, 90_000);

  it('unset: the same search exports no query', async () => {
    const host = spawnHost(configFile, exporting());
    expect(await host.exited).toBe(0);
    expect(host.stdout()).toContain('search answered 200');
    expect(exportedSpans(receiver.received).filter(isQuery)).toEqual([]);
  }, 90_000);

  it('an unknown name: one line naming it and the supported ones, exit 1, nothing listens', async () => {
    const host = spawnHost(configFile, { ...exporting(), OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http' });
    expect(await host.exited).toBe(1);
    expect(host.stderr().trim()).toBe(
      'query-host: cannot start: OTEL_NODE_ENABLED_INSTRUMENTATIONS names "http", which fw hosts cannot ' +
        'instrument (supported: pg)',
    );
    expect(host.stdout()).not.toContain('listening');
  }, 60_000);
});
