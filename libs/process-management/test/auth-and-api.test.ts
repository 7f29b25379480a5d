import { isConfigError } from '@fw/core';
import { describeEachDatabase } from '@fw/test-support';
import express from 'express';
import request from 'supertest';
import { buildOpenApiDocument, makeManagementKeyGuard, makeProcessManagementRouter, managementKeyMatches, parsePageRequest } from '../src';
import { API, auth, KEY, makeAdminHarness, seedDefinitions, T1 } from './support';

describe('key guard', () => {
  it('refuses keys shorter than 32 characters with a ConfigError', () => {
    let thrown: unknown;
    try {
      makeManagementKeyGuard('x'.repeat(31));
    } catch (err) {
      thrown = err;
    }
    expect(isConfigError(thrown)).toBe(true);
    expect((thrown as Error).message).toMatch(/at least 32 characters/);
    expect((thrown as Error).message).not.toContain('x'.repeat(31));
    expect(() => makeManagementKeyGuard('x'.repeat(32))).not.toThrow();
  });

  it('compares keys of any length without throwing', () => {
    expect(managementKeyMatches(KEY, KEY)).toBe(true);
    expect(managementKeyMatches(KEY, KEY.slice(0, -1))).toBe(false);
    expect(managementKeyMatches(KEY, `${KEY}x`)).toBe(false);
    expect(managementKeyMatches(KEY, '')).toBe(false);
    expect(managementKeyMatches(KEY, undefined)).toBe(false);
  });

  it('protects other routes of a host too', async () => {
    const app = express();
    app.use('/process', makeManagementKeyGuard(KEY));
    app.get('/process/x', (_req, res) => void res.json({ ok: true }));
    expect((await request(app).get('/process/x')).status).toBe(401);
    expect((await request(app).get('/process/x').set('X-Process-Management-Key', KEY)).body).toEqual({ ok: true });
  });

  it('makeProcessManagementRouter refuses a short key', () => {
    expect(() => makeProcessManagementRouter({ database: { db: undefined as never }, apiKey: 'short', definitions: { source: 'json', configurator: { findByName: async () => undefined, findSuccessors: async () => [], list: async () => [] } } })).toThrow(/at least 32/);
  });
});

describe('pagination parameters', () => {
  it('defaults to page 0, size 25 and refuses values outside the limits', () => {
    expect(parsePageRequest({})).toEqual({ page: 0, size: 25 });
    expect(parsePageRequest({ page: '3', size: '100' })).toEqual({ page: 3, size: 100 });
    for (const bad of [{ size: '0' }, { size: '101' }, { page: '-1' }, { page: 'x' }, { size: '2.5' }, { size: ['1', '2'] }]) {
      expect(() => parsePageRequest(bad)).toThrow(/must be an integer/);
    }
  });
});

describeEachDatabase('administration API: auth, tenant, info, OpenAPI', (getDb) => {
  let app: express.Express;
  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    app = makeAdminHarness(getDb()).app;
  });

  it('answers 401 { message } without the key or with a wrong key, on every path', async () => {
    for (const path of ['/info', '/processes', '/definitions', '/crontabs', '/executions', '/trace?processId=x', '/no-such-route', '/openapi.json']) {
      const missing = await request(app).get(`${API}${path}`).set('x-fw-tenant-id', T1);
      expect(missing.status).toBe(401);
      expect(missing.body).toEqual({ message: expect.stringMatching(/Missing header X-Process-Management-Key/) });
      const wrong = await request(app).get(`${API}${path}`).set({ ...auth(), 'X-Process-Management-Key': `${KEY}-wrong` });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ message: expect.stringMatching(/Invalid/) });
    }
    const post = await request(app).post(`${API}/triggers`).send({ payload: { processDefName: 'single' } });
    expect(post.status).toBe(401);
  });

  it('answers 400 { message } for a missing or malformed tenant header', async () => {
    const missing = await request(app).get(`${API}/info`).set('X-Process-Management-Key', KEY);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/x-fw-tenant-id/);
    for (const bad of ['a b', 'x'.repeat(129), 'tenant/1', 'tenant:1', '%C3%BC']) {
      const res = await request(app).get(`${API}/processes`).set({ ...auth(), 'x-fw-tenant-id': bad });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['message']);
    }
  });

  it('GET /info describes the host', async () => {
    const res = await request(app).get(`${API}/info`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ definitionSource: 'database', definitionsWritable: true, cronAvailable: true, supportedEvents: ['ProcessCreate'] });
  });

  it('sends no CORS headers, even to a preflight', async () => {
    const res = await request(app).get(`${API}/info`).set({ ...auth(), Origin: 'https://evil.example' });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await request(app).options(`${API}/info`).set({ Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers unknown paths with 404 { message } and bad JSON with 400 { message }, never an envelope or stack', async () => {
    const unknown = await request(app).get(`${API}/nothing-here`).set(auth());
    expect(unknown.status).toBe(404);
    expect(Object.keys(unknown.body)).toEqual(['message']);
    const badJson = await request(app).post(`${API}/triggers`).set({ ...auth(), 'Content-Type': 'application/json' }).send('{"payload":');
    expect(badJson.status).toBe(400);
    expect(badJson.body).toEqual({ message: 'The request body is not valid JSON' });
    const form = await request(app).post(`${API}/triggers`).set(auth()).type('form').send('a=b');
    expect(form.status).toBe(415);
    expect(JSON.stringify(form.body)).not.toMatch(/success|\bat .*\.ts/);
  });

  it('serves an OpenAPI 3 document covering every route', async () => {
    const res = await request(app).get(`${API}/openapi.json`).set('X-Process-Management-Key', KEY);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.0.3');
    const paths = Object.keys(res.body.paths).map((p) => p.replace(API, ''));
    expect(paths.sort()).toEqual(
      ['/openapi.json', '/info', '/crontabs', '/crontabs/{id}', '/triggers', '/executions', '/definitions', '/definitions/{name}', '/definitions/refresh', '/processes', '/processes/{id}', '/trace'].sort(),
    );
    expect(res.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(API))));
    const refs = JSON.stringify(res.body).match(/#\/components\/(schemas|parameters)\/[A-Za-z]+/g) ?? [];
    for (const ref of new Set(refs)) {
      const [, , kind, name] = ref.split('/');
      expect(res.body.components[kind][name]).toBeDefined();
    }
    expect(res.body.components.securitySchemes.ManagementKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-Process-Management-Key' });
  });
});
