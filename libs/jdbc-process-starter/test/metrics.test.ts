import { makeJsonProcessConfigurator } from '@fw/process-service';
import { makeCachedGaugeSource, makeFwMetrics, type FwMetrics } from '@fw/telemetry';
import { describeEachDatabase, queryPlanOf } from '@fw/test-support';
import { sql } from 'kysely';
import {
  makeJdbcWorkerHost,
  makeQueueFiguresReader,
  makeWorkItemRunner,
  readWorkItemFigures,
  type WorkItemRunner,
} from '../src';
import { workItemFiguresStatement } from '../src/monitoring/work-item-figures';
import { AddParts, SplitSum, SUM_DEFINITIONS, SumPart } from './fixtures/sum-workers';
import { enqueue, itemOf, waitFor, workerDto } from './support';

/**
 * The fw_* series recorded by the engine, the runner and the worker host, on real parts: a
 * fan-out through `makeJdbcWorkerHost` (its own registry, served on its metrics port), a retry
 * and a DEAD item, a lease taken over from a runner that stopped renewing it, whose late
 * acknowledgement is then refused.
 */

/** The value of one series of `name` whose labels include `labels` (0 when absent). */
async function valueOf(registry: Registry, name: string, labels: Record<string, string>): Promise<number> {
  const metric = registry.getSingleMetric(name.replace(/_count$/, ''));
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  return values
    .filter(
      (v) =>
        (v as { metricName?: string }).metricName === undefined || (v as { metricName?: string }).metricName === name,
    )
    .filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
    .reduce((sum, v) => sum + v.value, 0);
}

type Registry = FwMetrics['registry'];

function freshMetrics(): FwMetrics {
  return makeFwMetrics(undefined, { defaultMetrics: false });
}

