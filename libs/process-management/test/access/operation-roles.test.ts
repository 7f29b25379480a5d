/**
 * Every operation of the document, for every role, generated from the operation table the router
 * enforces: the roles the table allows get past authorisation (whatever the handler then answers),
 * the others get 403 { message }. Requests are chosen so that an allowed one changes nothing
 * (unknown ids and names, bodies the schema refuses).
 */
import { describeEachDatabase } from '@fw/test-support';
import type express from 'express';
import type { Logger } from '@fw/core';
import {
  accessOf,
  ADMIN_API_OPERATIONS,
  makeAuthFailureLimiter,
  OPERATION_ACCESS,
  accessKey,
  roleAllows,
  ROLES,
  type AdminApiOperation,
  type Role,
} from '../../src';
import { request } from '../contract';
import { API, auth, KEY, makeAdminHarness, seedDefinitions, T1, T2 } from '../support';
import {
  AUDIENCE,
  ISSUER,
  makeSigningKey,
  signToken,
  startJwksServer,
  type JwksServer,
  type SigningKey,
} from './jwks-fixture';

const UNKNOWN_ID = '00000000-0000-4000-8000-00000000abcd';

function pathOf(op: AdminApiOperation): string {
  return `${API}${op.path.replace('{id}', UNKNOWN_ID).replace('{name}', 'no-such-definition')}`;
}

function send(
  app: express.Express,
  op: AdminApiOperation,
  headers: Record<string, string>,
  body: unknown = op.body === undefined ? undefined : {},
) {
  const call = request(app)[op.method](pathOf(op)).set(headers);
  return body === undefined ? call : call.send(body as object);
}

describe('operation table', () => {
  it('lists every operation of the document', () => {
    const missing = ADMIN_API_OPERATIONS.map((op) => accessKey(op.method, op.path)).filter(
      (key) => OPERATION_ACCESS[key] === undefined,
    );
    expect(missing).toEqual([]);
  });

  it('keeps reads to viewers and fails closed (admin) for an operation it does not list', () => {
    for (const op of ADMIN_API_OPERATIONS.filter((o) => o.method === 'get' && o.path !== '/audit'))
      expect(accessOf(op.method, op.path).role).toBe('viewer');
    expect(accessOf('post', '/not-in-the-table').role).toBe('admin');
  });
});

describeEachDatabase('each role against every operation', (getDb) => {
  let jwks: JwksServer;
  let signer: SigningKey;
  let app: express.Express;
  const tokens = new Map<Role | 'none', string>();

  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    signer = await makeSigningKey('roles-key');
    jwks = await startJwksServer([signer]);
    app = makeAdminHarness(getDb(), { access: { jwt: { jwksUrl: jwks.url, issuer: ISSUER, audience: AUDIENCE } } }).app;
    for (const role of ROLES)
      tokens.set(role, await signToken(signer, { sub: `${role}-user`, fw_roles: [role], fw_tenants: ['*'] }));
    tokens.set('none', await signToken(signer, { sub: 'nobody', fw_roles: [], fw_tenants: ['*'] }));
  });
  afterAll(() => jwks.close());

  const headersOf = (role: Role | 'none', tenant = T1) => ({
    Authorization: `Bearer ${tokens.get(role) as string}`,
    'x-fw-tenant-id': tenant,
  });

  for (const op of ADMIN_API_OPERATIONS) {
    const access = accessOf(op.method, op.path);
    for (const role of ROLES) {
      const allowed = roleAllows(role, access.role);
      it(`${op.method.toUpperCase()} ${op.path}: ${role} is ${allowed ? 'allowed' : 'refused (403)'}`, async () => {
        const res = await send(app, op, headersOf(role));
        if (allowed) expect([401, 403]).not.toContain(res.status);
        else
          expect({ status: res.status, body: res.body }).toMatchObject({
            status: 403,
            body: {
              subErrorCode: 'PM403',
              message: `This operation needs role ${access.role}; the credential has role ${role}`,
            },
          });
      });
    }
    it(`${op.method.toUpperCase()} ${op.path}: a token without a role is refused (403)`, async () => {
      const res = await send(app, op, headersOf('none'));
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/carries no role/);
    });
    const narrower = access.narrower;
    if (narrower !== undefined) {
      it(`${op.method.toUpperCase()} ${op.path}: ${narrower.role} is allowed when ${narrower.when}, refused otherwise`, async () => {
        expect([401, 403]).not.toContain((await send(app, op, headersOf(narrower.role), { enabled: false })).status);
        expect((await send(app, op, headersOf(narrower.role), { enabled: false, name: 'renamed' })).status).toBe(403);
      });
    }
  }

  it('answers a tenant outside the claim with the same 403, whether that tenant has data or not', async () => {
    const created = await request(app)
      .post(`${API}/triggers`)
      .set(auth(T2))
      .send({ triggerId: 'scope-1', payload: { processDefName: 'single' } });
    expect(created.status).toBe(200);
    const processId = (await request(app).get(`${API}/processes`).set(auth(T2))).body.content[0].id as string;
    const scoped = await signToken(signer, { sub: 'scoped', fw_roles: ['admin'], fw_tenants: [T1] });
    const as = (tenant: string) => ({ Authorization: `Bearer ${scoped}`, 'x-fw-tenant-id': tenant });
    const answers = [];
    for (const tenant of [T2, 'no-such-tenant']) {
      answers.push(await request(app).get(`${API}/processes`).set(as(tenant)));
      answers.push(await request(app).get(`${API}/processes/${processId}`).set(as(tenant)));
      answers.push(await request(app).get(`${API}/executions`).set(as(tenant)));
      answers.push(
        await request(app)
          .post(`${API}/triggers`)
          .set(as(tenant))
          .send({ payload: { processDefName: 'single' } }),
      );
    }
    for (const res of answers)
      expect({ status: res.status, body: res.body }).toMatchObject({
        status: 403,
        body: { subErrorCode: 'PM403', message: 'The credential is not allowed for this tenant' },
      });
    expect((await request(app).get(`${API}/processes`).set(as(T1))).status).toBe(200);
  });
});

