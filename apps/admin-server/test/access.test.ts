import { describeEachDatabase } from '@fw/test-support';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import rawRequest from 'supertest';
import type { AdminServer } from '../src';
import { createAdminServer, seedDefinitions, WORD_COUNT_DEFINITIONS } from '../src';
import { accessConfigFromEnv } from '../src/config/access-config';
import { API, KEY, testConfig } from './support';

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
// jose is an ECMAScript module only: loaded natively, past the test transform's require().
const loadJose = new Function('s', 'return import(s)') as (specifier: string) => Promise<Jose>;

const ISSUER = 'https://idp.example.test/';
const AUDIENCE = 'fw-admin-server';
const NEXT_KEY = 'next-rotation-key-0123456789abcdef-xyz';

describe('access settings from the environment', () => {
  it('reads keys, their role and tenants, and the bearer-token settings', () => {
    const config = accessConfigFromEnv(
      {
        PROCESS_MANAGEMENT_API_KEYS: ` ${NEXT_KEY}, ${KEY} `,
        PROCESS_MANAGEMENT_KEY_ROLE: 'operator',
        PROCESS_MANAGEMENT_KEY_TENANTS: 'acme,beta',
        PROCESS_MANAGEMENT_JWKS_FILE: 'keys/jwks.json',
        PROCESS_MANAGEMENT_JWT_ISSUER: ISSUER,
        PROCESS_MANAGEMENT_JWT_AUDIENCE: 'a,b',
        PROCESS_MANAGEMENT_JWT_CLOCK_SKEW: '5',
        PROCESS_MANAGEMENT_JWT_ROLE_NAMES: 'viewer=ops-read,admin=ops-admin',
      },
      '/srv',
    );
    expect(config).toEqual({
      keys: [NEXT_KEY, KEY],
      keyRole: 'operator',
      keyTenants: ['acme', 'beta'],
      jwt: {
        jwksFile: '/srv/keys/jwks.json',
        issuer: ISSUER,
        audience: ['a', 'b'],
        clockToleranceSeconds: 5,
        roleNames: { viewer: 'ops-read', admin: 'ops-admin' },
      },
    });
    expect(accessConfigFromEnv({}, '/srv')).toEqual({ keys: [], keyRole: 'admin', keyTenants: '*' });
  });

  it('refuses unusable settings, naming the variable', () => {
    const cases: Array<[NodeJS.ProcessEnv, RegExp]> = [
      [{ PROCESS_MANAGEMENT_API_KEYS: 'short' }, /PROCESS_MANAGEMENT_API_KEYS is too short/],
      [{ PROCESS_MANAGEMENT_KEY_ROLE: 'root' }, /PROCESS_MANAGEMENT_KEY_ROLE must be one of viewer, operator, admin/],
      [{ PROCESS_MANAGEMENT_KEY_TENANTS: 'a b' }, /PROCESS_MANAGEMENT_KEY_TENANTS/],
      [
        { PROCESS_MANAGEMENT_JWKS_URL: 'https://idp/jwks', PROCESS_MANAGEMENT_JWT_AUDIENCE: 'a' },
        /PROCESS_MANAGEMENT_JWT_ISSUER is not set/,
      ],
      [
        { PROCESS_MANAGEMENT_JWKS_URL: 'https://idp/jwks', PROCESS_MANAGEMENT_JWT_ISSUER: ISSUER },
        /PROCESS_MANAGEMENT_JWT_AUDIENCE is not set/,
      ],
      [{ PROCESS_MANAGEMENT_JWKS_URL: 'https://idp/jwks', PROCESS_MANAGEMENT_JWKS_FILE: 'x' }, /not both/],
      [
        {
          PROCESS_MANAGEMENT_JWKS_URL: 'https://idp/jwks',
          PROCESS_MANAGEMENT_JWT_ISSUER: ISSUER,
          PROCESS_MANAGEMENT_JWT_AUDIENCE: 'a',
          PROCESS_MANAGEMENT_JWT_ROLE_NAMES: 'boss=x',
        },
        /PROCESS_MANAGEMENT_JWT_ROLE_NAMES/,
      ],
    ];
    for (const [env, message] of cases) expect(() => accessConfigFromEnv(env, '/srv')).toThrow(message);
  });
});

