/**
 * The process dashboard at `/`: the built index for `/` and deep links (browser navigations),
 * hashed assets with a long cache, the server's own paths never answered with the index, a page
 * saying how to build when the build is missing, and PROCESS_ADMIN_DASHBOARD.
 */
import express from 'express';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { adminConfigFromEnv } from '../src/config/admin-config';
import { DASHBOARD_MISSING_HTML, makeDashboardRouter, servicePathPrefixes } from '../src/dashboard/dashboard-router';

const HTML = { Accept: 'text/html,application/xhtml+xml' };

function appWith(dir: string): express.Express {
  const app = express();
  app.use(makeDashboardRouter({ assetsDir: dir, reservedPrefixes: ['/support-ticket'] }));
  app.use((_req, res) => void res.status(401).json({ message: 'key needed' }));
  return app;
}

describe('dashboard router', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fw-dashboard-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers / and deep links with the index, no-cache, with a content security policy', async () => {
    const app = appWith(dir);
    for (const url of [
      '/',
      '/t/demo/processes',
      '/t/demo/processes/5f0c8a51-0000-4000-8000-000000000000',
      '/t/acme/trace?triggerId=manual:acme:x',
    ]) {
      const res = await request(app).get(url).set(HTML);
      expect(res.status).toBe(200);
      expect(res.text).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    }
    expect((await request(app).head('/t/demo/cron').set(HTML)).status).toBe(200);
  });

  it('serves hashed assets with a year-long immutable cache; a missing asset is 404, never the index', async () => {
    const app = appWith(dir);
    const asset = await request(app).get('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toMatch(/max-age=31536000.*immutable/);
    const missing = await request(app).get('/assets/nope.js').set(HTML);
    expect(missing.status).toBe(404);
    expect(missing.text).not.toContain('<div id="root">');
  });

  it("never answers the server's own paths, other methods or non-browser requests with the index", async () => {
    const app = appWith(dir);
    for (const url of [
      '/process-management/api/processes',
      '/process/x',
      '/processChildren/x',
      '/info',
      '/service-info/process',
      '/health-check',
      '/openapi.json',
      '/mcp',
      '/fw/admin/',
      '/support-ticket/1',
    ]) {
      expect((await request(app).get(url).set(HTML)).status).toBe(401);
    }
    expect((await request(app).post('/t/demo/processes').set(HTML)).status).toBe(401);
    expect((await request(app).get('/t/demo/processes').set('Accept', 'application/json')).status).toBe(401);
  });

  it('answers / and deep links with 503 and a page saying how to build when the build is missing', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'fw-dashboard-empty-'));
    try {
      const app = appWith(empty);
      const res = await request(app).get('/');
      expect(res.status).toBe(503);
      expect(res.text).toBe(DASHBOARD_MISSING_HTML);
      expect(res.text).toContain('npm run build -w @fw/process-dashboard');
      expect((await request(app).get('/t/demo/processes').set(HTML)).status).toBe(503);
      expect((await request(app).get('/t/demo/processes').set('Accept', 'application/json')).status).toBe(401);
      expect((await request(app).get('/process-management/api/processes').set(HTML)).status).toBe(401);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('reserves the first path segment of every served operation', () => {
    expect(
      servicePathPrefixes([
        { operations: [{ path: '/support-ticket/:id' }, { path: '/support-ticket' }, {}] },
        { operations: [{ path: '/{x}/y' }] },
      ]),
    ).toEqual(['/support-ticket']);
  });
});

describe('PROCESS_ADMIN_DASHBOARD', () => {
  const env = {
    PROCESS_DATABASE_URL: 'postgres://db/x',
    PROCESS_DATABASE_USERNAME: 'u',
    PROCESS_DATABASE_PASSWORD: '',
    PROCESS_MANAGEMENT_API_KEY: 'k'.repeat(40),
  };
  it('is on by default and in both profiles; off, on, true, false are read; anything else is refused', () => {
    expect(adminConfigFromEnv('production', env, '/tmp').dashboardEnabled).toBe(true);
    expect(adminConfigFromEnv('dev', {}, '/tmp').dashboardEnabled).toBe(true);
    expect(adminConfigFromEnv('production', { ...env, PROCESS_ADMIN_DASHBOARD: 'off' }, '/tmp').dashboardEnabled).toBe(
      false,
    );
    expect(adminConfigFromEnv('production', { ...env, PROCESS_ADMIN_DASHBOARD: 'OFF' }, '/tmp').dashboardEnabled).toBe(
      false,
    );
    expect(
      adminConfigFromEnv('production', { ...env, PROCESS_ADMIN_DASHBOARD: 'false' }, '/tmp').dashboardEnabled,
    ).toBe(false);
    expect(adminConfigFromEnv('production', { ...env, PROCESS_ADMIN_DASHBOARD: 'on' }, '/tmp').dashboardEnabled).toBe(
      true,
    );
    expect(() => adminConfigFromEnv('production', { ...env, PROCESS_ADMIN_DASHBOARD: 'maybe' }, '/tmp')).toThrow(
      /PROCESS_ADMIN_DASHBOARD must be on or off/,
    );
  });
});

