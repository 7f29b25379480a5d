/**
 * GET /metrics of a running admin server, scraped by a real Prometheus (Debian's
 * /usr/bin/prometheus, `apt-get install prometheus`) every second during a fan-out of N leaves run
 * by the server's own runner; the assertions are PromQL over what Prometheus stored.
 */
import { createLogger } from '@fw/core';
import type { ProcessDef } from '@fw/process-api';
import { describeEachDatabase, startPrometheus, type RunningPrometheus } from '@fw/test-support';
import { createAdminServer, seedDefinitions, type AdminServer } from '../src';
import { API, eventually, headers, testConfig } from './support';

const N = 200;
const TOKEN = 'prometheus-scrape-token-7f3a';
/**
 * The example's splitter and counter with one word per chunk, and no successor: N leaves and their
 * root. The leaves start at most 25 a second (the definition's rate limit), so the backlog lasts
 * about 8 s however fast the machine is: longer than the gauges' 5 s cache and the 1 s scrape.
 */
const FAN_OUT: readonly ProcessDef[] = [
  { processType: 'word-count', leaf: false, config: { chunkWords: '1' } },
  {
    processType: 'word-count-chunk',
    leaf: true,
    parentProcessType: 'word-count',
    rateLimit: { perSecond: 25, scope: 'global' },
  },
];
const TEXT = Array.from({ length: N }, (_, i) => `w${i}`).join(' ');
const PENDING = 'sum(fw_work_items{status="PENDING"}) or vector(0)';

/** Number of the single value of an instant query (0 rows: undefined). */
async function scalar(prometheus: RunningPrometheus, promql: string): Promise<number | undefined> {
  const rows = await prometheus.query(promql);
  return rows.length === 0 ? undefined : Number(rows[0].value[1]);
}

describeEachDatabase('admin server metrics scraped by a real Prometheus', (getDb) => {
  let server: AdminServer;
  let url: string;
  let prometheus: RunningPrometheus | undefined;
  const warnings: string[] = [];

  beforeAll(async () => {
    const testDb = getDb();
    await seedDefinitions(testDb.database, FAN_OUT);
    const logger = createLogger({
      name: 'admin-server',
      level: 'warn',
      destination: { write: (line: string) => void warnings.push(line) },
    });
    server = await createAdminServer({
      config: { ...testConfig(testDb), metricsToken: TOKEN },
      database: testDb.database,
      ownerId: 'metrics-owner',
      exampleWorkers: true,
      outboxPollMillis: 200,
      logger,
    });
    ({ url } = await server.listen());
    prometheus = await startPrometheus([{ name: 'fw-admin', target: new URL(url).host, bearerToken: TOKEN }]);
  }, 60_000);
  afterAll(async () => {
    await prometheus?.stop();
    await server?.close();
  }, 60_000);

  it('answers /metrics with the token only (not with the management key)', async () => {
    const open = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(open.status).toBe(200);
    expect(open.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await open.text();
    for (const series of ['fw_processes_finished_total', 'fw_work_items', 'fw_outbox_lag_seconds'])
      expect(text).toContain(`# TYPE ${series} `);
    const refused = await fetch(`${url}/metrics`, { headers: headers() });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect((await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
  });

  it(`stores fw_work_items{status="PENDING"} rising and back to 0, and N+1 = ${N + 1} finished processes`, async () => {
    const running = prometheus!;
    await eventually(
      async () => ((await running.targets()).some((t) => t.health === 'up') ? true : undefined),
      30_000,
      'Prometheus to scrape the server',
    );
    const start = Math.floor(Date.now() / 1000) - 2;
    const triggered = await fetch(`${url}${API}/triggers`, {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/json' },
      body: JSON.stringify({ payload: { processDefName: 'word-count', args: { text: TEXT } } }),
    });
    expect(triggered.status).toBeLessThan(300);

    await eventually(
      async () => ((await scalar(running, 'sum(fw_processes_finished_total)')) === N + 1 ? true : undefined),
      150_000,
      `Prometheus to store ${N + 1} finished processes`,
    );
    await eventually(
      async () => ((await scalar(running, PENDING)) === 0 ? true : undefined),
      30_000,
      'the pending work items back to 0 in Prometheus',
    );
    const end = Math.ceil(Date.now() / 1000);

    const [pending] = await running.queryRange(PENDING, { start, end, stepSeconds: 1 });
    const values = pending.values.map(([, v]) => Number(v));
    const firstRise = values.findIndex((v) => v > 0);
    expect(firstRise).toBeGreaterThanOrEqual(0);
    expect(values.slice(firstRise).some((v) => v === 0)).toBe(true);
    expect(values[values.length - 1]).toBe(0);

    const finished = await running.query('sum by (process_type, outcome) (fw_processes_finished_total)');
    expect(
      Object.fromEntries(finished.map((r) => [`${r.metric.process_type}/${r.metric.outcome}`, Number(r.value[1])])),
    ).toEqual({ 'word-count/success': 1, 'word-count-chunk/success': N });
    expect(await scalar(running, 'sum(fw_processes_created_total)')).toBe(N + 1);
    // The gauges were read, not left empty by a failed read.
    expect(warnings.filter((line) => line.includes('queue gauges'))).toEqual([]);
  }, 240_000);
});
