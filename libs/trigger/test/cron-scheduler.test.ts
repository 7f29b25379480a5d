import { describeEachDatabase } from '@fw/test-support';
import {
  makeCronScheduler,
  makeCrontabStore,
  makeTriggerService,
  type CronScheduler,
  type CrontabStore,
  type TriggerService,
} from '@fw/trigger';
import { randomUUID } from 'node:crypto';
import { freshTenant, makeRecordingDispatch, sleep, waitFor, type RecordingDispatch } from './support';

const EVERY_SECOND = '*/1 * * * * *';
const NEVER_SOON = '0 0 0 1 1 *'; // midnight on January 1st

describeEachDatabase('cron scheduler', (getDb) => {
  let crontabs: CrontabStore;
  let triggers: TriggerService;
  let recorder: RecordingDispatch;
  let scheduler: CronScheduler;

  beforeEach(async () => {
    const { database } = getDb();
    crontabs = makeCrontabStore(database);
    recorder = makeRecordingDispatch();
    triggers = makeTriggerService({ database, dispatch: recorder.dispatch });
    scheduler = makeCronScheduler({
      database,
      crontabs,
      triggerService: triggers,
      ownerId: `solo-${randomUUID()}`,
      leaseSeconds: 5,
    });
  });
  afterEach(async () => {
    await scheduler.stop();
    // Leave no enabled schedule behind for the next test.
    for (const tab of await crontabs.listEnabled()) await crontabs.update(tab.id, tab.tenant, { enabled: false });
  });

  const firedFor = (crontabId: string) => async () =>
    (await triggers.listExecutions({ tenant: tenantOf.get(crontabId) ?? '', crontabId }, { page: 0, size: 100 }))
      .content;
  const tenantOf = new Map<string, string>();

  it('fires an every-second schedule as CRON triggers with deterministic ids, cron id and scheduled time', async () => {
    const tenant = freshTenant();
    const tab = await crontabs.add(tenant, {
      name: 'tick',
      cronExpression: EVERY_SECOND,
      timezone: 'UTC',
      enabled: true,
      payload: { processDefName: 'import', args: { a: 1 } },
    });
    tenantOf.set(tab.id, tenant);
    await scheduler.start();
    expect(scheduler.isOwner()).toBe(true);
    await waitFor('two firings', async () => (await firedFor(tab.id)()).length >= 2, 15_000);
    await scheduler.stop();

    const executions = await firedFor(tab.id)();
    for (const e of executions) {
      expect(e).toMatchObject({
        source: 'CRON',
        cronId: tab.id,
        tenant,
        payload: { processDefName: 'import', args: { a: 1 } },
      });
      expect(e.scheduledTime).toMatch(/\.000Z$/); // whole seconds
      expect(e.triggerId).toBe(`cron:${tab.id}:${e.scheduledTime}`);
      expect(e.status === 'COMPLETED' || e.status === 'RUNNING').toBe(true);
    }
    expect(new Set(executions.map((e) => e.scheduledTime)).size).toBe(executions.length);
    expect(recorder.calls.every((c) => c.tenant === tenant && c.triggerId.startsWith(`cron:${tab.id}:`))).toBe(true);
    const after = await crontabs.get(tab.id, tenant);
    expect(after?.lastFiredAt).not.toBeNull();
    expect(executions.map((e) => e.scheduledTime)).toContain(after?.lastScheduledTime);
  });

  it('stops firing a crontab once it is disabled and reloaded', async () => {
    const tenant = freshTenant();
    const tab = await crontabs.add(tenant, {
      name: 'tick',
      cronExpression: EVERY_SECOND,
      timezone: 'UTC',
      enabled: true,
      payload: { processDefName: 'import' },
    });
    tenantOf.set(tab.id, tenant);
    await scheduler.start();
    await waitFor('a firing', async () => (await firedFor(tab.id)()).length >= 1, 15_000);
    await crontabs.update(tab.id, tenant, { enabled: false });
    await scheduler.reload();
    const countAtDisable = (await firedFor(tab.id)()).length;
    expect(scheduler.nextRuns().map((r) => r.crontabId)).not.toContain(tab.id);
    await sleep(2_500);
    expect((await firedFor(tab.id)()).length).toBe(countAtDisable);
    expect(scheduler.isOwner()).toBe(true);
  });

  it('reschedules an edited crontab on reload', async () => {
    const tenant = freshTenant();
    const tab = await crontabs.add(tenant, {
      name: 'yearly',
      cronExpression: NEVER_SOON,
      timezone: 'Europe/Berlin',
      enabled: true,
      payload: { processDefName: 'import' },
    });
    tenantOf.set(tab.id, tenant);
    await scheduler.start();
    const planned = scheduler.nextRuns().find((r) => r.crontabId === tab.id);
    // Midnight of January 1st in Berlin is 23:00 UTC on December 31st (CET, UTC+1).
    expect(planned?.nextRun).toMatch(/-12-31T23:00:00\.000Z$/);
    await sleep(1_200);
    expect(await firedFor(tab.id)()).toHaveLength(0);

    await crontabs.update(tab.id, tenant, { cronExpression: EVERY_SECOND });
    await scheduler.reload();
    const replanned = scheduler.nextRuns().find((r) => r.crontabId === tab.id);
    expect(Date.parse(replanned?.nextRun ?? '')).toBeLessThan(Date.now() + 5_000);
    await waitFor('a firing after the edit', async () => (await firedFor(tab.id)()).length >= 1, 15_000);
  });

  it('does not fire disabled crontabs and picks up new ones on reload', async () => {
    const tenant = freshTenant();
    const off = await crontabs.add(tenant, {
      name: 'off',
      cronExpression: EVERY_SECOND,
      timezone: 'UTC',
      enabled: false,
      payload: { processDefName: 'import' },
    });
    tenantOf.set(off.id, tenant);
    await scheduler.start();
    expect(scheduler.nextRuns()).toEqual([]);
    const added = await crontabs.add(tenant, {
      name: 'new',
      cronExpression: EVERY_SECOND,
      timezone: 'UTC',
      enabled: true,
      payload: { processDefName: 'import' },
    });
    tenantOf.set(added.id, tenant);
    await scheduler.reload();
    expect(scheduler.nextRuns().map((r) => [r.crontabId, r.name, r.tenant])).toEqual([[added.id, 'new', tenant]]);
    await waitFor('the new crontab to fire', async () => (await firedFor(added.id)()).length >= 1, 15_000);
    expect(await firedFor(off.id)()).toHaveLength(0);
  });
});