describeEachDatabase('fw_* metrics of the engine, the runner and the worker host', (getDb) => {
  const runners: WorkItemRunner[] = [];
  afterEach(async () => {
    for (const runner of runners.splice(0)) await runner.stop({ timeoutMillis: 1_000 });
  });

  it('counts a fan-out exactly and serves the series on the host metrics port', async () => {
    const numbers = [3, 1, 4, 1, 5];
    const host = makeJdbcWorkerHost({
      database: getDb().database,
      closeDatabase: false,
      // The leaves' definition limits them: the host's runner applies it, and its gauge shows it.
      configurator: makeJsonProcessConfigurator({
        definitions: SUM_DEFINITIONS.map((d) =>
          d.processType === 'sum-part' ? { ...d, concurrency: { perTenant: 3 } } : d,
        ),
      }),
      workers: [new SplitSum(), new SumPart(0), new AddParts()],
      recoverySeconds: 30,
      runner: { pollIntervalMillis: 50 },
      outbox: { pollIntervalMillis: 50 },
      metricsPort: 0,
      metricsProfile: 'dev',
    });
    const registry = host.metrics?.registry;
    if (!registry) throw new Error('a host with a metrics port has metrics');
    host.start();
    try {
      const { mutatedEntity } = await host.manager.createProcess(
        { processDefName: 'sum', args: { numbers } },
        { tenant: 'fan' },
      );
      const finished = (processType: string) =>
        valueOf(registry, 'fw_processes_finished_total', {
          tenant: 'fan',
          process_type: processType,
          outcome: 'success',
        });
      await waitFor(async () => (await finished('sum')) === 1, 30_000, 'the root finished');
      const root = (await host.manager.getProcess(mutatedEntity.id, { tenant: 'fan' })).mutatedEntity;
      expect(root.output).toEqual({ total: 14, parts: numbers.length });

      const leaves = { tenant: 'fan', process_type: 'sum-part' };
      const created =
        (await valueOf(registry, 'fw_processes_created_total', { tenant: 'fan', process_type: 'sum' })) +
        (await valueOf(registry, 'fw_processes_created_total', leaves));
      expect(created).toBe(numbers.length + 1);
      expect((await finished('sum')) + (await finished('sum-part'))).toBe(numbers.length + 1);
      expect(await valueOf(registry, 'fw_processes_finished_total', { tenant: 'fan', outcome: 'errors' })).toBe(0);
      expect(await valueOf(registry, 'fw_process_duration_seconds_count', { tenant: 'fan' })).toBe(numbers.length + 1);
      // The tree's work items: the split, one per leaf, the aggregation; each succeeded at its first
      // attempt. An item is acknowledged after its step's event committed, so the last ones may lag.
      const items = numbers.length + 2;
      const successes = () => valueOf(registry, 'fw_work_item_attempts_total', { tenant: 'fan', result: 'success' });
      await waitFor(async () => (await successes()) === items, 10_000, 'every work item acknowledged');
      expect(await valueOf(registry, 'fw_work_item_wait_seconds_count', { tenant: 'fan' })).toBe(items);
      expect(await valueOf(registry, 'fw_work_item_attempts_total', { tenant: 'fan', result: 'retry' })).toBe(0);
      expect(await valueOf(registry, 'fw_work_item_attempts_total', { ...leaves, result: 'success' })).toBe(
        numbers.length,
      );
      expect(await valueOf(registry, 'fw_work_item_wait_seconds_count', leaves)).toBe(numbers.length);

      const server = await host.metricsServer();
      if (!server) throw new Error('the host serves its metrics once started');
      const response = await fetch(server.url);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain(`fw_processes_created_total{tenant="fan",process_type="sum-part"} ${numbers.length}`);
      expect(text).toContain('# TYPE fw_work_items gauge');
      expect(text).toContain('# TYPE fw_outbox_lag_seconds gauge');
      expect(text).toContain('fw_work_item_concurrency_limit{process_type="sum-part",scope="tenant"} 3\n');
    } finally {
      await host.stop({ drainMillis: 1_000 });
    }
    const url = (await host.metricsServer())?.url ?? '';
    await expect(fetch(url)).rejects.toThrow();
  });

  it('counts a retry and a DEAD attempt', async () => {
    const metrics = freshMetrics();
    const worker = workerDto({ processType: 'metered-retry', tenant: 'r1' });
    await enqueue(getDb().database, [worker]);
    const runner = makeWorkItemRunner({
      database: getDb().database,
      handler: () => Promise.reject(new Error('always fails')),
      processTypes: ['metered-retry'],
      maxAttempts: 2,
      backoff: () => 0,
      pollIntervalMillis: 20,
      metrics,
    });
    runners.push(runner);
    runner.start();
    const labels = { tenant: 'r1', process_type: 'metered-retry', worker_type: 'EXECUTOR' };
    const dead = () => valueOf(metrics.registry, 'fw_work_item_attempts_total', { ...labels, result: 'dead' });
    await waitFor(async () => (await dead()) === 1, 10_000, 'the DEAD attempt');
    expect((await itemOf(getDb().database, worker.processId)).status).toBe('DEAD');
    expect(await valueOf(metrics.registry, 'fw_work_item_attempts_total', { ...labels, result: 'retry' })).toBe(1);
    expect(await valueOf(metrics.registry, 'fw_work_item_attempts_total', { ...labels, result: 'dead' })).toBe(1);
    expect(await valueOf(metrics.registry, 'fw_work_item_attempts_total', { ...labels, result: 'success' })).toBe(0);
    expect(await valueOf(metrics.registry, 'fw_work_item_wait_seconds_count', labels)).toBe(2);
  });

  it('counts a lease taken over from a runner that stopped renewing it, and that runner’s refused acknowledgement', async () => {
    const first = freshMetrics();
    const second = freshMetrics();
    const worker = workerDto({ processType: 'metered-lease', tenant: 'l1' });
    await enqueue(getDb().database, [worker]);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    const common = { database: getDb().database, processTypes: ['metered-lease'], pollIntervalMillis: 20 };
    const stalled = makeWorkItemRunner({
      ...common,
      // No renewals: the lease runs out while the handler still runs (a frozen or cut-off runner).
      heartbeat: false,
      leaseSeconds: 0.3,
      coalesceAcks: false,
      handler: async () => {
        started = true;
        await held;
      },
      metrics: first,
    });
    runners.push(stalled);
    stalled.start();
    await waitFor(() => started, 10_000, 'the first runner started the item');
    const taking = makeWorkItemRunner({ ...common, handler: async () => undefined, metrics: second });
    runners.push(taking);
    taking.start();
    const labels = { tenant: 'l1', process_type: 'metered-lease', worker_type: 'EXECUTOR' };
    const succeeded = () => valueOf(second.registry, 'fw_work_item_attempts_total', { ...labels, result: 'success' });
    await waitFor(async () => (await succeeded()) === 1, 10_000, 'the take-over to succeed');
    expect((await itemOf(getDb().database, worker.processId)).status).toBe('SUCCESS');
    release();
    await waitFor(() => stalled.stats().staleAcks === 1, 10_000, 'the stale acknowledgement');

    expect(await valueOf(second.registry, 'fw_lease_expiries_total', labels)).toBe(1);
    expect(await valueOf(second.registry, 'fw_work_item_attempts_total', { ...labels, result: 'success' })).toBe(1);
    // The take-over is an expiry, not a wait from due to claim.
    expect(await valueOf(second.registry, 'fw_work_item_wait_seconds_count', labels)).toBe(0);
    expect(await valueOf(first.registry, 'fw_stale_acks_total', labels)).toBe(1);
    expect(await valueOf(first.registry, 'fw_work_item_attempts_total', labels)).toBe(0);
    expect(await valueOf(first.registry, 'fw_lease_expiries_total', labels)).toBe(0);
  });

  it('shows the limits a runner applies and counts the claims they held back, by limit', async () => {
    const database = getDb().database;
    const metrics = freshMetrics();
    const items = (processType: string, n: number) =>
      Array.from({ length: n }, (_, i) => workerDto({ tenant: 'lim', processType, input: { i } }));
    await enqueue(database, [...items('capped', 6), ...items('rated', 6), ...items('free', 3)]);
    let running = 0;
    let most = 0;
    const runner = makeWorkItemRunner({
      database,
      metrics,
      concurrency: 10,
      pollIntervalMillis: 20,
      limits: {
        capped: { concurrency: { perTenant: 2 } },
        rated: { rateLimit: { perSecond: 2, scope: 'global' } },
      },
      handler: async (worker) => {
        if (worker.processType !== 'capped') return;
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 100));
        running--;
      },
    });
    runners.push(runner);
    runner.start();
    await waitFor(() => runner.stats().completed === 15, 30_000, 'every item done');
    expect(most).toBe(2);

    const registry = metrics.registry;
    const limited = (labels: Record<string, string>) =>
      valueOf(registry, 'fw_work_item_claims_limited_total', { tenant: 'lim', ...labels });
    expect(await valueOf(registry, 'fw_work_item_concurrency_limit', { process_type: 'capped', scope: 'tenant' })).toBe(
      2,
    );
    expect(
      await valueOf(registry, 'fw_work_item_rate_limit_per_second', { process_type: 'rated', scope: 'global' }),
    ).toBe(2);
    // Six items two at a time, six at two a second: claims found both limits reached.
    expect(await limited({ process_type: 'capped', limit: 'concurrency' })).toBeGreaterThan(0);
    expect(await limited({ process_type: 'rated', limit: 'rate' })).toBeGreaterThan(0);
    expect(await limited({ process_type: 'capped', limit: 'rate' })).toBe(0);
    expect(await limited({ process_type: 'rated', limit: 'concurrency' })).toBe(0);
    expect(await limited({ process_type: 'free' })).toBe(0);
    const text = await registry.metrics();
    expect(text).toMatch(/^fw_work_item_wait_seconds_count\{[^}]*process_type="free"/m);
    expect(text).not.toMatch(
      /^fw_work_item_(concurrency_limit|rate_limit_per_second|claims_limited_total)\{[^}]*"free"/m,
    );
  });

  it('reads the queue gauges in one grouped statement through the cached source', async () => {
    const workers = [
      workerDto({ processType: 'metered-gauge', tenant: 'g1' }),
      workerDto({ processType: 'metered-gauge', tenant: 'g1' }),
      workerDto({ processType: 'metered-gauge', tenant: null }),
    ];
    await enqueue(getDb().database, workers);
    const figures = await readWorkItemFigures(getDb().database);
    const pending = figures.workItems.filter((w) => w.processType === 'metered-gauge');
    expect(pending).toEqual(
      expect.arrayContaining([
        { tenant: 'g1', processType: 'metered-gauge', workerType: 'EXECUTOR', status: 'PENDING', count: 2 },
        { tenant: null, processType: 'metered-gauge', workerType: 'EXECUTOR', status: 'PENDING', count: 1 },
      ]),
    );
    let reads = 0;
    const reader = makeQueueFiguresReader(getDb().database);
    const metrics = makeFwMetrics(undefined, {
      defaultMetrics: false,
      gaugeSource: makeCachedGaugeSource({ readFigures: () => (reads++, reader.readFigures()) }),
    });
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'fw_work_items{tenant="g1",process_type="metered-gauge",worker_type="EXECUTOR",status="PENDING"} 2',
    );
    expect(text).toMatch(
      /fw_work_item_oldest_due_age_seconds\{tenant="",process_type="metered-gauge",worker_type="EXECUTOR"\} [\d.e-]+/,
    );
    await metrics.registry.metrics();
    expect(reads).toBe(1);
  });

  it("reads the queue gauges through the statuses' partial indexes, never past the finished items", async () => {
    const db = getDb().database.db;
    await sql`insert into fw_process_work_item (idempotency_key, process_id, process_type, worker_type, payload, status, finished_at)
              select 'gauge-plan-' || g, gen_random_uuid(), 'gauge-plan', 'EXECUTOR', '{}'::jsonb, 'SUCCESS', now()
                from generate_series(1, 20000) g`.execute(db);
    await sql`analyze fw_process_work_item`.execute(db);
    const plan = await queryPlanOf(db, workItemFiguresStatement());
    expect(plan).not.toContain('Seq Scan');
    // One partial index per status (which one the planner takes for PENDING depends on its statistics).
    expect(plan).toContain('BitmapOr');
    expect(plan.match(/Bitmap Index Scan on \w+/g)).toHaveLength(3);
    // The finished items stay out of the figures.
    const figures = await readWorkItemFigures(getDb().database);
    expect(figures.workItems.filter((w) => w.processType === 'gauge-plan')).toEqual([]);
  });
});