describeEachDatabase('keys as credentials', (getDb) => {
  const NEXT_KEY = 'n'.repeat(20) + '-rotated-key-0123456789';
  const VIEWER_KEY = 'v'.repeat(20) + '-viewer-key-0123456789';
  let app: express.Express;

  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    app = makeAdminHarness(getDb(), {
      access: {
        keys: [{ key: NEXT_KEY }, { key: VIEWER_KEY, role: 'viewer', tenants: [T1] }],
        failureLimit: { maxFailures: 3, windowMillis: 60_000 },
      },
    }).app;
  });

  it('accepts two keys during a rotation, and a narrowed key only within its role and tenants', async () => {
    expect((await request(app).get(`${API}/info`).set(auth())).status).toBe(200);
    expect(
      (
        await request(app)
          .get(`${API}/info`)
          .set({ ...auth(), 'X-Process-Management-Key': NEXT_KEY })
      ).status,
    ).toBe(200);
    const viewer = { 'X-Process-Management-Key': VIEWER_KEY, 'x-fw-tenant-id': T1 };
    expect((await request(app).get(`${API}/processes`).set(viewer)).status).toBe(200);
    expect(
      (
        await request(app)
          .post(`${API}/triggers`)
          .set(viewer)
          .send({ payload: { processDefName: 'single' } })
      ).status,
    ).toBe(403);
    expect(
      (
        await request(app)
          .get(`${API}/processes`)
          .set({ ...viewer, 'x-fw-tenant-id': T2 })
      ).status,
    ).toBe(403);
  });

  it('answers 429 with Retry-After after too many refused credentials from one address, valid ones included', async () => {
    for (let i = 0; i < 3; i += 1)
      expect(
        (
          await request(app)
            .get(`${API}/info`)
            .set({ ...auth(), 'X-Process-Management-Key': `${KEY}-guess-${i}` })
        ).status,
      ).toBe(401);
    const blocked = await request(app).get(`${API}/info`).set(auth());
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.body).toMatchObject({
      subErrorCode: 'PM429',
      message: 'Too many failed authentications from this address: try again later',
    });
  });
});

describe('failed-authentication limiter', () => {
  it('blocks an address for the rest of its window and warns once per burst, naming the address only', () => {
    const warn = jest.fn();
    let now = 1_000;
    const limiter = makeAuthFailureLimiter({
      maxFailures: 2,
      windowMillis: 10_000,
      now: () => now,
      logger: { warn } as unknown as Logger,
    });
    limiter.recordFailure('10.0.0.1');
    expect(limiter.blockedFor('10.0.0.1')).toBe(0);
    for (let i = 0; i < 5; i += 1) limiter.recordFailure('10.0.0.1');
    expect(limiter.blockedFor('10.0.0.1')).toBe(10_000);
    expect(limiter.blockedFor('10.0.0.2')).toBe(0);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toEqual({ source: '10.0.0.1', failures: 2, windowMillis: 10_000 });
    now += 10_000;
    expect(limiter.blockedFor('10.0.0.1')).toBe(0);
    limiter.recordFailure('10.0.0.1');
    limiter.recordFailure('10.0.0.1');
    expect(warn).toHaveBeenCalledTimes(2); // a new burst
  });
});
