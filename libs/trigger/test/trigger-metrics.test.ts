import { makeFwMetrics, type FwMetrics } from '@fw/telemetry';
import { describeEachDatabase } from '@fw/test-support';
import { cronTriggerId, externalTriggerId, makeTriggerService, manualTriggerId, type TriggerInput } from '@fw/trigger';
import { freshTenant, makeRecordingDispatch } from './support';

/**
 * `fw_triggers_fired_total{source}`: one per dispatched trigger, by source; a duplicate (nothing
 * dispatched) and a failed dispatch count nothing.
 */
async function fired(metrics: FwMetrics, labels: Record<string, string>): Promise<number> {
  const metric = metrics.registry.getSingleMetric('fw_triggers_fired_total');
  if (!metric) throw new Error('no fw_triggers_fired_total');
  const { values } = await metric.get();
  return values
    .filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
    .reduce((sum, v) => sum + v.value, 0);
}

describeEachDatabase('trigger metrics', (getDb) => {
  it('counts each dispatched trigger by source, not duplicates or failed dispatches', async () => {
    const metrics = makeFwMetrics(undefined, { defaultMetrics: false });
    const recorder = makeRecordingDispatch();
    const service = makeTriggerService({ database: getDb().database, dispatch: recorder.dispatch, metrics });
    const tenant = freshTenant();
    const payload = { processDefName: 'import', args: {} };
    const inputs: TriggerInput[] = [
      { source: 'MANUAL', triggerId: manualTriggerId(tenant, 'm1'), tenant, payload },
      { source: 'EXTERNAL', triggerId: externalTriggerId(tenant, 'e1'), tenant, payload },
      { source: 'EXTERNAL', triggerId: externalTriggerId(tenant, 'e2'), tenant, payload },
      { source: 'CRON', triggerId: cronTriggerId(`c-${tenant}`, new Date('2026-01-31T00:00:00Z')), tenant, payload },
    ];
    for (const input of inputs) expect((await service.trigger(input)).status).toBe('COMPLETED');
    expect((await service.trigger(inputs[0])).duplicate).toBe(true);
    recorder.behaviour = () => Promise.reject(new Error('process service down'));
    const failed = await service.trigger({ ...inputs[0], triggerId: manualTriggerId(tenant, 'm2') });
    expect(failed.status).toBe('FAILED');

    const labels = { tenant, process_type: 'import' };
    expect(await fired(metrics, { ...labels, source: 'MANUAL' })).toBe(1);
    expect(await fired(metrics, { ...labels, source: 'EXTERNAL' })).toBe(2);
    expect(await fired(metrics, { ...labels, source: 'CRON' })).toBe(1);
  });
});
