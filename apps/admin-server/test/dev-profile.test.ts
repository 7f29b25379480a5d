import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
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
    await eventually(
      async () =>
        /trigger the example[^\n]*\n\s+curl [^\n]*\n/.test(host.stdout()) || host.child.exitCode !== null
          ? true
          : undefined,
      80_000,
      'the dev server to start',
    );
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
    expect(host.stdout()).toContain(
      `curl -s -X POST ${url}/process-management/api/triggers -H 'X-Process-Management-Key: ${key}'`,
    );
    expect(host.stderr()).not.toContain(key);
  });

  it('serves the process dashboard at / and protects everything else', async () => {
    const page = await request(url).get('/');
    expect(page.status).toBe(200);
    // The built app's index, or (a checkout without `npm run build`) the page saying how to build it.
    expect(page.text).toMatch(/<div id="root"><\/div>|npm run build/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect((await request(url).get(`${API}/processes`).set('x-fw-tenant-id', 'demo')).status).toBe(401);
  });

  it('answers /info and /health-check (a real query on the PGlite database) without the key', async () => {
    const health = await request(url).get('/health-check');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({
      success: true,
      code: 200,
      payload: { healthy: true, checks: [{ name: 'process-database', healthy: true }] },
    });
    const info = await request(url).get('/info');
    expect(info.body.payload.services.map((s: { name: string; kind: string }) => `${s.name}:${s.kind}`)).toEqual([
      'process:process',
      'process-management:process',
      'support-ticket:workflow',
    ]);
    expect((await request(url).get('/service-info/process')).body.payload.details).toMatchObject({
      profile: 'dev',
      exampleWorkers: true,
    });
  });

  it('serves the support-ticket workflow behind the key: OPENED → ASSIGNED → RESOLVED → CLOSED, resolve on OPENED refused with 422, test cases listed', async () => {
    const auth = { 'X-Process-Management-Key': key, 'x-fw-tenant-id': 'demo' };
    expect((await request(url).post('/support-ticket').send({ title: 'no key' })).status).toBe(401);
    const created = await request(url).post('/support-ticket').set(auth).send({ title: 'printer' });
    expect(created.body.payload.mutatedEntity).toMatchObject({
      state: { stateId: 'OPENED' },
      tenant: 'demo',
      version: 1,
    });
    const id = created.body.payload.mutatedEntity.id as string;
    expect((await request(url).patch(`/support-ticket/${id}/resolve`).set(auth).send({})).status).toBe(422);
    for (const [event, state] of [
      ['assign', 'ASSIGNED'],
      ['resolve', 'RESOLVED'],
      ['close', 'CLOSED'],
    ]) {
      const res = await request(url).patch(`/support-ticket/${id}/${event}`).set(auth).send({});
      expect(res.body.payload.mutatedEntity.state.stateId).toBe(state);
    }
    const cases = await request(url).get('/support-ticket/info/flows/support-ticket/test-cases').set(auth);
    expect(cases.body.payload.map((c: { name: string }) => c.name)).toContain('assign → resolve → close');
    const doc = await request(url).get('/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/support-ticket', '/support-ticket/{id}/{eventId}']),
    );
  });

  it('serves /mcp behind the key: the SDK client lists the operations as tools and calls one', async () => {
    expect((await request(url).post('/mcp').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(401);
    const client = new Client({ name: 'dev-profile-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
        requestInit: { headers: { 'X-Process-Management-Key': key, 'x-fw-tenant-id': 'demo' } },
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining(['process__create', 'support-ticket__create', 'support-ticket__event']),
      );
      const created = await client.callTool({
        name: 'support-ticket__create',
        arguments: { title: 'opened by an agent' },
      });
      expect(created.isError).toBeFalsy();
      expect(JSON.parse((created.content as Array<{ text: string }>)[0].text).mutatedEntity).toMatchObject({
        state: { stateId: 'OPENED' },
        tenant: 'demo',
      });
    } finally {
      await client.close();
    }
  });

  it('runs the seeded word-count example and its successor report to PROCESSED', async () => {
    const auth = { 'X-Process-Management-Key': key, 'x-fw-tenant-id': 'demo' };
    const defs = await request(url).get(`${API}/definitions`).set(auth);
    expect(defs.body.content.map((d: { processType: string }) => d.processType)).toEqual([
      'word-count',
      'word-count-chunk',
      'word-count-report',
    ]);
    const text = Array.from({ length: 45 }, (_, i) => (i % 3 === 0 ? 'alpha' : i % 3 === 1 ? 'beta' : 'alpha')).join(
      ' ',
    );
    const triggered = await request(url)
      .post(`${API}/triggers`)
      .set(auth)
      .send({ triggerId: 'dev-e2e', payload: { processDefName: 'word-count', args: { text } } });
    expect(triggered.body).toMatchObject({ triggerId: 'manual:demo:dev-e2e', dispatched: true, duplicate: false });
    const states = await eventually(
      async () => {
        const page = await request(url).get(`${API}/processes`).set(auth).query({ triggerId: 'manual:demo:dev-e2e' });
        const byType = new Map<string, string[]>();
        for (const p of page.body.content as Array<{ processType: string; status: string }>)
          byType.set(p.processType, [...(byType.get(p.processType) ?? []), p.status]);
        const report = byType.get('word-count-report');
        return report?.[0] === 'PROCESSED' ? byType : undefined;
      },
      45_000,
      'the example and its report',
    );
    expect(states.get('word-count')).toEqual(['PROCESSED']);
    expect(states.get('word-count-chunk')).toEqual(['PROCESSED', 'PROCESSED', 'PROCESSED']);
    const reportId = (
      await request(url)
        .get(`${API}/processes`)
        .set(auth)
        .query({ processType: 'word-count-report', triggerId: 'manual:demo:dev-e2e' })
    ).body.content[0].id as string;
    const report = await request(url).get(`${API}/processes/${reportId}`).set(auth);
    expect(report.body.output).toEqual({
      totalWords: 45,
      distinctWords: 2,
      topWords: [
        { word: 'alpha', count: 30 },
        { word: 'beta', count: 15 },
      ],
    });
    const trace = await request(url).get(`${API}/trace`).set(auth).query({ triggerId: 'manual:demo:dev-e2e' });
    expect(trace.body.edges.map((e: { kind: string }) => e.kind).sort()).toEqual([
      'EMITS',
      'EMITS',
      'EMITS',
      'EMITS',
      'EMITS',
      'PROCESS_CREATE',
      'SUBPROCESS',
      'SUBPROCESS',
      'SUBPROCESS',
      'SUCCESSOR',
    ]);
  }, 60_000);

  it('shuts down gracefully on SIGTERM (exit 0)', async () => {
    host.child.kill('SIGTERM');
    expect(await host.exited).toBe(0);
  }, 30_000);
});
