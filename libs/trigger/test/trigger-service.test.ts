import { FwError } from '@fw/core';
import { describeEachDatabase } from '@fw/test-support';
import {
  isTriggerError,
  makeTriggerService,
  manualTriggerId,
  type TriggerExecution,
  type TriggerInput,
} from '@fw/trigger';
import { sql } from 'kysely';
import { freshTenant, makeRecordingDispatch, sleep } from './support';

function manual(tenant: string, key: string, processDefName = 'import'): TriggerInput {
  return {
    source: 'MANUAL',
    triggerId: manualTriggerId(tenant, key),
    tenant,
    payload: { processDefName, args: { day: 1 }, description: 'by hand' },
  };
}

describeEachDatabase('trigger service', (getDb) => {
  async function historyOf(triggerId: string): Promise<Array<{ status: string }>> {
    const { rows } = await sql<{
      status: string;
    }>`select status from fw_trigger_execution where trigger_id = ${triggerId}`.execute(getDb().database.db);
    return rows;
  }
  async function logRows(triggerId: string): Promise<number> {
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from fw_trigger_log where trigger_id = ${triggerId}`.execute(getDb().database.db);
    return rows[0].n;
  }

  it('dispatches once, with the trigger id and tenant on the ProcessDto, and records COMPLETED', async () => {
    const recorder = makeRecordingDispatch();
    const service = makeTriggerService({ database: getDb().database, dispatch: recorder.dispatch });
    const tenant = freshTenant();
    const result = await service.trigger(manual(tenant, 'k1'));
    expect(result).toMatchObject({
      triggerId: `manual:${tenant}:k1`,
      dispatched: true,
      duplicate: false,
      status: 'COMPLETED',
      processId: 'p-1',
    });
    expect(result.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.logId).toMatch(/^[0-9a-f-]{36}$/);
    expect(recorder.calls).toEqual([
      { processDefName: 'import', args: { day: 1 }, description: 'by hand', triggerId: `manual:${tenant}:k1`, tenant },
    ]);

    const page = await service.listExecutions({ tenant }, { page: 0, size: 10 });
    expect(page.totalElements).toBe(1);
    const execution = page.content[0];
    expect(execution).toMatchObject({
      id: result.executionId,
      triggerId: `manual:${tenant}:k1`,
      tenant,
      source: 'MANUAL',
      scheduledTime: null,
      eventName: 'ProcessCreate',
      payload: { processDefName: 'import', args: { day: 1 }, description: 'by hand' },
      status: 'COMPLETED',
      failureMessage: null,
      cronId: null,
      processId: 'p-1',
      logId: result.logId,
      eventId: result.eventId,
    });
    expect(Date.parse(execution.receivedTime)).toBeLessThanOrEqual(Date.parse(execution.startTime ?? ''));
    expect(Date.parse(execution.startTime ?? '')).toBeLessThanOrEqual(Date.parse(execution.finishTime ?? ''));
  });

  it('answers a sequential duplicate with the original ids, without dispatching or adding history', async () => {
    const recorder = makeRecordingDispatch();
    const service = makeTriggerService({ database: getDb().database, dispatch: recorder.dispatch });
    const tenant = freshTenant();
    const first = await service.trigger(manual(tenant, 'again'));
    const second = await service.trigger(manual(tenant, 'again', 'otherType'));
    expect(second).toEqual({
      triggerId: first.triggerId,
      eventId: first.eventId,
      logId: first.logId,
      dispatched: false,
      duplicate: true,
    });
    expect(recorder.calls).toHaveLength(1);
    expect(await historyOf(first.triggerId)).toHaveLength(1);
    expect(await logRows(first.triggerId)).toBe(1);
  });

  it('dispatches concurrent duplicates exactly once (separate pool connections on PostgreSQL)', async () => {
    const recorder = makeRecordingDispatch();
    recorder.behaviour = () => sleep(150);
    const service = makeTriggerService({ database: getDb().database, dispatch: recorder.dispatch });
    const tenant = freshTenant();
    const results = await Promise.all(Array.from({ length: 8 }, () => service.trigger(manual(tenant, 'race'))));
    expect(recorder.calls).toHaveLength(1);
    expect(results.filter((r) => r.dispatched)).toHaveLength(1);
    expect(results.filter((r) => r.duplicate)).toHaveLength(7);
    const winner = results.find((r) => r.dispatched);
    for (const r of results)
      expect({ eventId: r.eventId, logId: r.logId }).toEqual({ eventId: winner?.eventId, logId: winner?.logId });
    expect(await historyOf(`manual:${tenant}:race`)).toEqual([{ status: 'COMPLETED' }]);
    expect(await logRows(`manual:${tenant}:race`)).toBe(1);
    if (getDb().target === 'postgres') {
      // The calls really ran on several server connections of the pool (idle ones stay open).
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_stat_activity where datname = current_database()`.execute(
        getDb().database.db,
      );
      expect(rows[0].n).toBeGreaterThanOrEqual(2);
    }
  });

  it('dispatches distinct trigger ids separately', async () => {
    const recorder = makeRecordingDispatch();
    const service = makeTriggerService({ database: getDb().database, dispatch: recorder.dispatch });
    const tenant = freshTenant();
    await service.trigger({ ...manual(tenant, 'a'), eventName: 'ProcessCreate' });
    await service.trigger(manual(tenant, 'b'));
    expect(recorder.calls.map((c) => c.triggerId)).toEqual([`manual:${tenant}:a`, `manual:${tenant}:b`]);
  });

  it('shows RUNNING while the dispatch runs, then COMPLETED', async () => {
    const recorder = makeRecordingDispatch();
    const service = makeTriggerService({ database: getDb().database, dispatch: recorder.dispatch });
    const tenant = freshTenant();
    const seen: TriggerExecution[] = [];
    recorder.behaviour = async () => {
      seen.push(...(await service.listExecutions({ tenant }, { page: 0, size: 5 })).content);
    };
    const result = await service.trigger(manual(tenant, 'running'));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ id: result.executionId, status: 'RUNNING', finishTime: null, processId: null });
    expect(seen[0].startTime).not.toBeNull();
    expect((await service.getExecution(result.executionId ?? '', tenant))?.status).toBe('COMPLETED');
  });

  it('records FAILED with message and stack when the dispatch throws, and answers the failure', async () => {
    const recorder = makeRecordingDispatch();
    const service = makeTriggerService({ database: getDb().database, dispatch: recorder.dispatch });
    const tenant = freshTenant();
    recorder.behaviour = () => {
      throw new Error('broker unreachable');
    };
    const failed = await service.trigger(manual(tenant, 'boom'));
    expect(failed).toMatchObject({
      dispatched: false,
      duplicate: false,
      status: 'FAILED',
      failure: { message: 'broker unreachable' },
    });
    const execution = await service.getExecution(failed.executionId ?? '', tenant);
    expect(execution).toMatchObject({ status: 'FAILED', failureMessage: 'broker unreachable', processId: null });
    expect(execution?.failureStack).toContain('broker unreachable');
    expect(execution?.finishTime).not.toBeNull();

    recorder.behaviour = () => {
      throw new FwError({ code: 400, subErrorCode: 'P002', description: "Unknown process type 'nope'" });
    };
    const rejected = await service.trigger(manual(tenant, 'unknown-type', 'nope'));
    expect(rejected.failure).toEqual({ message: "Unknown process type 'nope'", code: 400, subErrorCode: 'P002' });
    expect((await service.getExecution(rejected.executionId ?? '', tenant))?.failureMessage).toBe(
      "Unknown process type 'nope'",
    );

    // The trigger id stays logged: a retry with the same id is a duplicate, not a second attempt.
    recorder.behaviour = undefined;
    const retry = await service.trigger(manual(tenant, 'boom'));
    expect(retry).toMatchObject({ duplicate: true, dispatched: false, logId: failed.logId });
    expect(await historyOf(failed.triggerId)).toEqual([{ status: 'FAILED' }]);
  });

  it('refuses a trigger id already logged for another tenant without revealing its ids', async () => {
    const recorder = makeRecordingDispatch();
    const service = makeTriggerService({ database: getDb().database, dispatch: recorder.dispatch });
    const [a, b] = [freshTenant('a'), freshTenant('b')];
    const input: TriggerInput = {
      source: 'EXTERNAL',
      triggerId: `shared-${a}`,
      tenant: a,
      payload: { processDefName: 'import' },
    };
    await service.trigger(input);
    const error = await service.trigger({ ...input, tenant: b }).catch((e: unknown) => e);
    expect(isTriggerError(error) && error.reason).toBe('CONFLICT');
    expect(isTriggerError(error) && error.code).toBe(409);
    expect((await service.listExecutions({ tenant: b }, { page: 0, size: 5 })).totalElements).toBe(0);
    expect(recorder.calls).toHaveLength(1);
  });

  it('validates the input before logging anything', async () => {
    const recorder = makeRecordingDispatch();
    const service = makeTriggerService({ database: getDb().database, dispatch: recorder.dispatch });
    const tenant = freshTenant();
    const cases: Array<[Partial<TriggerInput> & Record<string, unknown>, string]> = [
      [{ payload: { processDefName: '' } }, 'payload.processDefName'],
      [{ payload: { processDefName: 'x', args: [1] as unknown as Record<string, unknown> } }, 'payload.args'],
      [{ tenant: 'bad tenant!' }, 'tenant'],
      [{ triggerId: '' }, 'triggerId'],
      [{ source: 'FAX' as never }, 'source'],
      [{ eventName: 'ProcessCompleted' as never }, 'eventName'],
    ];
    for (const [override, field] of cases) {
      const error = await service.trigger({ ...manual(tenant, `v-${field}`), ...override }).catch((e: unknown) => e);
      expect(isTriggerError(error) ? { reason: error.reason, field: error.field, code: error.code } : error).toEqual({
        reason: 'VALIDATION',
        field,
        code: 400,
      });
    }
    expect(recorder.calls).toHaveLength(0);
    expect((await service.listExecutions({ tenant }, { page: 0, size: 5 })).totalElements).toBe(0);
  });
});
