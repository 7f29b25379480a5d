import { createLogger } from '@fw/core';
import {
  defineService,
  makeApiKeyInterceptor,
  makeAuditInterceptor,
  makeCachingInterceptor,
  makeMetricsInterceptor,
  makeServiceRegistry,
} from '@fw/service';
import { Writable } from 'node:stream';

function memoryLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ name: 'audit-test', level: 'info', destination }) };
}

describe('shipped interceptors', () => {
  let handled = 0;
  const metrics = makeMetricsInterceptor();
  const { lines, logger } = memoryLogger();
  const service = defineService({
    name: 'accounts',
    version: '1.0.0',
    interceptors: [
      metrics,
      makeAuditInterceptor(),
      makeApiKeyInterceptor({ keys: [{ key: 'k-alice', principal: { id: 'alice', roles: ['admin'] } }] }),
    ],
    operations: [
      {
        name: 'balance',
        input: { type: 'object', properties: { account: { type: 'string' } } },
        interceptors: [makeCachingInterceptor({ ttlMillis: 60_000 })],
        handler: async (input: { account: string }, ctx) => {
          handled++;
          return { account: input.account, owner: ctx.principal?.id, call: handled };
        },
      },
    ],
  });
  const registry = makeServiceRegistry({ host: { name: 'bank', version: '1' }, services: [service], logger });

  it('security: refuses a missing or wrong key with 401 SVC401 without running the handler, and sets the principal', async () => {
    await expect(registry.invoke('accounts', 'balance', { account: 'a1' })).rejects.toMatchObject({
      code: 401,
      subErrorCode: 'SVC401',
      description: 'Missing x-api-key header',
    });
    await expect(
      registry.invoke('accounts', 'balance', { account: 'a1' }, { headers: { 'X-Api-Key': 'k-mallory' } }),
    ).rejects.toMatchObject({ code: 401, description: 'Invalid x-api-key' });
    expect(handled).toBe(0);
    expect(
      await registry.invoke('accounts', 'balance', { account: 'a1' }, { headers: { 'X-Api-Key': 'k-alice' } }),
    ).toEqual({ account: 'a1', owner: 'alice', call: 1 });
  });

  it('caching: a repeated input is answered from memory; another input or tenant runs the handler', async () => {
    const headers = { 'x-api-key': 'k-alice' };
    expect(await registry.invoke('accounts', 'balance', { account: 'a1' }, { headers })).toEqual({
      account: 'a1',
      owner: 'alice',
      call: 1,
    });
    expect(await registry.invoke('accounts', 'balance', { account: 'a2' }, { headers })).toMatchObject({ call: 2 });
    expect(await registry.invoke('accounts', 'balance', { account: 'a1' }, { headers, tenant: 'other' })).toMatchObject(
      { call: 3 },
    );
    expect(handled).toBe(3);
  });

  it('metrics count calls and failures per operation; audit logs one line per call with its outcome', () => {
    expect(metrics.snapshot()['accounts.balance']).toMatchObject({ calls: 6, failures: 2 });
    const audit = lines.filter((l) => l.audit === true).map((l) => [l.operation, l.outcome, l.principal ?? null]);
    expect(audit).toEqual([
      ['balance', 'SVC401', null],
      ['balance', 'SVC401', null],
      ['balance', 'ok', 'alice'],
      ['balance', 'ok', 'alice'],
      ['balance', 'ok', 'alice'],
      ['balance', 'ok', 'alice'],
    ]);
  });
});
