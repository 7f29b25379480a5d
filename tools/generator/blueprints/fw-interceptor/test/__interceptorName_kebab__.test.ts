// {{interceptorName}} plugged into a real service: in-process through the registry and over HTTP
// through makeServiceRouter. It runs in its declared place in the chain (service-level before
// operation-level), lets calls through while the caller's bucket has room, and short-circuits —
// the handler and every later interceptor never run — with a 429 envelope when it has none.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { defineService, makeServiceRegistry, makeServiceRouter, type Interceptor, type ServiceDefinition } from '@fw/service';
import express from 'express';
import { make{{interceptorNamePascal}}Interceptor, REMAINING_ATTRIBUTE, {{interceptorNameConstant}}_REFUSED } from '../src/index';

// The service's logs (errors of refused calls are expected here) stay quiet unless asked for.
process.env.FW_LOG_LEVEL ??= 'silent';

/** A clock the tests move by hand. */
function manualClock(start = 1_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => { at += ms; } };
}

/** An interceptor that only writes down that it ran, before and after the rest of the chain. */
function recorder(name: string, events: string[]): Interceptor {
  return {
    name,
    async intercept(_call, next) {
      events.push(`${name}:before`);
      try {
        return await next();
      } finally {
        events.push(`${name}:after`);
      }
    },
  };
}

interface Fixture {
  service: ServiceDefinition;
  events: string[];
  clock: ReturnType<typeof manualClock>;
}

/** A service with {{interceptorName}} at service level (between two recorders) and a recorder at operation level. */
function serviceLevelFixture(limit = 2): Fixture {
  const events: string[] = [];
  const clock = manualClock();
  const service = defineService({
    name: 'greeter',
    version: '1.0.0',
    interceptors: [recorder('outer', events), make{{interceptorNamePascal}}Interceptor({ limit, windowMillis: 60_000, now: clock.now }), recorder('inner', events)],
    operations: [
      {
        name: 'greet',
        method: 'POST',
        path: '/greeter',
        input: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        output: { type: 'object', required: ['text', 'remaining'], properties: { text: { type: 'string' }, remaining: { type: 'integer' } } },
        interceptors: [recorder('operation', events)],
        handler: (input: { name: string }, ctx) => {
          events.push('handler');
          return { text: `hello ${input.name}`, remaining: ctx.attributes.get(REMAINING_ATTRIBUTE) as number };
        },
      },
    ],
  });
  return { service, events, clock };
}

describe('in-process (registry.invoke)', () => {
  test('runs in declared order while the bucket has room; then short-circuits with 429', async () => {
    const { service, events } = serviceLevelFixture(2);
    const registry = makeServiceRegistry({ host: { name: 'test', version: '1' }, services: [service] });
    assert.deepEqual(await registry.invoke('greeter', 'greet', { name: 'Ada' }, { tenant: 't1' }), { text: 'hello Ada', remaining: 1 });
    assert.deepEqual(events, ['outer:before', 'inner:before', 'operation:before', 'handler', 'operation:after', 'inner:after', 'outer:after']);
    assert.deepEqual(await registry.invoke('greeter', 'greet', { name: 'Ada' }, { tenant: 't1' }), { text: 'hello Ada', remaining: 0 });
    events.length = 0;
    await assert.rejects(registry.invoke('greeter', 'greet', { name: 'Ada' }, { tenant: 't1' }), (err: { code: number; subErrorCode: string; description: string }) => {
      assert.equal(err.code, 429);
      assert.equal(err.subErrorCode, {{interceptorNameConstant}}_REFUSED);
      assert.match(err.description, /at most 2 per 60000 ms; retry in 30 s/);
      return true;
    });
    // Nothing after it ran: neither the inner interceptors nor the handler.
    assert.deepEqual(events, ['outer:before', 'outer:after']);
  });

  test('each caller has its own bucket, and a bucket refills with time', async () => {
    const { service, clock } = serviceLevelFixture(1);
    const registry = makeServiceRegistry({ host: { name: 'test', version: '1' }, services: [service] });
    await registry.invoke('greeter', 'greet', { name: 'a' }, { tenant: 't1' });
    await assert.rejects(registry.invoke('greeter', 'greet', { name: 'a' }, { tenant: 't1' }), { code: 429 });
    await registry.invoke('greeter', 'greet', { name: 'b' }, { tenant: 't2' });
    clock.advance(60_000);
    await registry.invoke('greeter', 'greet', { name: 'a' }, { tenant: 't1' });
  });

  test('at operation level it limits that operation only', async () => {
    const clock = manualClock();
    const limited = make{{interceptorNamePascal}}Interceptor({ limit: 1, windowMillis: 1_000, now: clock.now });
    const service = defineService({
      name: 'reports',
      version: '1.0.0',
      operations: [
        { name: 'expensive', interceptors: [limited], handler: () => ({ ok: true }) },
        { name: 'cheap', handler: () => ({ ok: true }) },
      ],
    });
    const registry = makeServiceRegistry({ host: { name: 'test', version: '1' }, services: [service] });
    await registry.invoke('reports', 'expensive', {});
    await assert.rejects(registry.invoke('reports', 'expensive', {}), { code: 429 });
    for (let i = 0; i < 5; i += 1) assert.deepEqual(await registry.invoke('reports', 'cheap', {}), { ok: true });
    assert.deepEqual(registry.describe('reports').operations.map((o) => o.interceptors), [['{{interceptorNameKebab}}'], []]);
  });

  test('refuses options out of range when made, not on the first call', () => {
    assert.throws(() => make{{interceptorNamePascal}}Interceptor({ limit: 0, windowMillis: 1000 }), /'limit' must be an integer of at least 1/);
    assert.throws(() => make{{interceptorNamePascal}}Interceptor({ limit: 1, windowMillis: 0 }), /'windowMillis' must be at least 1/);
  });
});

describe('over HTTP (makeServiceRouter)', () => {
  let server: Server;
  let base: string;
  let fixture: Fixture;
  before(async () => {
    fixture = serviceLevelFixture(1);
    const registry = makeServiceRegistry({ host: { name: 'test', version: '1' }, services: [fixture.service] });
    const app = express().use(makeServiceRouter(registry));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  }));

  const greet = () => fetch(`${base}/greeter`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-fw-tenant-id': 'web' }, body: JSON.stringify({ name: 'Grace' }) });

  test('the first call passes; the next is a 429 error envelope and the handler does not run', async () => {
    const ok = await greet();
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { success: true, code: 200, payload: { text: 'hello Grace', remaining: 0 } });
    fixture.events.length = 0;
    const refused = await greet();
    assert.equal(refused.status, 429);
    const body = (await refused.json()) as { success: boolean; code: number; subErrorCode: string; description: string };
    assert.deepEqual({ success: body.success, code: body.code, subErrorCode: body.subErrorCode }, { success: false, code: 429, subErrorCode: {{interceptorNameConstant}}_REFUSED });
    assert.deepEqual(fixture.events, ['outer:before', 'outer:after']);
  });

  test('/service-info shows where it sits in the chain', async () => {
    const info = (await (await fetch(`${base}/service-info/greeter`)).json()) as { payload: { interceptors: string[]; operations: Array<{ interceptors: string[] }> } };
    assert.deepEqual(info.payload.interceptors, ['outer', '{{interceptorNameKebab}}', 'inner']);
    assert.deepEqual(info.payload.operations[0].interceptors, ['operation']);
  });
});
