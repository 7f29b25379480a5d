import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { API, eventually, spawnHost, type Spawned } from './support';

/**
 * The dev profile stopped by SIGTERM in the middle of a tree (the example workers run in the
 * process): it exits 0 within the runner's drain (10 s) plus 2 s, and a second start on the same
 * ./.data finishes the tree, every chunk counted once — without waiting for a lease to expire.
 */
async function started(dir: string): Promise<{ host: Spawned; url: string; key: string }> {
  const host = spawnHost(['--profile', 'dev'], { PROCESS_ADMIN_PORT: '0' }, dir);
  await eventually(
    async () => (/trigger the example/.test(host.stdout()) || host.child.exitCode !== null ? true : undefined),
    80_000,
    'the dev server to start',
  );
  const listening = /listening on (http:\/\/\S+)/.exec(host.stdout());
  const printed = /API key[^:]*: ([0-9a-f]{64})/.exec(host.stdout());
  if (!listening || !printed) throw new Error(`dev server did not start: ${host.stdout()} ${host.stderr()}`);
  return { host, url: listening[1], key: printed[1] };
}

describe('admin server, dev profile, SIGTERM mid-tree and restart (real processes)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fw-admin-restart-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stops within the drain + 2 s and the restarted server completes the tree exactly once', async () => {
    const first = await started(dir);
    const auth = { 'X-Process-Management-Key': first.key, 'x-fw-tenant-id': 'demo' };
    // 3,000 words in chunks of 20: 150 chunk processes.
    const text = Array.from({ length: 3000 }, (_, i) => `w${i % 7}`).join(' ');
    const triggered = await request(first.url)
      .post(`${API}/triggers`)
      .set(auth)
      .send({ triggerId: 'restart', payload: { processDefName: 'word-count', args: { text } } });
    expect(triggered.body).toMatchObject({ dispatched: true });
    await new Promise((r) => setTimeout(r, 300));
    const signalled = Date.now();
    first.host.child.kill('SIGTERM');
    expect(await first.host.exited).toBe(0);
    const stopMillis = Date.now() - signalled;
    expect(stopMillis).toBeLessThan(10_000 + 2_000);

    const second = await started(dir);
    try {
      const auth2 = { ...auth, 'X-Process-Management-Key': second.key };
      const root = await eventually(
        async () => {
          const page = await request(second.url)
            .get(`${API}/processes`)
            .set(auth2)
            .query({ triggerId: 'manual:demo:restart', processType: 'word-count' });
          const p = page.body.content?.[0] as { id: string; status: string } | undefined;
          return p && (p.status === 'PROCESSED' || p.status === 'PROCESSED_WITH_ERRORS') ? p : undefined;
        },
        60_000,
        'the tree to finish on the restarted server',
      );
      expect(root.status).toBe('PROCESSED');
      const detail = await request(second.url).get(`${API}/processes/${root.id}`).set(auth2);
      expect(detail.body).toMatchObject({
        numSubProcesses: 150,
        numCompletedSubProcesses: 150,
        output: { totalWords: 3000, distinctWords: 7, chunks: 150 },
      });
      process.stdout.write(
        `dev profile: stopped ${stopMillis} ms after SIGTERM; the restarted server finished the tree\n`,
      );
    } finally {
      second.host.child.kill('SIGTERM');
      expect(await second.host.exited).toBe(0);
    }
  }, 150_000);
});
