/**
 * `inTransaction` of the writes: the caller's row commits with the change (a table of the test's
 * own stands for the administration API's audit trail), a failing hook rolls the change back, and
 * the hook is not called when nothing changed.
 */
import { describeEachDatabase } from '@fw/test-support';
import {
  isTriggerError,
  makeCrontabStore,
  makeTriggerService,
  manualTriggerId,
  type NewCrontab,
  type TriggerDb,
} from '@fw/trigger';
import { sql } from 'kysely';
import { freshTenant, makeRecordingDispatch } from './support';

const crontab: NewCrontab = {
  name: 'hooked',
  cronExpression: '0 0 2 * * *',
  payload: { processDefName: 'import', args: {} },
};

describeEachDatabase('write hooks in the transaction of the change', (getDb) => {
  const db = () => getDb().database.db;
  /** A hook writing one row of `label` to the side table, in the change's transaction. */
  const noting = (label: string) => async (trx: TriggerDb) => {
    await sql`insert into test_side_rows (label) values (${label})`.execute(trx);
  };
  const failing = (label: string) => async (trx: TriggerDb) => {
    await noting(label)(trx);
    throw new Error(`hook ${label} refused`);
  };
  const sideRows = async (): Promise<string[]> =>
    (await sql<{ label: string }>`select label from test_side_rows order by id`.execute(db())).rows.map((r) => r.label);
  const crontabNames = async (tenant: string): Promise<string[]> =>
    (
      await sql<{ name: string }>`select name from fw_crontab where tenant = ${tenant} order by name`.execute(db())
    ).rows.map((r) => r.name);

  beforeAll(async () => {
    await sql`create table test_side_rows (id serial primary key, label text not null)`.execute(db());
  });
  beforeEach(async () => {
    await sql`delete from test_side_rows`.execute(db());
  });

  it('crontab add, update and remove: the hook row commits with the change, a failing hook undoes it', async () => {
    const store = makeCrontabStore(getDb().database);
    const tenant = freshTenant();
    const handed: string[] = [];
    const kept = await store.add(tenant, crontab, {
      inTransaction: async (trx, created) => {
        handed.push(`${created.id} ${created.name}`);
        await noting('add')(trx);
      },
    });
    expect(handed).toEqual([`${kept.id} hooked`]);
    await expect(
      store.add(tenant, { ...crontab, name: 'undone' }, { inTransaction: failing('add-undone') }),
    ).rejects.toThrow('hook add-undone refused');
    expect(await crontabNames(tenant)).toEqual(['hooked']);

    await store.update(kept.id, tenant, { enabled: false }, { inTransaction: noting('update') });
    await expect(
      store.update(kept.id, tenant, { name: 'renamed' }, { inTransaction: failing('update-undone') }),
    ).rejects.toThrow('hook update-undone refused');
    expect(await store.get(kept.id, tenant)).toMatchObject({ name: 'hooked', enabled: false });

    await expect(store.remove(kept.id, tenant, { inTransaction: failing('remove-undone') })).rejects.toThrow(
      'hook remove-undone refused',
    );
    expect(await crontabNames(tenant)).toEqual(['hooked']);
    expect(await store.remove(kept.id, tenant, { inTransaction: noting('remove') })).toBe(true);
    expect(await crontabNames(tenant)).toEqual([]);

    expect(await sideRows()).toEqual(['add', 'update', 'remove']);
  });

  it('crontab writes that change nothing do not call the hook', async () => {
    const store = makeCrontabStore(getDb().database);
    const tenant = freshTenant();
    const existing = await store.add(tenant, crontab);
    const hookCalls: string[] = [];
    const counting = (what: string) => async () => {
      hookCalls.push(what);
    };
    await expect(store.add(tenant, crontab, { inTransaction: counting('duplicate') })).rejects.toMatchObject({
      reason: 'DUPLICATE',
    });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(await store.remove(missing, tenant, { inTransaction: counting('remove') })).toBe(false);
    expect(await store.remove(existing.id, freshTenant(), { inTransaction: counting('other tenant') })).toBe(false);
    await expect(
      store.update(missing, tenant, { enabled: false }, { inTransaction: counting('update') }),
    ).rejects.toMatchObject({ reason: 'NOT_FOUND' });
    expect(hookCalls).toEqual([]);
  });

  it('trigger: the hook row commits with the claim, for a duplicate too; a failing hook leaves the id unclaimed', async () => {
    const recorder = makeRecordingDispatch();
    const service = makeTriggerService({ database: getDb().database, dispatch: recorder.dispatch });
    const tenant = freshTenant();
    const input = { source: 'MANUAL' as const, tenant, payload: { processDefName: 'import' } };

    await expect(
      service.trigger({ ...input, triggerId: manualTriggerId(tenant, 'first') }, { inTransaction: failing('undone') }),
    ).rejects.toThrow('hook undone refused');
    expect(recorder.calls).toHaveLength(0);
    const logged = async (key: string) =>
      (
        await sql<{
          n: string;
        }>`select count(*) as n from fw_trigger_log where trigger_id = ${manualTriggerId(tenant, key)}`.execute(db())
      ).rows[0].n;
    expect(Number(await logged('first'))).toBe(0);
    const executions = await service.listExecutions({ tenant }, { page: 0, size: 10 });
    expect(executions.totalElements).toBe(0);

    // The same id again: nothing of the failed attempt stands in its way.
    const done = await service.trigger(
      { ...input, triggerId: manualTriggerId(tenant, 'first') },
      { inTransaction: noting('claimed') },
    );
    expect(done).toMatchObject({ dispatched: true, duplicate: false });
    const again = await service.trigger(
      { ...input, triggerId: manualTriggerId(tenant, 'first') },
      { inTransaction: noting('duplicate') },
    );
    expect(again).toMatchObject({ dispatched: false, duplicate: true });
    expect(await sideRows()).toEqual(['claimed', 'duplicate']);
  });

  it('trigger: an id logged for another tenant is refused before the hook runs', async () => {
    const service = makeTriggerService({ database: getDb().database, dispatch: makeRecordingDispatch().dispatch });
    const shared = `shared:${freshTenant()}`;
    await service.trigger({
      source: 'EXTERNAL',
      triggerId: shared,
      tenant: freshTenant(),
      payload: { processDefName: 'import' },
    });
    const error = await service
      .trigger(
        { source: 'EXTERNAL', triggerId: shared, tenant: freshTenant(), payload: { processDefName: 'import' } },
        { inTransaction: noting('other tenant') },
      )
      .catch((e: unknown) => e);
    expect(isTriggerError(error) && error.reason).toBe('CONFLICT');
    expect(await sideRows()).toEqual([]);
  });
});
