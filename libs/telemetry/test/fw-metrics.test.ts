import { Registry } from 'prom-client';
import { makeCachedGaugeSource, makeFwMetrics, type QueueFigures } from '@fw/telemetry';

const SERIES = [
  ['fw_processes_created_total', 'counter'],
  ['fw_processes_finished_total', 'counter'],
  ['fw_process_duration_seconds', 'histogram'],
  ['fw_work_items', 'gauge'],
  ['fw_work_item_wait_seconds', 'histogram'],
  ['fw_work_item_oldest_due_age_seconds', 'gauge'],
  ['fw_work_item_attempts_total', 'counter'],
  ['fw_lease_expiries_total', 'counter'],
  ['fw_stale_acks_total', 'counter'],
  ['fw_outbox_commands', 'gauge'],
  ['fw_outbox_lag_seconds', 'gauge'],
  ['fw_triggers_fired_total', 'counter'],
  ['fw_query_duration_seconds', 'histogram'],
  ['fw_work_item_concurrency_limit', 'gauge'],
  ['fw_work_item_rate_limit_per_second', 'gauge'],
  ['fw_work_item_claims_limited_total', 'counter'],
] as const;

const FIGURES: QueueFigures = {
  workItems: [
    { tenant: 'acme', processType: 'invoice', workerType: 'mailer', status: 'PENDING', count: 4 },
    { tenant: 'acme', processType: 'invoice', workerType: 'mailer', status: 'DEAD', count: 1 },
  ],
  oldestDueWorkItems: [{ tenant: 'acme', processType: 'invoice', workerType: 'mailer', ageSeconds: 12.5 }],
  outboxCommands: [{ tenant: null, status: 'RUNNING', count: 2 }],
  outboxLag: [{ tenant: 'acme', ageSeconds: 3 }],
};

describe('makeFwMetrics', () => {
  it('declares every fw_* series with HELP and TYPE before any sample, and the default process/nodejs series', async () => {
    const metrics = makeFwMetrics();
    const text = await metrics.registry.metrics();
    for (const [name, type] of SERIES) {
      expect(text).toContain(`# HELP ${name} `);
      expect(text).toContain(`# TYPE ${name} ${type}\n`);
      expect(text).not.toMatch(new RegExp(`^${name}(_bucket|_sum|_count)?\\{`, 'm'));
    }
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_heap_size_total_bytes /m);
  });

  it('records each event under its labels', async () => {
    const metrics = makeFwMetrics(new Registry(), { defaultMetrics: false });
    const acme = { tenant: 'acme', processType: 'invoice' };
    metrics.processCreated(acme);
    metrics.processCreated(acme);
    metrics.processCreated({ processType: 'invoice' });
    metrics.processFinished({ ...acme, outcome: 'errors', durationSeconds: 7 });
    metrics.workItemClaimed({ ...acme, workerType: 'mailer', waitSeconds: 0.2 });
    metrics.workItemAttempt({ ...acme, workerType: 'mailer', result: 'retry' });
    metrics.leaseExpired({ ...acme, workerType: 'mailer' }, 3);
    metrics.staleAck({ ...acme, workerType: 'mailer' });
    metrics.triggerFired({ ...acme, source: 'CRON' });
    metrics.queryExecuted({ tenant: 'acme', query: 'books.by-author', durationSeconds: 0.004 });
    const text = await metrics.registry.metrics();
    expect(text).toContain('fw_processes_created_total{tenant="acme",process_type="invoice"} 2\n');
    expect(text).toContain('fw_processes_created_total{tenant="",process_type="invoice"} 1\n');
    expect(text).toContain('fw_processes_finished_total{tenant="acme",process_type="invoice",outcome="errors"} 1\n');
    expect(text).toContain('fw_process_duration_seconds_bucket{le="10",tenant="acme",process_type="invoice"} 1\n');
    expect(text).toContain('fw_process_duration_seconds_bucket{le="5",tenant="acme",process_type="invoice"} 0\n');
    expect(text).toContain(
      'fw_work_item_wait_seconds_sum{tenant="acme",process_type="invoice",worker_type="mailer"} 0.2\n',
    );
    expect(text).toContain(
      'fw_work_item_attempts_total{tenant="acme",process_type="invoice",worker_type="mailer",result="retry"} 1\n',
    );
    expect(text).toContain('fw_lease_expiries_total{tenant="acme",process_type="invoice",worker_type="mailer"} 3\n');
    expect(text).toContain('fw_stale_acks_total{tenant="acme",process_type="invoice",worker_type="mailer"} 1\n');
    expect(text).toContain('fw_triggers_fired_total{tenant="acme",process_type="invoice",source="CRON"} 1\n');
    expect(text).toContain('fw_query_duration_seconds_count{tenant="acme",query="books.by-author"} 1\n');
  });

  it('shows the limits declared now (a later declaration replaces them) and the claims they held back', async () => {
    const metrics = makeFwMetrics(new Registry(), { defaultMetrics: false });
    metrics.workLimitsDeclared([
      { processType: 'call-partner', kind: 'concurrency', scope: 'tenant', value: 5 },
      { processType: 'call-partner', kind: 'concurrency', scope: 'global', value: 20 },
      { processType: 'call-partner', kind: 'rate', scope: 'tenant', value: 0.5 },
    ]);
    metrics.claimLimited({ tenant: 'acme', processType: 'call-partner', limit: 'concurrency' });
    metrics.claimLimited({ tenant: 'acme', processType: 'call-partner', limit: 'concurrency' }, 2);
    metrics.claimLimited({ tenant: null, processType: 'call-partner', limit: 'rate' });
    let text = await metrics.registry.metrics();
    expect(text).toContain('fw_work_item_concurrency_limit{process_type="call-partner",scope="tenant"} 5\n');
    expect(text).toContain('fw_work_item_concurrency_limit{process_type="call-partner",scope="global"} 20\n');
    expect(text).toContain('fw_work_item_rate_limit_per_second{process_type="call-partner",scope="tenant"} 0.5\n');
    expect(text).toContain(
      'fw_work_item_claims_limited_total{tenant="acme",process_type="call-partner",limit="concurrency"} 3\n',
    );
    expect(text).toContain('fw_work_item_claims_limited_total{tenant="",process_type="call-partner",limit="rate"} 1\n');

    metrics.workLimitsDeclared([{ processType: 'import', kind: 'rate', scope: 'global', value: 10 }]);
    text = await metrics.registry.metrics();
    expect(text).not.toMatch(/^fw_work_item_concurrency_limit\{/m);
    expect(text).not.toContain('process_type="call-partner",scope="tenant"} 0.5');
    expect(text).toContain('fw_work_item_rate_limit_per_second{process_type="import",scope="global"} 10\n');
  });

  it('fills the database gauges from one read per scrape, whatever the number of series', async () => {
    let reads = 0;
    const source = makeCachedGaugeSource({ readFigures: async () => (reads++, FIGURES) }, { maxAgeSeconds: 0 });
    const metrics = makeFwMetrics(new Registry(), { defaultMetrics: false, gaugeSource: source });
    const text = await metrics.registry.metrics();
    expect(reads).toBe(1);
    expect(text).toContain(
      'fw_work_items{tenant="acme",process_type="invoice",worker_type="mailer",status="PENDING"} 4\n',
    );
    expect(text).toContain(
      'fw_work_items{tenant="acme",process_type="invoice",worker_type="mailer",status="DEAD"} 1\n',
    );
    expect(text).toContain(
      'fw_work_item_oldest_due_age_seconds{tenant="acme",process_type="invoice",worker_type="mailer"} 12.5\n',
    );
    expect(text).toContain('fw_outbox_commands{tenant="",status="RUNNING"} 2\n');
    expect(text).toContain('fw_outbox_lag_seconds{tenant="acme"} 3\n');
  });
});

