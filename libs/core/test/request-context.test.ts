import {
  currentContext,
  makeRequestContext,
  restoreRequestContext,
  runWithContext,
  storedRequestContext,
} from '../src';

describe('the request context', () => {
  it('derives the tenant and trigger headers from its fields and is frozen', () => {
    const context = makeRequestContext({
      tenantId: 't1',
      trigger: { id: 'manual:t1:k', source: 'MANUAL' },
      requestId: 'r-1',
      caller: { actor: 'key:abc', credential: 'key', role: 'admin' },
      headers: { 'x-fw-trace': 'z', 'x-fw-tenant-id': 'other' },
    });
    expect(context).toEqual({
      tenantId: 't1',
      trigger: { id: 'manual:t1:k', source: 'MANUAL' },
      requestId: 'r-1',
      caller: { actor: 'key:abc', credential: 'key', role: 'admin' },
      headers: { 'x-fw-trace': 'z', 'x-fw-tenant-id': 't1', 'x-fw-trigger-id': 'manual:t1:k' },
    });
    expect(Object.isFrozen(context) && Object.isFrozen(context.headers) && Object.isFrozen(context.trigger)).toBe(true);
  });

  it('leaves absent fields out', () => {
    expect(makeRequestContext({ tenantId: null, trigger: null })).toEqual({ headers: {} });
  });

  it('round-trips through the fields a process row stores', () => {
    const edge = makeRequestContext({ tenantId: 't2', trigger: { id: 'cron:x', source: 'CRON' }, requestId: 'r' });
    const stored = storedRequestContext(edge);
    expect(stored).toEqual({ tenant: 't2', triggerId: 'cron:x' });
    expect(restoreRequestContext(stored)).toEqual({
      tenantId: 't2',
      trigger: { id: 'cron:x' },
      headers: { 'x-fw-tenant-id': 't2', 'x-fw-trigger-id': 'cron:x' },
    });
    expect(storedRequestContext(undefined)).toEqual({ tenant: null, triggerId: null });
    expect(restoreRequestContext({ tenant: null, triggerId: null })).toEqual({ headers: {} });
  });

  it('restores the same fields as the call before to the same frozen context, other fields to their own', () => {
    const first = restoreRequestContext({ tenant: 't4', triggerId: 'manual:t4:1' });
    expect(restoreRequestContext({ tenant: 't4', triggerId: 'manual:t4:1' })).toBe(first);
    const otherTrigger = restoreRequestContext({ tenant: 't4', triggerId: 'manual:t4:2' });
    expect(otherTrigger).not.toBe(first);
    expect(otherTrigger).toEqual({
      tenantId: 't4',
      trigger: { id: 'manual:t4:2' },
      headers: { 'x-fw-tenant-id': 't4', 'x-fw-trigger-id': 'manual:t4:2' },
    });
    const otherTenant = restoreRequestContext({ tenant: 't5', triggerId: 'manual:t4:2' });
    expect(otherTenant.tenantId).toBe('t5');
    expect(otherTenant.headers['x-fw-tenant-id']).toBe('t5');
    expect(restoreRequestContext({ tenant: null, triggerId: 'manual:t4:2' })).toEqual({
      trigger: { id: 'manual:t4:2' },
      headers: { 'x-fw-trigger-id': 'manual:t4:2' },
    });
    expect(Object.isFrozen(first) && Object.isFrozen(first.headers) && Object.isFrozen(first.trigger)).toBe(true);
  });

  it('is the same object inside runWithContext, across awaits', async () => {
    const context = makeRequestContext({ tenantId: 't3' });
    const seen = await runWithContext(context, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return currentContext();
    });
    expect(seen).toBe(context);
    expect(currentContext()).toBeUndefined();
  });
});
