import { createLogger } from '@fw/core';
import { makeErrorMiddleware, makeNotFoundHandler } from '@fw/core/http';
import { makeAdminUiRouter } from '@fw/admin-ui';
import { defineService, makeServiceRegistry, makeServiceRouter } from '@fw/service';
import express, { type Express } from 'express';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';

const INDEX =
  '<!doctype html><html><head><title>fw admin</title><script type="module" src="./assets/index-AbCdEf12.js"></script></head><body><div id="root"></div></body></html>';

describe('makeAdminUiRouter', () => {
  let dir: string;
  let upstream: Server;
  let upstreamOrigin: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'fw-admin-ui-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), INDEX);
    writeFileSync(path.join(dir, 'assets', 'index-AbCdEf12.js'), 'console.log("app")');
    writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    // A real host on another origin: one service, its info endpoints, and a route that is not read-only.
    const registry = makeServiceRegistry({
      host: { name: 'remote', version: '1.0.0' },
      services: [
        defineService({
          name: 'books',
          version: '2.0.0',
          operations: [{ name: 'list', method: 'GET', path: '/books', handler: async () => ['secret'] }],
          healthCheck: async () => ({ healthy: true }),
        }),
      ],
    });
    const remote = express();
    remote.get('/redirect/info', (_req, res) => void res.redirect('/info'));
    remote.use(makeServiceRouter(registry));
    remote.use(makeNotFoundHandler(), makeErrorMiddleware(createLogger({ name: 'remote', level: 'silent' })));
    upstream = await new Promise<Server>((resolve) => {
      const s = remote.listen(0, '127.0.0.1', () => resolve(s));
    });
    upstreamOrigin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  function host(options: Parameters<typeof makeAdminUiRouter>[0] = {}): Express {
    const app = express();
    app.use(makeAdminUiRouter({ assetsDir: dir, ...options }));
    app.use((_req, res) => void res.status(404).send('host 404'));
    return app;
  }

  it('serves the index with a <base> for the mount path, for the base path and every deep link a browser opens', async () => {
    const app = host();
    for (const url of ['/fw/admin/', '/fw/admin/services/query', '/fw/admin/services/support-ticket/workflow']) {
      const res = await request(app).get(url).set('Accept', 'text/html,application/xhtml+xml');
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.text).toContain('<head><base href="/fw/admin/">');
    }
    const bare = await request(app).get('/fw/admin?x=1');
    expect({ status: bare.status, location: bare.headers.location }).toEqual({
      status: 301,
      location: '/fw/admin/?x=1',
    });
    const nested = express();
    nested.use('/ops', makeAdminUiRouter({ assetsDir: dir, basePath: '/ui' }));
    expect((await request(nested).get('/ops/ui/services').set('Accept', 'text/html')).text).toContain(
      '<base href="/ops/ui/">',
    );
    expect((await request(app).get('/other')).text).toBe('host 404');
    expect((await request(app).get('/fw/admin/services/query').set('Accept', 'application/json')).text).toBe(
      'host 404',
    );
  });

  it('caches hashed assets for a year, other files never; a missing asset is 404, not the index', async () => {
    const app = host();
    const script = await request(app).get('/fw/admin/assets/index-AbCdEf12.js');
    expect(script.status).toBe(200);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await request(app).get('/fw/admin/favicon.svg')).headers['cache-control']).toBe('no-cache');
    const missing = await request(app).get('/fw/admin/assets/gone-12345678.js');
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('Not found');
  });

  it('is read-only: other methods are 405 with Allow', async () => {
    const res = await request(host()).post('/fw/admin/services').send({});
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('says how to build the app when it is missing, and refuses a bad base path or origin at once', async () => {
    const res = await request(host({ assetsDir: path.join(dir, 'nope') })).get('/fw/admin/');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/not built.*npm run build -w @fw\/admin-ui/);
    expect(() => makeAdminUiRouter({ basePath: 'fw/admin/' })).toThrow(/basePath must start with '\/'/);
    expect(() => makeAdminUiRouter({ proxyAllowedOrigins: ['not a url'] })).toThrow(
      /proxyAllowedOrigins holds 'not a url'/,
    );
  });

  describe('proxy', () => {
    const proxied = (app: Express, base: string, p: string) =>
      request(app).get('/fw/admin/proxy').query({ base, path: p });

    it('forwards GET of the read-only paths to an allowed origin, with the info key', async () => {
      const app = host({ proxyAllowedOrigins: [`${upstreamOrigin}/`] });
      const info = await proxied(app, upstreamOrigin, '/info');
      expect(info.status).toBe(200);
      expect(info.body.payload.services.map((s: { name: string }) => s.name)).toEqual(['books']);
      expect((await proxied(app, upstreamOrigin, '/service-info/books')).body.payload.version).toBe('2.0.0');
      expect((await proxied(app, upstreamOrigin, '/health-check/books')).body.payload.healthy).toBe(true);
      expect((await proxied(app, upstreamOrigin, '/service-info/nope')).status).toBe(404);
      expect((await proxied(app, upstreamOrigin, '/openapi.json')).body.openapi).toMatch(/^3\.1/);
    });

    it('is no open proxy: origins not listed, other paths, path escapes, other methods and redirects are refused', async () => {
      const closed = host();
      expect((await proxied(closed, upstreamOrigin, '/info')).status).toBe(403);
      const app = host({ proxyAllowedOrigins: [upstreamOrigin] });
      expect((await proxied(app, 'http://127.0.0.2:1', '/info')).body.message).toMatch(
        /does not proxy http:\/\/127\.0\.0\.2:1/,
      );
      for (const p of [
        '/books',
        '/info/../books',
        '/service-info/..',
        '/service-info/%2e%2e',
        '/service-info/a/../../books',
        '//evil.example/info',
        '/info?x=1',
        '/service-info/books%2F..%2Fbooks',
        'info',
      ]) {
        const res = await proxied(app, upstreamOrigin, p);
        expect({ p, status: res.status }).toEqual({ p, status: 400 });
      }
      for (const base of [
        'file:///etc/passwd',
        `http://user:pw@${upstreamOrigin.slice(7)}`,
        `${upstreamOrigin}/?q=1`,
        'javascript:alert(1)',
        '',
      ]) {
        expect({ base, status: (await proxied(app, base, '/info')).status }).toEqual({ base, status: 400 });
      }
      // A read-only path whose host answers a redirect: not followed.
      const redirected = await proxied(app, upstreamOrigin, '/redirect/info');
      expect(redirected.status).toBe(502);
      expect(redirected.body.message).toMatch(/redirect, which the proxy does not follow/);
      const post = await request(app).post('/fw/admin/proxy').query({ base: upstreamOrigin, path: '/info' });
      expect(post.status).toBe(405);
    });

    it('answers 502 when the host cannot be reached, naming it', async () => {
      const app = host({ proxyAllowedOrigins: ['http://127.0.0.1:9'] });
      const res = await proxied(app, 'http://127.0.0.1:9', '/info');
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ subErrorCode: 'AUI502', message: 'http://127.0.0.1:9 cannot be reached' });
    });
  });
});
