import { describeEachDatabase } from '@fw/test-support';
import type express from 'express';
import { keyFingerprint, type AuditEntry as AuditRow } from '../../src';
import { request } from '../contract';
import { API, auth, KEY, makeAdminHarness, seedDefinitions, T1 } from '../support';
import {
  AUDIENCE,
  ISSUER,
  makeSigningKey,
  signToken,
  startJwksServer,
  type JwksServer,
  type SigningKey,
} from './jwks-fixture';

describeEachDatabase('audit trail', (getDb) => {
  const NEXT_KEY = 'r'.repeat(20) + '-rotation-key-0123456789';
  let jwks: JwksServer;
  let signer: SigningKey;
  let app: express.Express;
  let adminToken: string;
  let operatorToken: string;
  let viewerToken: string;

  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    signer = await makeSigningKey('audit-key');
    jwks = await startJwksServer([signer]);
    app = makeAdminHarness(getDb(), {
      access: { keys: [{ key: NEXT_KEY }], jwt: { jwksUrl: jwks.url, issuer: ISSUER, audience: AUDIENCE } },
    }).app;
    adminToken = await signToken(signer, { sub: 'ada', fw_roles: ['admin'], fw_tenants: ['*'] });
    operatorToken = await signToken(signer, { sub: 'otto', fw_roles: ['operator'], fw_tenants: [T1] });
    viewerToken = await signToken(signer, { sub: 'vera', fw_roles: ['viewer'], fw_tenants: [T1] });
  });
  afterAll(() => jwks.close());

  const bearer = (token: string, tenant = T1) => ({ Authorization: `Bearer ${token}`, 'x-fw-tenant-id': tenant });
  const trail = async (query = ''): Promise<AuditRow[]> => {
    const res = await request(app).get(`${API}/audit?size=100${query}`).set(bearer(adminToken));
    expect(res.status).toBe(200);
    return res.body.content as AuditRow[];
  };
  const count = async (): Promise<number> =>
    (await request(app).get(`${API}/audit?size=1`).set(bearer(adminToken))).body.totalElements as number;

  it('records every change with its actor, target, outcome and request id, newest first', async () => {
    const ops = [
      await request(app)
        .post(`${API}/definitions`)
        .set({ ...bearer(adminToken), 'X-Request-Id': 'req-def-1' })
        .send({ processType: 'audited', leaf: true }),
      await request(app)
        .put(`${API}/definitions/audited`)
        .set(bearer(adminToken))
        .send({ leaf: true, config: { note: 'changed' } }),
      await request(app)
        .post(`${API}/crontabs`)
        .set(auth())
        .send({ name: 'nightly', cronExpression: '0 0 2 * * *', payload: { processDefName: 'single' } }),
      await request(app)
        .post(`${API}/triggers`)
        .set(bearer(operatorToken))
        .send({ triggerId: 'audit-run', payload: { processDefName: 'single' } }),
      await request(app)
        .post(`${API}/definitions/refresh`)
        .set({ ...auth(), 'X-Process-Management-Key': NEXT_KEY }),
      await request(app).delete(`${API}/definitions/audited`).set(bearer(adminToken)),
    ];
    expect(ops.map((r) => r.status)).toEqual([201, 200, 201, 200, 200, 204]);
    expect(ops[0].headers['x-request-id']).toBe('req-def-1');
    const crontabId = ops[2].body.id as string;
    const rows = await trail();
    expect(
      rows.map((r) => ({
        actor: r.actor,
        credential: r.credential,
        tenant: r.tenant,
        action: r.action,
        target: r.target,
        outcome: r.outcome,
      })),
    ).toEqual([
      { actor: 'jwt:ada', credential: 'jwt', tenant: T1, action: 'deleteDefinition', target: 'audited', outcome: 'ok' },
      {
        actor: keyFingerprint(NEXT_KEY),
        credential: 'key',
        tenant: T1,
        action: 'refreshDefinitions',
        target: null,
        outcome: 'ok',
      },
      {
        actor: 'jwt:otto',
        credential: 'jwt',
        tenant: T1,
        action: 'trigger',
        target: `manual:${T1}:audit-run`,
        outcome: 'ok',
      },
      {
        actor: keyFingerprint(KEY),
        credential: 'key',
        tenant: T1,
        action: 'addCrontab',
        target: crontabId,
        outcome: 'ok',
      },
      { actor: 'jwt:ada', credential: 'jwt', tenant: T1, action: 'updateDefinition', target: 'audited', outcome: 'ok' },
      { actor: 'jwt:ada', credential: 'jwt', tenant: T1, action: 'addDefinition', target: 'audited', outcome: 'ok' },
    ]);
    expect(rows[5].requestId).toBe('req-def-1');
    expect(rows[4].requestId).toBe(ops[1].headers['x-request-id']);
    expect(JSON.stringify(rows)).not.toContain(KEY);
    expect(JSON.stringify(rows)).not.toContain(NEXT_KEY);
  });

  it('records a failed write as failed and a refused one as refused, and nothing for reads', async () => {
    const before = await count();
    const reads = [
      await request(app).get(`${API}/processes`).set(bearer(viewerToken)),
      await request(app).get(`${API}/definitions`).set(bearer(viewerToken)),
      await request(app).get(`${API}/crontabs`).set(auth()),
      await request(app).get(`${API}/executions`).set(auth()),
      await request(app).get(`${API}/me`).set(bearer(viewerToken)),
      await request(app).get(`${API}/processes/00000000-0000-4000-8000-000000000000`).set(auth()),
    ];
    expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 404]);
    expect(await count()).toBe(before);

    const duplicate = await request(app)
      .post(`${API}/definitions`)
      .set(bearer(adminToken))
      .send({ processType: 'single', leaf: true });
    expect(duplicate.status).toBe(409);
    const cycle = await request(app)
      .put(`${API}/definitions/wordcount`)
      .set(bearer(adminToken))
      .send({ leaf: false, predecessorProcessType: 'report' });
    expect(cycle.status).toBe(400);
    const invalid = await request(app)
      .post(`${API}/crontabs`)
      .set(bearer(adminToken))
      .send({ name: 'bad', cronExpression: '* * *', payload: { processDefName: 'single' } });
    expect(invalid.status).toBe(400);
    const refused = await request(app)
      .post(`${API}/triggers`)
      .set(bearer(viewerToken))
      .send({ payload: { processDefName: 'single' } });
    expect(refused.status).toBe(403);
    const outOfScope = await request(app)
      .delete(`${API}/crontabs/00000000-0000-4000-8000-000000000000`)
      .set(bearer(operatorToken, 'other-tenant'));
    expect(outOfScope.status).toBe(403);

    const rows = await trail();
    expect(rows.slice(0, 4).map((r) => [r.actor, r.action, r.target, r.outcome])).toEqual([
      ['jwt:vera', 'trigger', null, 'refused'],
      ['jwt:ada', 'addCrontab', 'bad', 'failed'],
      ['jwt:ada', 'updateDefinition', 'wordcount', 'failed'],
      ['jwt:ada', 'addDefinition', 'single', 'failed'],
    ]);
    // The refusal for another tenant is in that tenant's trail.
    const other = await request(app).get(`${API}/audit`).set(bearer(adminToken, 'other-tenant'));
    expect(other.body.content.map((r: AuditRow) => [r.actor, r.action, r.outcome])).toEqual([
      ['jwt:otto', 'deleteCrontab', 'refused'],
    ]);
  });

  it('filters by actor, action and time, pages like the other lists, and is for admins only', async () => {
    const byActor = await trail('&actor=jwt:otto');
    expect(byActor.map((r) => r.action)).toEqual(['trigger']);
    const byAction = await trail('&action=addDefinition');
    expect(byAction.map((r) => r.outcome)).toEqual(['failed', 'ok']);
    expect(await trail(`&from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
    expect(
      (await trail(`&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).length,
    ).toBeGreaterThan(5);
    const page = await request(app).get(`${API}/audit?size=2&page=1`).set(bearer(adminToken));
    expect(page.body).toMatchObject({ page: 1, size: 2, content: expect.any(Array) });
    expect(page.body.content).toHaveLength(2);
    expect((await request(app).get(`${API}/audit?from=yesterday`).set(bearer(adminToken))).status).toBe(400);
    expect((await request(app).get(`${API}/audit`).set(bearer(operatorToken))).status).toBe(403);
  });
});
