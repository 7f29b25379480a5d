// Bearer JWT security: a token signed with the configured secret (or by a key of the configured
// JWKS) is accepted and names the caller; a missing token, a bad signature, an expired token or
// the wrong issuer are 401 envelopes and the operation never runs; the info endpoints stay open.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { makeServiceRegistry, type Interceptor, type Principal } from '@fw/service';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { start{{servicePascal}}Host, type Running{{servicePascal}}Host } from '../src/host';
import { makeBearerJwtInterceptor } from '../src/security';
import { make{{servicePascal}}Service } from '../src/service';
import { call, JWT_ISSUER, JWT_SECRET, startTestHost, TENANT, testSettings, token } from './support';

describe('with a shared secret', () => {
  let host: Running{{servicePascal}}Host;
  before(async () => {
    host = await startTestHost();
  });
  after(() => host.close());

  const create = (headers: Record<string, string>) => call(host.url, 'POST', '/{{serviceKebab}}', { name: 'guarded', quantity: 1 }, { 'x-fw-tenant-id': TENANT, ...headers });

  test('a signed, current token from the trusted issuer is accepted', async () => {
    const answer = await create({ authorization: `Bearer ${await token()}` });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  });

  const refusals: Array<[string, () => Promise<Record<string, string>>, RegExp]> = [
    ['no Authorization header', async () => ({}), /Missing bearer token/],
    ['a scheme other than Bearer', async () => ({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }), /Missing bearer token/],
    ['a bad signature (another secret)', async () => ({ authorization: `Bearer ${await token({ secret: 'x'.repeat(40) })}` }), /not valid/],
    ['an expired token', async () => ({ authorization: `Bearer ${await token({ expiresIn: -600 })}` }), /expired/],
    ['another issuer', async () => ({ authorization: `Bearer ${await token({ issuer: 'https://elsewhere.test' })}` }), /'iss' claim/],
    ['garbage', async () => ({ authorization: 'Bearer not.a.jwt' }), /not valid/],
  ];
  for (const [what, headers, reason] of refusals) {
    test(`${what}: 401 envelope, nothing created`, async () => {
      const answer = await create(await headers());
      assert.equal(answer.status, 401);
      assert.equal(answer.body.success, false);
      assert.equal(answer.body.subErrorCode, 'SVC401');
      assert.match(answer.body.description ?? '', reason);
    });
  }

  test('every operation is guarded, the info endpoints are not', async () => {
    assert.equal((await call(host.url, 'GET', '/{{serviceKebab}}/any-id')).status, 401);
    assert.equal((await call(host.url, 'POST', '/{{serviceKebab}}/op1', { id: 'any-id', delta: 1 })).status, 401);
    assert.equal((await call(host.url, 'GET', '/info')).status, 200);
    assert.equal((await call(host.url, 'GET', '/health-check/{{serviceKebab}}')).status, 200);
  });

  test('the token\'s subject and roles become the principal the operation sees', async () => {
    const seen: Array<Principal | undefined> = [];
    const recorder: Interceptor = { name: 'recorder', intercept: async (c, next) => { seen.push(c.context.principal); return next(); } };
    const service = make{{servicePascal}}Service({ repository: host.repository, interceptors: [makeBearerJwtInterceptor({ secret: JWT_SECRET, issuer: JWT_ISSUER }), recorder] });
    const registry = makeServiceRegistry({ host: { name: 'probe', version: '1' }, services: [service] });
    await registry.invoke('{{serviceKebab}}', 'create', { name: 'who' }, { tenant: TENANT, headers: { authorization: `Bearer ${await token({ subject: 'grace' })}` } });
    assert.deepEqual(seen, [{ id: 'grace', roles: ['clerk'] }]);
  });
});

describe('with a JWKS URL', () => {
  let jwks: Server;
  let host: Running{{servicePascal}}Host;
  let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  before(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    const body = JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] });
    jwks = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json`;
    host = await startTestHost({ jwt: { jwksUrl } });
  });
  after(async () => {
    await host.close();
    await new Promise<void>((resolve) => jwks.close(() => resolve()));
  });

  const signed = (key: Parameters<SignJWT['sign']>[0], alg: string) =>
    new SignJWT({}).setProtectedHeader({ alg, kid: 'k1' }).setSubject('svc').setExpirationTime('5m').sign(key);

  test('a token signed by the published key is accepted; one signed with a shared secret is not', async () => {
    const ok = await call(host.url, 'POST', '/{{serviceKebab}}', { name: 'jwks' }, { authorization: `Bearer ${await signed(privateKey, 'RS256')}` });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const hmac = await call(host.url, 'POST', '/{{serviceKebab}}', { name: 'jwks' }, { authorization: `Bearer ${await signed(new TextEncoder().encode(JWT_SECRET), 'HS256')}` });
    assert.equal(hmac.status, 401);
  });
});

test('the host refuses to start without a key to check tokens with, or with a short secret', async () => {
  await assert.rejects(start{{servicePascal}}Host(testSettings({ jwt: {} })), /exactly one of a secret/);
  await assert.rejects(start{{servicePascal}}Host(testSettings({ jwt: { secret: 'short' } })), /too short/);
});
