/**
 * GET /metrics of a running admin server, scraped by a real Prometheus (Debian's
 * /usr/bin/prometheus, `apt-get install prometheus`) every second during a fan-out of N leaves run
 * by the server's own runner; then (PostgreSQL) beside a worker host in another OS process that
 * runs the fan-out and serves its own /metrics. The assertions are PromQL over what Prometheus
 * stored.
 */
import { createLogger } from '@fw/core';
import type { ProcessDef } from '@fw/process-api';
import {
  createTestDatabase,
  describeEachDatabase,
  postgresServerUrl,
  spawnScript,
  startPrometheus,
  type RunningPrometheus,
  type SpawnedScript,
  type TestDatabase,
} from '@fw/test-support';
import * as path from 'node:path';
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

/** Fires the fan-out through the administration API. */
async function triggerFanOut(url: string): Promise<void> {
  const triggered = await fetch(`${url}${API}/triggers`, {
    method: 'POST',
    headers: { ...headers(), 'content-type': 'application/json' },
    body: JSON.stringify({ payload: { processDefName: 'word-count', args: { text: TEXT } } }),
  });
  expect(triggered.status).toBeLessThan(300);
}

/** The values of `promql` (one series) each second from `start` to now. */
async function seriesSince(prometheus: RunningPrometheus, promql: string, start: number): Promise<number[]> {
  const [series] = await prometheus.queryRange(promql, { start, end: Math.ceil(Date.now() / 1000), stepSeconds: 1 });
  return series.values.map(([, v]) => Number(v));
}

/** The backlog rose above 0 and came back to 0, ending there. */
function expectRoseAndFell(values: number[]): void {
  const firstRise = values.findIndex((v) => v > 0);
  expect(firstRise).toBeGreaterThanOrEqual(0);
  expect(values.slice(firstRise).some((v) => v === 0)).toBe(true);
  expect(values[values.length - 1]).toBe(0);
}

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
    await triggerFanOut(url);

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
    expectRoseAndFell(await seriesSince(running, PENDING, start));

    const finished = await running.query('sum by (process_type, outcome) (fw_processes_finished_total)');
    expect(
      Object.fromEntries(finished.map((r) => [`${r.metric.process_type}/${r.metric.outcome}`, Number(r.value[1])])),
    ).toEqual({ 'word-count/success': 1, 'word-count-chunk/success': N });
    expect(await scalar(running, 'sum(fw_processes_created_total)')).toBe(N + 1);
    // The gauges were read, not left empty by a failed read.
    expect(warnings.filter((line) => line.includes('queue gauges'))).toEqual([]);
  }, 240_000);
});

/** A worker host in another OS process, serving its metrics on a port of its own. */
const WORKER_HOST = path.join(__dirname, 'fixtures', 'metrics-worker-host.ts');

// A worker host in another process needs a database both processes open: PostgreSQL only.
if (postgresServerUrl()) {
  describe('a worker host scraped beside the admin server during its fan-out [postgres]', () => {
    let testDb: TestDatabase;
    let server: AdminServer | undefined;
    let url: string;
    let workerHost: SpawnedScript | undefined;
    let prometheus: RunningPrometheus | undefined;

    beforeAll(async () => {
      testDb = await createTestDatabase('postgres');
      await seedDefinitions(testDb.database, FAN_OUT);
      // The admin server takes the trigger and reads the gauges; the worker host runs every step.
      server = await createAdminServer({
        config: { ...testConfig(testDb), metricsToken: TOKEN },
        database: testDb.database,
        ownerId: 'metrics-owner',
        exampleWorkers: false,
        outboxPollMillis: 200,
      });
      ({ url } = await server.listen());
      workerHost = spawnScript(WORKER_HOST, [testDb.url], { env: { FW_METRICS_TOKEN: TOKEN } });
      const [, workerMetrics] = await workerHost.waitFor(/METRICS (\S+)/, 60_000);
      prometheus = await startPrometheus([
        { name: 'fw-admin', target: new URL(url).host, bearerToken: TOKEN },
        { name: 'fw-worker', target: new URL(workerMetrics).host, bearerToken: TOKEN },
      ]);
    }, 120_000);
    afterAll(async () => {
      await prometheus?.stop();
      workerHost?.child.kill('SIGTERM');
      await workerHost?.exited;
      await server?.close();
      await testDb?.dispose();
    }, 60_000);

    it(`counts the N = ${N} leaves exactly on the worker host, and the backlog rising and falling`, async () => {
      const running = prometheus!;
      await eventually(
        async () => ((await running.targets()).filter((t) => t.health === 'up').length === 2 ? true : undefined),
        30_000,
        'Prometheus to scrape both hosts',
      );
      const start = Math.floor(Date.now() / 1000) - 2;
      await triggerFanOut(url);
      const leaves =
        'sum(fw_work_item_attempts_total{job="fw-worker",process_type="word-count-chunk",result="success"})';
      await eventually(
        async () => ((await scalar(running, leaves)) === N ? true : undefined),
        150_000,
        `Prometheus to store ${N} successful leaf attempts from the worker host (${workerHost?.output().slice(-500)})`,
      );
      await eventually(
        async () => ((await scalar(running, 'sum(fw_processes_finished_total)')) === N + 1 ? true : undefined),
        30_000,
        'the root finished too',
      );
      // Each host reads the gauges through its own 5-second cache and is scraped on its own: wait
      // until both have stored the backlog back at 0, not just the first.
      for (const job of ['fw-admin', 'fw-worker'])
        await eventually(
          async () =>
            (await scalar(running, `sum(fw_work_items{job="${job}",status="PENDING"}) or vector(0)`)) === 0
              ? true
              : undefined,
          30_000,
          `the pending work items back to 0 in the gauges of ${job}`,
        );
      // The backlog as both hosts read it from the database: it rose and fell in each.
      for (const job of ['fw-admin', 'fw-worker'])
        expectRoseAndFell(
          await seriesSince(running, `sum(fw_work_items{job="${job}",status="PENDING"}) or vector(0)`, start),
        );
      const byJob = async (promql: string) =>
        Object.fromEntries((await running.query(promql)).map((r) => [r.metric.job, Number(r.value[1])]));
      // The trigger and the root were the admin server's; the split's children and every finish the worker host's.
      expect(await byJob('sum by (job) (fw_triggers_fired_total)')).toEqual({ 'fw-admin': 1 });
      expect(await byJob('sum by (job) (fw_processes_created_total) > 0')).toEqual({ 'fw-admin': 1, 'fw-worker': N });
      expect(await byJob('sum by (job) (fw_processes_finished_total) > 0')).toEqual({ 'fw-worker': N + 1 });
      expect(await scalar(running, 'sum(fw_work_item_attempts_total{result!="success"}) or vector(0)')).toBe(0);
    }, 240_000);
  });
}
