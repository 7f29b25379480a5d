import { isFwError } from '@fw/core';
import { makeFwMetrics, type FwMetrics } from '@fw/telemetry';
import { describeEachDatabase } from '@fw/test-support';
import { randomUUID } from 'node:crypto';
import { create, get, makeHarness, send } from './support';

/**
 * The engine's fw_* series, recorded after the commit: a fan-out counts each process once
 * created and once finished; a split refused inside its transaction (rolled back) counts nothing.
 */
async function valueOf(metrics: FwMetrics, name: string, labels: Record<string, string>): Promise<number> {
  const metric = metrics.registry.getSingleMetric(name.replace(/_count$/, ''));
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

describeEachDatabase('process metrics', (getDb) => {
  it('counts a fan-out: N leaves and their parent created and finished once each', async () => {
    const metrics = makeFwMetrics(undefined, { defaultMetrics: false });
    const { manager } = makeHarness(getDb(), { metrics });
    const n = 4;
    const parent = await create(manager, 'batch', {}, 'fan');
    await send(manager, parent.id, 'splitDone', {
      subProcesses: Array.from({ length: n }, (_, i) => ({ processType: 'chunk', args: { i } })),
    });
    const tree = await manager.getProcessTree(parent.id, { tenant: 'fan' });
    for (const child of tree.slice(1)) await send(manager, child.id, 'doneSuccessfully', { output: 1 });
    await send(manager, parent.id, 'aggregationDone', { output: { sum: n } });
    expect((await get(manager, parent.id)).state.stateId).toBe('PROCESSED');

    const created = (type: string) =>
      valueOf(metrics, 'fw_processes_created_total', { tenant: 'fan', process_type: type });
    expect(await created('batch')).toBe(1);
    expect(await created('chunk')).toBe(n);
    expect(await valueOf(metrics, 'fw_processes_finished_total', { tenant: 'fan', outcome: 'success' })).toBe(n + 1);
    expect(await valueOf(metrics, 'fw_processes_finished_total', { tenant: 'fan', outcome: 'errors' })).toBe(0);
    expect(await valueOf(metrics, 'fw_process_duration_seconds_count', { tenant: 'fan' })).toBe(n + 1);
  });

  it('counts a process that ended with errors under outcome errors', async () => {
    const metrics = makeFwMetrics(undefined, { defaultMetrics: false });
    const { manager } = makeHarness(getDb(), { metrics });
    const p = await create(manager, 'batch', {}, 'bad');
    await send(manager, p.id, 'splitDoneWithErrors', { errors: ['bad input'] });
    const labels = { tenant: 'bad', process_type: 'batch' };
    expect(await valueOf(metrics, 'fw_processes_finished_total', { ...labels, outcome: 'errors' })).toBe(1);
    expect(await valueOf(metrics, 'fw_processes_finished_total', { ...labels, outcome: 'success' })).toBe(0);
  });

  it('counts nothing of a transaction that rolled back', async () => {
    const metrics = makeFwMetrics(undefined, { defaultMetrics: false });
    const { manager } = makeHarness(getDb(), { metrics });
    const taken = randomUUID();
    const first = await create(manager, 'batch', {}, 'rb');
    await send(manager, first.id, 'splitDone', { subProcesses: [{ processType: 'chunk', childId: taken }] });
    const chunks = () => valueOf(metrics, 'fw_processes_created_total', { tenant: 'rb', process_type: 'chunk' });
    expect(await chunks()).toBe(1);

    const second = await create(manager, 'batch', {}, 'rb');
    // A new child and one that belongs to the first parent: the split is refused and rolled back.
    const refused = await send(manager, second.id, 'splitDone', {
      subProcesses: [
        { processType: 'chunk', childId: randomUUID() },
        { processType: 'chunk', childId: taken },
      ],
    }).catch((err: unknown) => err);
    expect(isFwError(refused) && refused.code).toBe(409);
    expect(await chunks()).toBe(1);
    expect(await valueOf(metrics, 'fw_processes_created_total', { tenant: 'rb', process_type: 'batch' })).toBe(2);
  });
});