describe('makeCachedGaugeSource', () => {
  it('reads at most once per period whatever the scrape rate, sharing a read in flight', async () => {
    let now = 1_000_000;
    let reads = 0;
    let release: () => void = () => undefined;
    const reader = {
      readFigures: () =>
        new Promise<QueueFigures>((resolve) => {
          reads++;
          release = () => resolve(FIGURES);
        }),
    };
    const source = makeCachedGaugeSource(reader, { now: () => now });
    const first = [source.figures(), source.figures(), source.figures()];
    now += 6000; // the period has passed, but the read is still in flight: shared
    first.push(source.figures());
    release();
    await Promise.all(first);
    expect(reads).toBe(1);
    now += 4000;
    await source.figures();
    expect(reads).toBe(1);
    now += 1000; // 5 s after the read started: due again
    const again = source.figures();
    release();
    await again;
    expect(reads).toBe(2);
  });

  it('reports a failed read, leaves the gauges empty and does not retry before the period is over', async () => {
    let now = 0;
    const errors: unknown[] = [];
    let failing = true;
    const source = makeCachedGaugeSource(
      {
        readFigures: async () => {
          if (failing) throw new Error('connection refused');
          return FIGURES;
        },
      },
      { maxAgeSeconds: 10, now: () => now, onError: (e) => errors.push(e) },
    );
    const metrics = makeFwMetrics(new Registry(), { defaultMetrics: false, gaugeSource: source });
    const text = await metrics.registry.metrics();
    expect(text).toContain('# TYPE fw_work_items gauge\n');
    expect(text).not.toMatch(/^fw_work_items\{/m);
    failing = false;
    now += 9000;
    await metrics.registry.metrics();
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('connection refused');
    now += 1000;
    expect(await metrics.registry.metrics()).toMatch(/^fw_work_items\{/m);
  });

  it('rejects a negative period', () => {
    expect(() => makeCachedGaugeSource({ readFigures: async () => FIGURES }, { maxAgeSeconds: -1 })).toThrow(
      'maxAgeSeconds must be a number >= 0, got -1',
    );
  });
});
