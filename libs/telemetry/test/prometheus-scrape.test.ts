import { Registry } from 'prom-client';
import { makeFwMetrics, serveMetrics, type MetricsServer } from '@fw/telemetry';
import { startPrometheus, type RunningPrometheus } from '@fw/test-support';

/** Polls `check` until it returns a value or the time is up (Prometheus scrapes every second). */
async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  prometheus: RunningPrometheus,
): Promise<T> {
  const deadline = Date.now() + 45_000;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const targets = await prometheus.targets().catch((e: unknown) => String(e));
  throw new Error(
    `${what} did not happen in 45 s (${String(last)})\ntargets: ${JSON.stringify(targets)}\n${prometheus.output()}`,
  );
}

describe('a real Prometheus scrapes serveMetrics', () => {
  const servers: MetricsServer[] = [];
  let prometheus: RunningPrometheus | undefined;

  afterAll(async () => {
    await prometheus?.stop();
    for (const server of servers) await server.close();
  });

  it('reads the recorded value with the bearer token, is refused without it, and reads an open dev endpoint', async () => {
    const guarded = makeFwMetrics(new Registry());
    const open = makeFwMetrics(new Registry(), { defaultMetrics: false });
    for (let i = 0; i < 3; i++) guarded.processCreated({ tenant: 'acme', processType: 'invoice' });
    open.processCreated({ tenant: 'globex', processType: 'shipping' });
    const token = 'prometheus-scrape-token';
    const common = { port: 0, bindAddress: '127.0.0.1' };
    servers.push(await serveMetrics({ ...common, registry: guarded.registry, profile: 'production', token }));
    servers.push(await serveMetrics({ ...common, registry: open.registry, profile: 'dev', token: '' }));
    const [guardedTarget, openTarget] = servers.map((s) => `127.0.0.1:${s.port}`);
    prometheus = await startPrometheus([
      { name: 'with-token', target: guardedTarget, bearerToken: token },
      { name: 'without-token', target: guardedTarget },
      { name: 'open-dev', target: openTarget },
    ]);
    const running = prometheus;

    const samples = await eventually(
      'both values scraped',
      async () => {
        const result = await running.query('fw_processes_created_total');
        return result.length === 2 ? result : undefined;
      },
      running,
    );
    const byJob = Object.fromEntries(samples.map((s) => [s.metric.job, s]));
    expect(byJob['with-token'].metric).toMatchObject({ tenant: 'acme', process_type: 'invoice' });
    expect(byJob['with-token'].value[1]).toBe('3');
    expect(byJob['open-dev'].metric).toMatchObject({ tenant: 'globex', process_type: 'shipping' });
    expect(byJob['open-dev'].value[1]).toBe('1');

    const health = await eventually(
      'every target scraped once',
      async () => {
        const targets = await running.targets();
        return targets.length === 3 && targets.every((t) => t.health !== 'unknown') ? targets : undefined;
      },
      running,
    );
    const targetOf = Object.fromEntries(health.map((t) => [t.labels.job, t]));
    expect(targetOf['with-token'].health).toBe('up');
    expect(targetOf['open-dev'].health).toBe('up');
    expect(targetOf['without-token'].health).toBe('down');
    expect(targetOf['without-token'].lastError).toContain('401');
    const up = await running.query('up');
    expect(Object.fromEntries(up.map((s) => [s.metric.job, s.value[1]]))).toEqual({
      'with-token': '1',
      'without-token': '0',
      'open-dev': '1',
    });
    // prom-client's default series came through the guarded endpoint too.
    expect((await running.query('nodejs_heap_size_total_bytes{job="with-token"}')).length).toBe(1);
  });
});