describe('single sign-on of the dashboard (FW_ADMIN_OIDC_*)', () => {
  const env = {
    PROCESS_DATABASE_URL: 'postgres://db/x',
    PROCESS_DATABASE_USERNAME: 'u',
    PROCESS_DATABASE_PASSWORD: '',
    PROCESS_MANAGEMENT_API_KEY: 'k'.repeat(40),
    PROCESS_MANAGEMENT_JWKS_URL: 'https://idp.example.com/realms/ops/certs',
    PROCESS_MANAGEMENT_JWT_ISSUER: 'https://idp.example.com/realms/ops',
    PROCESS_MANAGEMENT_JWT_AUDIENCE: 'fw-admin',
  };
  const oidc = { FW_ADMIN_OIDC_ISSUER: 'https://idp.example.com/realms/ops', FW_ADMIN_OIDC_CLIENT_ID: 'fw-dashboard' };
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fw-dashboard-oidc-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the issuer, client id, scope and further origins; refuses what cannot work', () => {
    expect(adminConfigFromEnv('production', env, '/tmp').signIn).toEqual({});
    expect(
      adminConfigFromEnv(
        'production',
        {
          ...env,
          ...oidc,
          FW_ADMIN_OIDC_SCOPE: ' openid   profile ',
          FW_ADMIN_OIDC_CONNECT_ORIGINS: 'https://tokens.example.com, https://idp.example.com',
        },
        '/tmp',
      ).signIn,
    ).toEqual({
      oidc: {
        issuer: 'https://idp.example.com/realms/ops',
        clientId: 'fw-dashboard',
        scope: 'openid profile',
        connectOrigins: ['https://idp.example.com', 'https://tokens.example.com'],
      },
    });
    const local = { ...env, FW_ADMIN_OIDC_ISSUER: 'http://127.0.0.1:9000/', FW_ADMIN_OIDC_CLIENT_ID: 'x' };
    expect(adminConfigFromEnv('production', local, '/tmp').signIn?.oidc?.connectOrigins).toEqual([
      'http://127.0.0.1:9000',
    ]);
    const refused: Array<[Record<string, string>, RegExp]> = [
      [{ ...env, FW_ADMIN_OIDC_ISSUER: oidc.FW_ADMIN_OIDC_ISSUER }, /without FW_ADMIN_OIDC_CLIENT_ID/],
      [{ ...env, FW_ADMIN_OIDC_CLIENT_ID: 'fw-dashboard' }, /without FW_ADMIN_OIDC_ISSUER/],
      [{ ...env, ...oidc, FW_ADMIN_OIDC_ISSUER: 'http://idp.example.com/' }, /must be https/],
      [{ ...env, ...oidc, FW_ADMIN_OIDC_ISSUER: 'idp.example.com' }, /must be a URL/],
      [{ ...env, ...oidc, FW_ADMIN_OIDC_CONNECT_ORIGINS: 'https://t.example.com/token' }, /takes origins/],
      [{ ...env, ...oidc, PROCESS_MANAGEMENT_JWKS_URL: '' }, /needs bearer tokens/],
    ];
    for (const [given, message] of refused)
      expect(() => adminConfigFromEnv('production', given, '/tmp')).toThrow(message);
  });

  it('answers /dashboard-config.json and lets the page call the identity provider, nothing more', async () => {
    const signIn = adminConfigFromEnv('production', { ...env, ...oidc }, '/tmp').signIn;
    const app = express();
    app.use(makeDashboardRouter({ assetsDir: dir, signIn }));
    const config = await request(app).get('/dashboard-config.json');
    expect(config.status).toBe(200);
    expect(config.headers['cache-control']).toBe('no-cache');
    expect(config.body).toEqual({
      oidc: { issuer: 'https://idp.example.com/realms/ops', clientId: 'fw-dashboard', scope: 'openid' },
    });
    const page = await request(app).get('/').set(HTML);
    expect(page.headers['content-security-policy']).toContain("connect-src 'self' https://idp.example.com;");

    const without = express();
    without.use(makeDashboardRouter({ assetsDir: dir }));
    expect((await request(without).get('/dashboard-config.json')).body).toEqual({ oidc: null });
    expect((await request(without).get('/').set(HTML)).headers['content-security-policy']).toContain(
      "connect-src 'self';",
    );
  });
});
