import { describeEachDatabase } from '@fw/test-support';
import type express from 'express';
import { makeJwtVerifier } from '../../src';
import { request } from '../contract';
import { API, makeAdminHarness, seedDefinitions, T1 } from '../support';
import {
  AUDIENCE,
  hmacWithPublicKey,
  ISSUER,
  makeSigningKey,
  signToken,
  startJwksServer,
  unsignedToken,
  withForeignSignature,
  type JwksServer,
  type SigningKey,
} from './jwks-fixture';

describe('JWT verifier options', () => {
  it('refuses symmetric algorithms, none, a missing key set, issuer or audience at start-up', () => {
    const base = { jwks: { keys: [] }, issuer: ISSUER, audience: AUDIENCE };
    expect(() => makeJwtVerifier({ ...base, algorithms: ['HS256'] })).toThrow(/asymmetric.*refused: HS256/);
    expect(() => makeJwtVerifier({ ...base, algorithms: ['none'] })).toThrow(/refused: none/);
    expect(() => makeJwtVerifier({ issuer: ISSUER, audience: AUDIENCE })).toThrow(/exactly one key set/);
    expect(() => makeJwtVerifier({ ...base, issuer: ' ' })).toThrow(/issuer is empty/);
    expect(() => makeJwtVerifier({ ...base, audience: [] })).toThrow(/audience is empty/);
    expect(() => makeJwtVerifier({ ...base, jwks: undefined, jwksUrl: 'file:///etc/passwd' })).toThrow(/http/);
  });
});

describeEachDatabase('bearer tokens verified against a JWKS server', (getDb) => {
  let jwks: JwksServer;
  let keyA: SigningKey;
  let keyB: SigningKey;
  let unpublished: SigningKey;
  let app: express.Express;

  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    [keyA, keyB, unpublished] = await Promise.all([
      makeSigningKey('key-a'),
      makeSigningKey('key-b', 'ES256'),
      makeSigningKey('key-x'),
    ]);
    jwks = await startJwksServer([keyA]);
    // No cool-down: every unknown key id makes exactly one fetch, which the test can count.
    app = makeAdminHarness(getDb(), {
      access: {
        jwt: { jwksUrl: jwks.url, issuer: ISSUER, audience: AUDIENCE, jwksCooldownMillis: 0 },
        failureLimit: { maxFailures: 1000 },
      },
    }).app;
  });
  afterAll(() => jwks.close());

  const info = (token: string) =>
    request(app)
      .get(`${API}/info`)
      .set({ Authorization: `Bearer ${token}`, 'x-fw-tenant-id': T1 });
  const viewer = { fw_roles: ['viewer'], fw_tenants: [T1] };

  it('accepts a valid token, takes a key added in a rotation after one fetch, and refuses an unknown key after exactly one more', async () => {
    expect((await info(await signToken(keyA, viewer))).status).toBe(200);
    expect(jwks.fetches()).toBe(1);
    expect((await info(await signToken(keyA, viewer))).status).toBe(200);
    expect(jwks.fetches()).toBe(1); // cached

    jwks.publish([keyA, keyB]); // rotation: the new key is published beside the old one
    expect((await info(await signToken(keyB, viewer))).status).toBe(200);
    expect(jwks.fetches()).toBe(2); // the unknown kid made the verifier fetch once
    expect((await info(await signToken(keyA, viewer))).status).toBe(200); // both valid during the rotation

    const unknown = await info(await signToken(unpublished, viewer));
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({
      subErrorCode: 'PM401',
      message: 'The bearer token is signed with a key the identity provider does not publish',
    });
    expect(jwks.fetches()).toBe(3); // one refresh, then the refusal

    // The old key retired: once the cached set has aged out, its tokens are refused.
    jwks.publish([keyB]);
    const shortCache = makeJwtVerifier({
      jwksUrl: jwks.url,
      issuer: ISSUER,
      audience: AUDIENCE,
      jwksCacheMaxAgeMillis: 1,
      jwksCooldownMillis: 0,
    });
    await expect(shortCache.verify(await signToken(keyB, viewer))).resolves.toMatchObject({
      actor: 'jwt:alice',
      role: 'viewer',
      tenants: [T1],
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(shortCache.verify(await signToken(keyA, viewer))).rejects.toMatchObject({
      code: 401,
      description: 'The bearer token is signed with a key the identity provider does not publish',
    });
  });

  it('refuses expired, not-yet-valid, other-issuer, other-audience and subject-less tokens, tolerating a small clock skew', async () => {
    jwks.publish([keyA, keyB]);
    const cases: Array<[string, Parameters<typeof signToken>[1], string]> = [
      ['expired', { ...viewer, expiresIn: -120 }, 'The bearer token has expired'],
      ['not yet valid', { ...viewer, notBeforeIn: 120 }, 'The bearer token is not valid yet'],
      ['wrong issuer', { ...viewer, iss: 'https://evil.test/' }, 'The bearer token was issued by another issuer'],
      ['wrong audience', { ...viewer, aud: 'someone-else' }, 'The bearer token is meant for another audience'],
      ['no subject', { ...viewer, sub: '' }, "The bearer token's claim 'sub' is missing or invalid"],
    ];
    for (const [name, claims, message] of cases) {
      const res = await info(await signToken(keyA, claims));
      expect({ name, status: res.status, body: res.body }).toMatchObject({
        name,
        status: 401,
        body: { subErrorCode: 'PM401', message },
      });
    }
    // Within the 30 s tolerance: accepted.
    expect((await info(await signToken(keyA, { ...viewer, expiresIn: -10 }))).status).toBe(200);
    expect((await info(await signToken(keyA, { ...viewer, notBeforeIn: 10 }))).status).toBe(200);
  });

  it('refuses a bad signature, alg none and an HS256 token signed with the published public key', async () => {
    const valid = await signToken(keyA, viewer);
    const other = await signToken(keyA, { ...viewer, sub: 'bob' });
    const forged = withForeignSignature(valid, other);
    const cases: Array<[string, string, RegExp]> = [
      ['bad signature', forged, /signature is invalid/],
      ['alg none', unsignedToken('key-a', { fw_roles: ['admin'] }), /malformed or invalid|algorithm/],
      [
        'HS256 with the public key',
        await hmacWithPublicKey(keyA, { fw_roles: ['admin'] }),
        /algorithm that is not accepted/,
      ],
      ['not a JWT', 'abc.def', /malformed or invalid/],
    ];
    for (const [name, token, message] of cases) {
      const res = await info(token);
      expect({ name, status: res.status }).toEqual({ name, status: 401 });
      expect(res.body.message).toMatch(message);
      expect(JSON.stringify(res.body)).not.toContain(token.split('.')[1]);
    }
  });

  it('refuses a malformed Authorization header and reports the caller of a valid token at /me', async () => {
    const malformed = await request(app).get(`${API}/info`).set({ Authorization: 'Basic abc', 'x-fw-tenant-id': T1 });
    expect(malformed.status).toBe(401);
    expect(malformed.body.message).toMatch(/Bearer <token>/);
    const me = await request(app)
      .get(`${API}/me`)
      .set({
        Authorization: `Bearer ${await signToken(keyA, { sub: 'carol', fw_roles: ['operator', 'unknown-role'], fw_tenants: [T1, 'bad tenant!'] })}`,
      });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      actor: 'jwt:carol',
      credential: 'jwt',
      role: 'operator',
      tenants: [T1],
      operations: expect.arrayContaining(['trigger', 'updateCrontab', 'listProcesses']),
    });
    expect(me.body.operations).not.toContain('addDefinition');
    expect(me.body.operations).not.toContain('listAudit');
  });
});
