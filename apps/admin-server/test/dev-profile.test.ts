import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { API, eventually, spawnHost, type Spawned } from './support';

/**
 * `--profile dev` end to end: the real host in an empty folder on a free port (PROCESS_ADMIN_PORT=0),
 * PGlite under ./.data/, schema applied, key generated and printed, the example triggered through the
 * API and run by the in-process workers, then a graceful SIGTERM.
 */
describe('admin server, dev profile (real process)', () => {
  let dir: string;
  let host: Spawned;
  let url: string;
  let key: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'fw-admin-dev-'));
    host = spawnHost(['--profile', 'dev'], { PROCESS_ADMIN_PORT: '0' }, dir);
    await eventually(async () => (/trigger the example/.test(host.stdout()) || host.child.exitCode !== null ? true : undefined), 80_000, 'the dev server to start');
    const listening = /listening on (http:\/\/\S+)/.exec(host.stdout());
    const printed = /API key \(generated\) \(stored in \.data[/\\]admin-api-key\): (\S+)/.exec(host.stdout());
    if (!listening || !printed) throw new Error(`dev server did not start: ${host.stdout()} ${host.stderr()}`);
    url = listening[1];
    key = printed[1];
  }, 90_000);

  afterAll(async () => {
    if (host && host.child.exitCode === null) {
      host.child.kill('SIGTERM');
      await host.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('prints the URL, the generated key (stored under ./.data/) and a curl for the example', () => {
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(path.join(dir, '.data', 'admin-api-key'), 'utf8').trim()).toBe(key);
    expect(host.stdout()).toContain(`curl -s -X POST ${url}/process-management/api/triggers -H 'X-Process-Management-Key: ${key}'`);
    expect(host.stderr()).not.toContain(key);
  });

  it('serves the minimal dashboard at / and protects everything else', async () => {
    const page = await request(url).get('/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('X-Process-Management-Key');
    expect((await request(url).get(`${API}/processes`).set('x-fw-tenant-id', 'demo')).status).toBe(401);
  });

  it('answers /info and /health-check (a real query on the PGlite database) without the key', async () => {
    const health = await request(url).get('/health-check');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ success: true, code: 200, payload: { healthy: true, checks: [{ name: 'process-database', healthy: true }] } });
    const info = await request(url).get('/info');
    expect(info.body.payload).toMatchObject({ name: 'admin-server', details: { profile: 'dev' }, services: ['process', 'process-management'] });
    expect((await request(url).get('/service-info/process')).body.payload.details).toMatchObject({ exampleWorkers: true });
  });

  it('runs the seeded word-count example and its successor report to PROCESSED', async () => {
    const auth = { 'X-Process-Management-Key': key, 'x-fw-tenant-id': 'demo' };
    const defs = await request(url).get(`${API}/definitions`).set(auth);
    expect(defs.body.content.map((d: { processType: string }) => d.processType)).toEqual(['word-count', 'word-count-chunk', 'word-count-report']);
    const text = Array.from({ length: 45 }, (_, i) => (i % 3 === 0 ? 'alpha' : i % 3 === 1 ? 'beta' : 'alpha')).join(' ');
    const triggered = await request(url).post(`${API}/triggers`).set(auth).send({ triggerId: 'dev-e2e', payload: { processDefName: 'word-count', args: { text } } });
    expect(triggered.body).toMatchObject({ triggerId: 'manual:demo:dev-e2e', dispatched: true, duplicate: false });
    const states = await eventually(async () => {
      const page = await request(url).get(`${API}/processes`).set(auth).query({ triggerId: 'manual:demo:dev-e2e' });
      const byType = new Map<string, string[]>();
      for (const p of page.body.content as Array<{ processType: string; status: string }>) byType.set(p.processType, [...(byType.get(p.processType) ?? []), p.status]);
      const report = byType.get('word-count-report');
      return report?.[0] === 'PROCESSED' ? byType : undefined;
    }, 45_000, 'the example and its report');
    expect(states.get('word-count')).toEqual(['PROCESSED']);
    expect(states.get('word-count-chunk')).toEqual(['PROCESSED', 'PROCESSED', 'PROCESSED']);
    const reportId = (await request(url).get(`${API}/processes`).set(auth).query({ processType: 'word-count-report', triggerId: 'manual:demo:dev-e2e' })).body.content[0].id as string;
    const report = await request(url).get(`${API}/processes/${reportId}`).set(auth);
    expect(report.body.output).toEqual({ totalWords: 45, distinctWords: 2, topWords: [{ word: 'alpha', count: 30 }, { word: 'beta', count: 15 }] });
    const trace = await request(url).get(`${API}/trace`).set(auth).query({ triggerId: 'manual:demo:dev-e2e' });
    expect(trace.body.edges.map((e: { kind: string }) => e.kind).sort()).toEqual(['EMITS', 'EMITS', 'EMITS', 'EMITS', 'EMITS', 'PROCESS_CREATE', 'SUBPROCESS', 'SUBPROCESS', 'SUBPROCESS', 'SUCCESSOR']);
  }, 60_000);

  it('shuts down gracefully on SIGTERM (exit 0)', async () => {
    host.child.kill('SIGTERM');
    expect(await host.exited).toBe(0);
  }, 30_000);
});
