/**
 * serveSpa: the index for the mount path and browser navigations (with its policy, never cached),
 * hashed bundles cached for a year, a missing bundle 404, the host's own paths and API clients left
 * to the host, a `<base href>` on request, and the one not-built answer.
 */
import express, { type Express } from 'express';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { serveSpa, spaNotBuiltPage, type ServeSpaOptions } from '../src/http';

const INDEX =
  '<!doctype html><html><head><title>app</title><script type="module" src="./assets/index-AbCd1234.js"></script></head><body><div id="root"></div></body></html>';
const NAVIGATION = { Accept: 'text/html,application/xhtml+xml' };

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'fw-spa-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'assets', 'index-AbCd1234.js'), 'console.log("app")');
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function host(options: Partial<ServeSpaOptions> = {}, mount = '/'): Express {
  const app = express();
  app.use(mount, serveSpa({ dir, appName: 'The test app', buildCommand: 'npm run build -w @fw/test-app', ...options }));
  app.use((_req, res) => void res.status(418).json({ message: 'the host answers' }));
  return app;
}

describe('serveSpa', () => {
  it('answers the mount path and /index.html with the index: no cache, a strict policy, no framing', async () => {
    for (const url of ['/', '/index.html']) {
      const res = await request(host()).get(url);
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
      expect(res.text).toBe(INDEX);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
      );
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
    const inline = await request(host({ inlineStyles: true })).get('/');
    expect(inline.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
    expect(inline.headers['content-security-policy']).toContain("script-src 'self';");
    const withIdp = await request(
      host({ connectSources: ['https://idp.example.com', 'http://127.0.0.1:9000/', 'https://idp.example.com'] }),
    ).get('/');
    expect(withIdp.headers['content-security-policy']).toContain(
      "; connect-src 'self' https://idp.example.com http://127.0.0.1:9000; ",
    );
    for (const bad of ['https://idp.example.com/realms/x', '*', "https://a.example 'unsafe-eval'", 'javascript:x'])
      expect(() => host({ connectSources: [bad] })).toThrow(/must be an http\(s\) origin/);
  });

  it('answers browser navigations to deep links with the index; API clients and the host paths go on', async () => {
    const app = host({ isAppPath: (p) => !p.startsWith('/api') });
    for (const url of ['/t/demo/processes', '/services/query/workflow', '/a?b=c']) {
      const res = await request(app).get(url).set(NAVIGATION);
      expect({ url, status: res.status, text: res.text }).toEqual({ url, status: 200, text: INDEX });
    }
    expect((await request(app).head('/t/demo').set(NAVIGATION)).status).toBe(200);
    expect((await request(app).get('/t/demo').set('Accept', 'application/json')).status).toBe(418);
    expect((await request(app).get('/api/things').set(NAVIGATION)).status).toBe(418);
    expect((await request(app).post('/t/demo').set(NAVIGATION)).status).toBe(418);
    expect((await request(app).delete('/').set(NAVIGATION)).status).toBe(418);
  });

  it('caches hashed bundles for a year, other files never; a missing bundle is 404, not the index', async () => {
    const app = host();
    const script = await request(app).get('/assets/index-AbCd1234.js').set(NAVIGATION);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    const icon = await request(app).get('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
    const missing = await request(app).get('/assets/gone-12345678.js').set(NAVIGATION);
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('Not found');
    expect((await request(app).get('/assets/../index.html')).text).not.toContain('console.log');
  });

  it('under a mount path: redirects to the trailing slash and writes <base href> when asked to', async () => {
    const app = host({ baseHref: true }, '/fw/admin');
    const bare = await request(app).get('/fw/admin?x=1');
    expect({ status: bare.status, location: bare.headers.location }).toEqual({
      status: 301,
      location: '/fw/admin/?x=1',
    });
    for (const url of ['/fw/admin/', '/fw/admin/services/query']) {
      expect((await request(app).get(url).set(NAVIGATION)).text).toContain(
        '<head><base href="/fw/admin/"><title>app</title>',
      );
    }
    expect((await request(app).get('/fw/admin/assets/index-AbCd1234.js')).status).toBe(200);
    expect((await request(app).get('/elsewhere').set(NAVIGATION)).status).toBe(418);
    expect((await request(host({}, '/ui')).get('/ui/')).text).toBe(INDEX);
  });

  it('without a build: 503 with the page naming the build command, for the mount path and deep links alike', async () => {
    const missing = path.join(dir, 'not-built');
    const app = host({ dir: missing, notBuiltNote: 'The API works meanwhile.' });
    for (const url of ['/', '/t/demo/processes']) {
      const res = await request(app).get(url).set(NAVIGATION);
      expect({ url, status: res.status }).toEqual({ url, status: 503 });
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.text).toBe(
        spaNotBuiltPage({
          appName: 'The test app',
          buildCommand: 'npm run build -w @fw/test-app',
          note: 'The API works meanwhile.',
        }),
      );
      expect(res.text).toMatch(
        /The test app is not built in this installation: run <code>npm run build -w @fw\/test-app<\/code>/,
      );
    }
    expect((await request(app).get('/assets/index-AbCd1234.js')).status).toBe(404);
  });

  it('picks up a build made while the server runs', async () => {
    const later = mkdtempSync(path.join(tmpdir(), 'fw-spa-later-'));
    try {
      const app = host({ dir: later });
      expect((await request(app).get('/')).status).toBe(503);
      writeFileSync(path.join(later, 'index.html'), INDEX);
      expect((await request(app).get('/')).text).toBe(INDEX);
    } finally {
      rmSync(later, { recursive: true, force: true });
    }
  });

  it('escapes what it writes into a page', async () => {
    const page = spaNotBuiltPage({ appName: 'The <b>app</b>', buildCommand: 'npm run "x" & y' });
    expect(page).toContain('The &lt;b&gt;app&lt;/b&gt; is not built');
    expect(page).toContain('<code>npm run &quot;x&quot; &amp; y</code>');
  });
});
