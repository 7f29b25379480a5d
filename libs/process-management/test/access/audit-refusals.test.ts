/**
 * Writes refused before their handler because no credential was accepted (401) are in the audit
 * trail as `refused`: the actor when the identity provider vouched for it (an expired token),
 * else `anonymous`; the kind of credential presented (null for none); the tenant header; the id in
 * the path; the request id. Reads and unknown paths add nothing, and an address past the failure
 * limit (429) adds nothing either.
 */
import { describeEachDatabase } from '@fw/test-support';
import type express from 'express';
import { sql } from 'kysely';
import rawRequest from 'supertest';
import type { AuditEntry } from '../../src';
import { request } from '../contract';
import { API, auth, makeAdminHarness, seedDefinitions, T1 } from '../support';
import {
  makeSigningKey,
  signToken,
  startJwksServer,
  withForeignSignature,
  AUDIENCE,
  ISSUER,
  type JwksServer,
  type SigningKey,
} from './jwks-fixture';

describeEachDatabase('refused writes in the audit trail', (getDb) => {
  let jwks: JwksServer;
  let signer: SigningKey;
  let app: express.Express;
  let n = 0;

  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    signer = await makeSigningKey('refusals');
    jwks = await startJwksServer([signer]);
    app = makeAdminHarness(getDb(), { access: { jwt: { jwksUrl: jwks.url, issuer: ISSUER, audience: AUDIENCE } } }).app;
  });
  afterAll(() => jwks.close());

  /** The audit entry of one request, read through GET /audit (validated against the document). */
  async function entryOf(requestId: string, tenant = T1): Promise<Partial<AuditEntry>[]> {
    const res = await request(app).get(`${API}/audit?size=100`).set(auth(tenant));
    expect(res.status).toBe(200);
    return (res.body.content as AuditEntry[])
      .filter((e) => e.requestId === requestId)
      .map(({ actor, credential, tenant: t, action, target, outcome }) => ({
        actor,
        credential,
        tenant: t,
        action,
        target,
        outcome,
      }));
  }

  function nextId(): string {
    n += 1;
    return `refusal-${n}`;
  }

  it('records a write without credential, with a wrong key, with a refused token, naming what is known', async () => {
    const noCredential = nextId();
    const res1 = await rawRequest(app)
      .post(`${API}/triggers`)
      .set({ 'x-fw-tenant-id': T1, 'X-Request-Id': noCredential })
      .send({ payload: { processDefName: 'single' } });
    expect(res1.status).toBe(401);
    expect(await entryOf(noCredential)).toEqual([
      { actor: 'anonymous', credential: null, tenant: T1, action: 'trigger', target: null, outcome: 'refused' },
    ]);

    const wrongKey = nextId();
    const crontab = '00000000-0000-4000-8000-00000000abcd';
    const res2 = await rawRequest(app)
      .delete(`${API}/crontabs/${crontab}`)
      .set({ 'X-Process-Management-Key': 'x'.repeat(40), 'x-fw-tenant-id': T1, 'X-Request-Id': wrongKey });
    expect(res2.status).toBe(401);
    expect(await entryOf(wrongKey)).toEqual([
      {
        actor: 'anonymous',
        credential: 'key',
        tenant: T1,
        action: 'deleteCrontab',
        target: crontab,
        outcome: 'refused',
      },
    ]);

    // Expired: the identity provider signed it, so its subject is the actor.
    const expired = nextId();
    const expiredToken = await signToken(signer, {
      sub: 'eve',
      fw_roles: ['admin'],
      fw_tenants: ['*'],
      expiresIn: -600,
    });
    const res3 = await rawRequest(app)
      .put(`${API}/definitions/single`)
      .set({ Authorization: `Bearer ${expiredToken}`, 'x-fw-tenant-id': T1, 'X-Request-Id': expired })
      .send({ leaf: true });
    expect(res3.status).toBe(401);
    expect(res3.body.message).toMatch(/expired/);
    expect(await entryOf(expired)).toEqual([
      {
        actor: 'jwt:eve',
        credential: 'jwt',
        tenant: T1,
        action: 'updateDefinition',
        target: 'single',
        outcome: 'refused',
      },
    ]);

    // A signature nobody vouches for: its claims name no one.
    const forged = nextId();
    const other = await makeSigningKey('not-published');
    const forgedToken = withForeignSignature(
      await signToken(signer, { sub: 'ada', fw_roles: ['admin'] }),
      await signToken(other, { sub: 'ada' }),
    );
    const res4 = await rawRequest(app)
      .post(`${API}/definitions/refresh`)
      .set({ Authorization: `Bearer ${forgedToken}`, 'x-fw-tenant-id': T1, 'X-Request-Id': forged });
    expect(res4.status).toBe(401);
    expect(await entryOf(forged)).toEqual([
      {
        actor: 'anonymous',
        credential: 'jwt',
        tenant: T1,
        action: 'refreshDefinitions',
        target: null,
        outcome: 'refused',
      },
    ]);
    const trail = JSON.stringify((await request(app).get(`${API}/audit?size=100`).set(auth())).body);
    expect(trail).not.toContain(expiredToken);
    expect(trail).not.toContain('x'.repeat(40));
  });

  it('records nothing for reads, unknown paths and other methods, and no tenant it cannot read', async () => {
    const db = getDb().database.db;
    const count = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from fw_admin_audit`.execute(db)).rows[0].n);
    const before = await count();
    const none = { 'x-fw-tenant-id': T1 };
    expect((await rawRequest(app).get(`${API}/processes`).set(none)).status).toBe(401);
    expect((await rawRequest(app).get(`${API}/audit`).set(none)).status).toBe(401);
    expect((await rawRequest(app).post(`${API}/nowhere`).set(none).send({})).status).toBe(401);
    expect((await rawRequest(app).patch(`${API}/crontabs/1`).set(none).send({})).status).toBe(401);
    expect(await count()).toBe(before);

    const badTenant = nextId();
    const res = await rawRequest(app)
      .delete(`${API}/processes/${encodeURIComponent('a b')}`)
      .set({ 'x-fw-tenant-id': 'not a tenant!', 'X-Request-Id': badTenant });
    expect(res.status).toBe(401);
    const rows = await sql<{ tenant: string | null; target: string; action: string }>`
      select tenant, target, action from fw_admin_audit where request_id = ${badTenant}`.execute(db);
    expect(rows.rows).toEqual([{ tenant: null, target: 'a b', action: 'deleteProcess' }]);
  });

  it('counts writes without credential against the address; past the limit (429) nothing more is recorded', async () => {
    const limited = makeAdminHarness(getDb(), { access: { failureLimit: { maxFailures: 3 } } }).app;
    const none = { 'x-fw-tenant-id': 'limited-tenant' };
    // Reads without a credential do not count (a browser opening the dashboard).
    for (let i = 0; i < 5; i += 1) expect((await rawRequest(limited).get(`${API}/info`).set(none)).status).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1)
      statuses.push(
        (
          await rawRequest(limited)
            .post(`${API}/triggers`)
            .set(none)
            .send({ payload: { processDefName: 'single' } })
        ).status,
      );
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const recorded = await request(app).get(`${API}/audit?actor=anonymous`).set(auth('limited-tenant'));
    expect(recorded.body.totalElements).toBe(3);
  });
});
