import { describeEachDatabase } from '@fw/test-support';
import { isTriggerError, makeCrontabStore, type CrontabStore, type NewCrontab } from '@fw/trigger';
import { freshTenant } from './support';

const base: NewCrontab = {
  name: 'nightly',
  cronExpression: '0 0 2 * * *',
  timezone: 'Europe/Berlin',
  enabled: true,
  payload: { processDefName: 'import', args: { full: true } },
};

async function errorOf(
  p: Promise<unknown>,
): Promise<{ reason: string; code: number; field?: string; message: string }> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isTriggerError(error)) throw new Error(`expected a TriggerError, got ${String(error)}`);
  return { reason: error.reason, code: error.code, field: error.field, message: error.message };
}

describeEachDatabase('crontab store', (getDb) => {
  let store: CrontabStore;
  beforeAll(() => {
    store = makeCrontabStore(getDb().database);
  });

  it('adds, reads and lists crontabs of a tenant, newest first', async () => {
    const tenant = freshTenant();
    const first = await store.add(tenant, base);
    expect(first).toMatchObject({
      tenant,
      name: 'nightly',
      cronExpression: '0 0 2 * * *',
      timezone: 'Europe/Berlin',
      enabled: true,
      payload: base.payload,
      lastFiredAt: null,
      lastScheduledTime: null,
    });
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
    const second = await store.add(tenant, {
      ...base,
      name: 'hourly',
      cronExpression: '  0   0 *  * * * ',
      timezone: undefined,
      enabled: undefined,
    });
    expect(second).toMatchObject({ cronExpression: '0 0 * * * *', timezone: 'UTC', enabled: true });
    expect(await store.get(first.id, tenant)).toEqual(first);
    const page = await store.list(tenant, { page: 0, size: 1 });
    expect(page).toMatchObject({ totalElements: 2, totalPages: 2, page: 0, size: 1 });
    expect(page.content.map((c) => c.name)).toEqual(['hourly']);
    expect((await store.list(tenant, { page: 1, size: 1 })).content.map((c) => c.name)).toEqual(['nightly']);
  });

  it('refuses a bad expression (five fields, bad values, words) with a message', async () => {
    const tenant = freshTenant();
    const fiveFields = await errorOf(store.add(tenant, { ...base, cronExpression: '0 2 * * *' }));
    expect(fiveFields).toMatchObject({ reason: 'VALIDATION', code: 400, field: 'cronExpression' });
    expect(fiveFields.message).toContain('six are required, seconds first');
    const badValue = await errorOf(store.add(tenant, { ...base, cronExpression: '61 * * * * *' }));
    expect(badValue.message).toMatch(/not valid: .*second/i);
    expect((await errorOf(store.add(tenant, { ...base, cronExpression: 'every day' }))).field).toBe('cronExpression');
    expect((await errorOf(store.add(tenant, { ...base, cronExpression: '' }))).field).toBe('cronExpression');
    expect((await store.list(tenant, { page: 0, size: 10 })).totalElements).toBe(0);
  });

  it('refuses an unknown time zone with a message', async () => {
    const tenant = freshTenant();
    const error = await errorOf(store.add(tenant, { ...base, timezone: 'Mars/Olympus_Mons' }));
    expect(error).toMatchObject({ reason: 'VALIDATION', code: 400, field: 'timezone' });
    expect(error.message).toContain("'Mars/Olympus_Mons' is not a known IANA time zone");
  });

  it('refuses a missing processDefName, name or a non-boolean enabled', async () => {
    const tenant = freshTenant();
    expect((await errorOf(store.add(tenant, { ...base, payload: { processDefName: '' } }))).field).toBe(
      'payload.processDefName',
    );
    expect((await errorOf(store.add(tenant, { ...base, name: ' ' }))).field).toBe('name');
    expect((await errorOf(store.add(tenant, { ...base, enabled: 'yes' as unknown as boolean }))).field).toBe('enabled');
  });

  it('refuses a duplicate name in the same tenant, not in another', async () => {
    const [tenant, other] = [freshTenant(), freshTenant()];
    await store.add(tenant, base);
    const error = await errorOf(store.add(tenant, { ...base, cronExpression: '0 0 3 * * *' }));
    expect(error).toMatchObject({ reason: 'DUPLICATE', code: 409, field: 'name' });
    expect(error.message).toContain("'nightly' already exists");
    await expect(store.add(other, base)).resolves.toMatchObject({ tenant: other, name: 'nightly' });
  });

  it('updates given fields, validates them, and refuses renaming onto a taken name', async () => {
    const tenant = freshTenant();
    const tab = await store.add(tenant, base);
    await store.add(tenant, { ...base, name: 'taken' });
    const disabled = await store.update(tab.id, tenant, { enabled: false });
    expect(disabled).toMatchObject({ enabled: false, cronExpression: base.cronExpression, name: 'nightly' });
    expect(Date.parse(disabled.updatedAt)).toBeGreaterThanOrEqual(Date.parse(tab.updatedAt));
    const edited = await store.update(tab.id, tenant, {
      cronExpression: '*/5 * * * * *',
      timezone: 'America/New_York',
      payload: { processDefName: 'other' },
    });
    expect(edited).toMatchObject({
      cronExpression: '*/5 * * * * *',
      timezone: 'America/New_York',
      payload: { processDefName: 'other' },
      enabled: false,
    });
    expect((await errorOf(store.update(tab.id, tenant, { name: 'taken' }))).reason).toBe('DUPLICATE');
    expect((await errorOf(store.update(tab.id, tenant, { cronExpression: '* * * *' }))).reason).toBe('VALIDATION');
    expect((await errorOf(store.update(tab.id, tenant, { timezone: 'Nowhere/Else' }))).reason).toBe('VALIDATION');
    expect(await store.get(tab.id, tenant)).toEqual(edited);
    await expect(store.update(tab.id, tenant, { name: 'renamed' })).resolves.toMatchObject({ name: 'renamed' });
  });

  it('keeps crontabs inside their tenant (get, update) and lists only enabled ones for scheduling', async () => {
    const [tenant, other] = [freshTenant(), freshTenant()];
    const tab = await store.add(tenant, { ...base, name: 'scoped' });
    const off = await store.add(tenant, { ...base, name: 'off', enabled: false });
    expect(await store.get(tab.id, other)).toBeUndefined();
    expect(await store.get('not-a-uuid', tenant)).toBeUndefined();
    expect(await errorOf(store.update(tab.id, other, { enabled: false }))).toMatchObject({
      reason: 'NOT_FOUND',
      code: 404,
    });
    const enabledIds = (await store.listEnabled()).map((c) => c.id);
    expect(enabledIds).toContain(tab.id);
    expect(enabledIds).not.toContain(off.id);
  });
});
