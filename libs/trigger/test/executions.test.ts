import { describeEachDatabase } from '@fw/test-support';
import { isTriggerError, makeTriggerService, type TriggerService } from '@fw/trigger';
import { randomUUID } from 'node:crypto';
import { freshTenant, makeRecordingDispatch } from './support';

describeEachDatabase('execution history', (getDb) => {
  let service: TriggerService;
  const tenant = freshTenant('hist');
  const other = freshTenant('other');
  const cronA = randomUUID();
  const cronB = randomUUID();

  beforeAll(async () => {
    const recorder = makeRecordingDispatch();
    recorder.behaviour = (dto) => {
      if (dto.processDefName === 'failing') throw new Error('no such worker');
    };
    service = makeTriggerService({ database: getDb().database, dispatch: recorder.dispatch });
    // Seven executions of `tenant` in a known order (oldest first), two of another tenant.
    for (let i = 0; i < 3; i++) {
      const scheduledTime = new Date(Date.UTC(2026, 0, 1, 0, 0, i));
      await service.trigger({
        source: 'CRON',
        triggerId: `cron:${cronA}:${scheduledTime.toISOString()}`,
        tenant,
        cronId: cronA,
        scheduledTime,
        payload: { processDefName: 'import' },
      });
    }
    await service.trigger({
      source: 'MANUAL',
      triggerId: `manual:${tenant}:m1`,
      tenant,
      payload: { processDefName: 'failing' },
    });
    await service.trigger({
      source: 'CRON',
      triggerId: `cron:${cronB}:x`,
      tenant,
      cronId: cronB,
      scheduledTime: new Date(),
      payload: { processDefName: 'import' },
    });
    await service.trigger({
      source: 'EXTERNAL',
      triggerId: `external:${tenant}:e1`,
      tenant,
      payload: { processDefName: 'failing' },
    });
    await service.trigger({
      source: 'MANUAL',
      triggerId: `manual:${tenant}:m2`,
      tenant,
      payload: { processDefName: 'import' },
    });
    await service.trigger({
      source: 'MANUAL',
      triggerId: `manual:${other}:m1`,
      tenant: other,
      payload: { processDefName: 'import' },
    });
    await service.trigger({
      source: 'CRON',
      triggerId: `cron:${cronA}:other`,
      tenant: other,
      cronId: cronA,
      payload: { processDefName: 'import' },
    });
  });

  it('lists newest first with page metadata', async () => {
    const page0 = await service.listExecutions({ tenant }, { page: 0, size: 3 });
    expect(page0).toMatchObject({ totalElements: 7, page: 0, size: 3, totalPages: 3 });
    expect(page0.content.map((e) => e.triggerId)).toEqual([
      `manual:${tenant}:m2`,
      `external:${tenant}:e1`,
      `cron:${cronB}:x`,
    ]);
    const page2 = await service.listExecutions({ tenant }, { page: 2, size: 3 });
    expect(page2.content.map((e) => e.triggerId)).toEqual([`cron:${cronA}:2026-01-01T00:00:00.000Z`]);
    const beyond = await service.listExecutions({ tenant }, { page: 5, size: 3 });
    expect(beyond).toEqual({ content: [], totalElements: 7, page: 5, size: 3, totalPages: 3 });
  });

  it('filters by trigger id, crontab id and status (AND), within the tenant only', async () => {
    const byCron = await service.listExecutions({ tenant, crontabId: cronA }, { page: 0, size: 25 });
    expect(byCron.totalElements).toBe(3);
    expect(byCron.content.map((e) => e.scheduledTime)).toEqual([
      '2026-01-01T00:00:02.000Z',
      '2026-01-01T00:00:01.000Z',
      '2026-01-01T00:00:00.000Z',
    ]);
    expect(byCron.content.every((e) => e.source === 'CRON' && e.cronId === cronA)).toBe(true);

    const failed = await service.listExecutions({ tenant, status: 'FAILED' }, { page: 0, size: 25 });
    expect(failed.content.map((e) => e.triggerId)).toEqual([`external:${tenant}:e1`, `manual:${tenant}:m1`]);
    expect(failed.content.every((e) => e.failureMessage === 'no such worker')).toBe(true);

    const both = await service.listExecutions(
      { tenant, status: 'FAILED', triggerId: `manual:${tenant}:m1` },
      { page: 0, size: 25 },
    );
    expect(both.totalElements).toBe(1);
    const none = await service.listExecutions(
      { tenant, status: 'COMPLETED', triggerId: `manual:${tenant}:m1` },
      { page: 0, size: 25 },
    );
    expect(none.totalElements).toBe(0);

    const completedOfCron = await service.listExecutions(
      { tenant, crontabId: cronA, status: 'COMPLETED' },
      { page: 0, size: 25 },
    );
    expect(completedOfCron.totalElements).toBe(3);
  });

  it('never shows another tenant’s executions', async () => {
    expect(
      (await service.listExecutions({ tenant, triggerId: `manual:${other}:m1` }, { page: 0, size: 25 })).totalElements,
    ).toBe(0);
    const mine = await service.listExecutions({ tenant: other }, { page: 0, size: 25 });
    expect(mine.content.map((e) => e.tenant)).toEqual([other, other]);
    const foreign = (await service.listExecutions({ tenant }, { page: 0, size: 1 })).content[0];
    expect(await service.getExecution(foreign.id, other)).toBeUndefined();
    expect(await service.getExecution(foreign.id, tenant)).toMatchObject({ id: foreign.id });
  });

  it('answers an empty page for a crontab id that is no UUID, and refuses bad pages', async () => {
    expect(await service.listExecutions({ tenant, crontabId: 'not-a-uuid' }, { page: 0, size: 10 })).toEqual({
      content: [],
      totalElements: 0,
      page: 0,
      size: 10,
      totalPages: 0,
    });
    for (const page of [
      { page: -1, size: 10 },
      { page: 0, size: 0 },
      { page: 0, size: 101 },
      { page: 0.5, size: 10 },
    ]) {
      const error = await service.listExecutions({ tenant }, page).catch((e: unknown) => e);
      expect(isTriggerError(error) && error.reason).toBe('VALIDATION');
    }
  });
});