describeEachDatabase('admin server with keys in rotation and bearer tokens from a JWKS file', (getDb) => {
  let server: AdminServer;
  let url: string;
  let sign: (claims: Record<string, unknown>) => Promise<string>;

  beforeAll(async () => {
    const jose = await loadJose('jose');
    const { privateKey, publicKey } = await jose.generateKeyPair('ES256');
    const dir = mkdtempSync(path.join(tmpdir(), 'fw-jwks-'));
    const jwksFile = path.join(dir, 'jwks.json');
    writeFileSync(
      jwksFile,
      JSON.stringify({ keys: [{ ...(await jose.exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] }),
    );
    sign = (claims) =>
      new jose.SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(String(claims.sub ?? 'someone'))
        .setExpirationTime('5m')
        .sign(privateKey);
    await seedDefinitions(getDb().database, WORD_COUNT_DEFINITIONS);
    const env = {
      PROCESS_MANAGEMENT_API_KEYS: NEXT_KEY,
      PROCESS_MANAGEMENT_JWKS_FILE: jwksFile,
      PROCESS_MANAGEMENT_JWT_ISSUER: ISSUER,
      PROCESS_MANAGEMENT_JWT_AUDIENCE: AUDIENCE,
    };
    server = await createAdminServer({
      config: { ...testConfig(getDb()), access: accessConfigFromEnv(env, dir) },
      database: getDb().database,
      ownerId: 'access-test',
      exampleWorkers: false,
    });
    ({ url } = await server.listen());
  }, 60_000);
  afterAll(() => server?.close(), 60_000);

  it('takes both keys of a rotation on every route, and a token within its role and tenants', async () => {
    for (const key of [KEY, NEXT_KEY]) {
      expect(
        (
          await rawRequest(url)
            .get(`${API}/processes`)
            .set({ 'X-Process-Management-Key': key, 'x-fw-tenant-id': 'demo' })
        ).status,
      ).toBe(200);
      expect(
        (
          await rawRequest(url)
            .get('/process/00000000-0000-4000-8000-000000000000')
            .set({ 'X-Process-Management-Key': key, 'x-fw-tenant-id': 'demo' })
        ).status,
      ).toBe(404);
    }
    const viewer = `Bearer ${await sign({ sub: 'vera', fw_roles: ['viewer'], fw_tenants: ['demo'] })}`;
    const me = await rawRequest(url).get(`${API}/me`).set({ Authorization: viewer });
    expect(me.body).toMatchObject({ actor: 'jwt:vera', credential: 'jwt', role: 'viewer', tenants: ['demo'] });
    expect(
      (await rawRequest(url).get(`${API}/processes`).set({ Authorization: viewer, 'x-fw-tenant-id': 'demo' })).status,
    ).toBe(200);
    expect(
      (await rawRequest(url).get(`${API}/processes`).set({ Authorization: viewer, 'x-fw-tenant-id': 'other' })).status,
    ).toBe(403);
    const refused = await rawRequest(url)
      .post(`${API}/triggers`)
      .set({ Authorization: viewer, 'x-fw-tenant-id': 'demo' })
      .send({ payload: { processDefName: 'word-count', args: { text: 'a' } } });
    expect(refused.status).toBe(403);
    // The /process routes take only a credential that is admin over every tenant (the workers' key).
    const process = await rawRequest(url)
      .post('/process')
      .set({ Authorization: viewer, 'x-fw-tenant-id': 'demo' })
      .send({ processDefName: 'word-count', args: { text: 'a' } });
    expect(process.status).toBe(403);
    expect(process.body).toMatchObject({ success: false, code: 403, subErrorCode: 'PM403' });

    const admin = `Bearer ${await sign({ sub: 'ada', fw_roles: ['admin'], fw_tenants: ['*'] })}`;
    const trail = await rawRequest(url).get(`${API}/audit`).set({ Authorization: admin, 'x-fw-tenant-id': 'demo' });
    expect(trail.status).toBe(200);
    expect(
      trail.body.content.map((r: { actor: string; action: string; outcome: string }) => [r.actor, r.action, r.outcome]),
    ).toEqual([['jwt:vera', 'trigger', 'refused']]);
  });
});
