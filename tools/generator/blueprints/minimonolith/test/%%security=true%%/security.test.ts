// security=y: the notes operations need a valid bearer JWT; the info endpoints stay open.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CallContext } from '@fw/service';
import { makeBearerAuthInterceptor } from '../src/bearer-auth';
import { call, start, token, type Envelope, type Running } from './support';

describe('bearer JWT on the built-in service', () => {
  let host: Running;
  before(async () => {
    host = await start();
  });
  after(() => host.close());
  const create = (authorization?: string) =>
    call<Envelope<unknown>>(`${host.url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) }, body: JSON.stringify({ text: 'x' }) });

  it('accepts a signed token', async () => {
    assert.equal((await create(`Bearer ${await token()}`)).status, 200);
  });

  it('refuses no token, a bad signature and an expired token with a 401 envelope', async () => {
    for (const authorization of [undefined, `Bearer ${await token({ secret: 'another-secret-of-at-least-32-characters' })}`, `Bearer ${await token({ expiresIn: '-1m' })}`]) {
      const res = await create(authorization);
      assert.equal(res.status, 401);
      assert.equal(res.body.subErrorCode, 'AUTH401');
    }
  });

  it('refuses everything when no secret is configured (fails closed)', async () => {
    const interceptor = makeBearerAuthInterceptor(undefined);
    const context = { headers: { authorization: `Bearer ${await token()}` }, principal: undefined } as unknown as CallContext;
    await assert.rejects(interceptor.intercept({ input: {}, context }, async () => 'ran'), /JWT_SECRET is not set/);
  });

  it('keeps /info open', async () => {
    assert.equal((await call(`${host.url}/info`)).status, 200);
  });
});
