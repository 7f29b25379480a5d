import { Histogram, Registry } from 'prom-client';
import { makeFwMetrics } from '@fw/telemetry';
import { makeBufferedHistogram } from '../src/metrics/buffered-histogram';

const BUCKETS = [0.005, 0.05, 0.5, 5];
const VALUES = [0, 0.005, 0.0051, 0.2, 0.5, 3, 5, 7.5, 120, 0.049];

/** The buffered histogram `h` by `tenant` that the tests below compare with prom-client's. */
const tenantHistogramIn = (registry: Registry) =>
  makeBufferedHistogram({ name: 'h', help: 'h', labelNames: ['tenant'], buckets: BUCKETS, registers: [registry] });

describe('makeBufferedHistogram', () => {
  it('writes the same lines as prom-client’s histogram for the same observations', async () => {
    const reference = new Registry();
    const plain = new Histogram({
      name: 'h',
      help: 'h',
      labelNames: ['tenant'],
      buckets: BUCKETS,
      registers: [reference],
    });
    const registry = new Registry();
    const buffered = tenantHistogramIn(registry);
    for (const tenant of ['acme', 'globex']) {
      const series = buffered.series(tenant, () => ({ tenant }));
      for (const value of tenant === 'acme' ? VALUES : VALUES.slice(3)) {
        plain.observe({ tenant }, value);
        series.observe(value);
      }
    }
    expect(await registry.metrics()).toBe(await reference.metrics());
    expect((await buffered.histogram.get()).values).toEqual((await plain.get()).values);
  });

  it('writes a series out from its first observation, and zeroes every series on reset', async () => {
    const registry = new Registry();
    const buffered = tenantHistogramIn(registry);
    const acme = buffered.series('acme', () => ({ tenant: 'acme' }));
    expect(await registry.metrics()).not.toContain('h_count');
    acme.observe(1);
    expect(await registry.metrics()).toContain('h_count{tenant="acme"} 1\n');
    buffered.histogram.reset();
    expect(await registry.metrics()).not.toContain('h_count');
    acme.observe(0.01);
    expect(await registry.metrics()).toContain('h_bucket{le="0.05",tenant="acme"} 1\n');
  });

  it('refuses a value that is not a finite number, as prom-client does', () => {
    const series = makeBufferedHistogram({ name: 'h', help: 'h', buckets: BUCKETS, registers: [] }).series(
      '',
      () => ({}),
    );
    expect(() => series.observe(Number.NaN)).toThrow('Value is not a valid number: NaN');
  });
});

describe('FwMetrics series handles', () => {
  it('counts through a resolved series exactly as through the labelled functions', async () => {
    const viaSeries = makeFwMetrics(new Registry(), { defaultMetrics: false });
    const viaLabels = makeFwMetrics(new Registry(), { defaultMetrics: false });
    // Interleaved tenants and a missing tenant: the last-labels shortcut must not mix series up.
    const events = [
      { tenant: 'acme', processType: 'invoice', workerType: 'mailer' },
      { tenant: 'acme', processType: 'invoice', workerType: 'mailer' },
      { tenant: 'globex', processType: 'invoice', workerType: 'mailer' },
      { tenant: null, processType: 'invoice', workerType: 'mailer' },
      { tenant: 'acme', processType: 'invoice', workerType: 'printer' },
      { tenant: 'acme', processType: 'report', workerType: 'mailer' },
      { tenant: 'acme', processType: 'invoice', workerType: 'mailer' },
    ];
    events.forEach((labels, i) => {
      viaSeries.processSeries(labels).created();
      viaSeries.processSeries(labels).finished(i % 2 === 0 ? 'success' : 'errors', i);
      viaSeries.workItemSeries(labels).claimed(i / 10);
      viaSeries.workItemSeries(labels).attempt(i % 3 === 0 ? 'retry' : 'success');
      viaLabels.processCreated(labels);
      viaLabels.processFinished({ ...labels, outcome: i % 2 === 0 ? 'success' : 'errors', durationSeconds: i });
      viaLabels.workItemClaimed({ ...labels, waitSeconds: i / 10 });
      viaLabels.workItemAttempt({ ...labels, result: i % 3 === 0 ? 'retry' : 'success' });
    });
    const text = await viaSeries.registry.metrics();
    expect(text).toBe(await viaLabels.registry.metrics());
    expect(text).toContain('fw_processes_created_total{tenant="acme",process_type="invoice"} 4\n');
    expect(text).toContain('fw_processes_created_total{tenant="",process_type="invoice"} 1\n');
    expect(text).toContain(
      'fw_work_item_attempts_total{tenant="acme",process_type="invoice",worker_type="mailer",result="retry"} 2\n',
    );
    expect(text).toContain(
      'fw_work_item_wait_seconds_count{tenant="acme",process_type="report",worker_type="mailer"} 1\n',
    );
  });

  it('keeps the labels of the last call, not the caller’s object, which may change afterwards', async () => {
    const metrics = makeFwMetrics(new Registry(), { defaultMetrics: false });
    const record = { tenant: 'acme', processType: 'invoice' };
    metrics.processSeries(record).created();
    record.tenant = 'globex';
    metrics.processSeries(record).created();
    const text = await metrics.registry.metrics();
    expect(text).toContain('fw_processes_created_total{tenant="acme",process_type="invoice"} 1\n');
    expect(text).toContain('fw_processes_created_total{tenant="globex",process_type="invoice"} 1\n');
  });
});
