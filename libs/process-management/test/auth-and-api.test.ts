import { isConfigError } from '@fw/core';
import { describeEachDatabase } from '@fw/test-support';
import express from 'express';
import rawRequest from 'supertest';
import { makeManagementKeyGuard, makeProcessManagementRouter, managementKeyMatches, parsePageRequest } from '../src';
import { DOCUMENT, request } from './contract';
import { validateOpenApi } from './openapi-validator';
import { API, auth, expectErrorEnvelope, KEY, makeAdminHarness, seedDefinitions, T1 } from './support';

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
    expect((await rawRequest(app).get('/process/x')).status).toBe(401);
    expect((await rawRequest(app).get('/process/x').set('X-Process-Management-Key', KEY)).body).toEqual({ ok: true });
  });

  it('makeProcessManagementRouter refuses a short key', () => {
    expect(() =>
      makeProcessManagementRouter({
        database: { db: undefined as never },
        apiKey: 'short',
        definitions: {
          source: 'json',
          configurator: { findByName: async () => undefined, findSuccessors: async () => [], list: async () => [] },
        },
      }),
    ).toThrow(/at least 32/);
  });
});

describe('pagination parameters', () => {
  it('defaults to page 0, size 25 and refuses values outside the limits', () => {
    expect(parsePageRequest({})).toEqual({ page: 0, size: 25 });
    expect(parsePageRequest({ page: '3', size: '100' })).toEqual({ page: 3, size: 100 });
    for (const bad of [
      { size: '0' },
      { size: '101' },
      { page: '-1' },
      { page: 'x' },
      { size: '2.5' },
      { size: ['1', '2'] },
    ]) {
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

  it('answers 401 (error envelope) without the key or with a wrong key, on every path', async () => {
    for (const path of [
      '/info',
      '/processes',
      '/definitions',
      '/crontabs',
      '/executions',
      '/trace?processId=x',
      '/no-such-route',
      '/openapi.json',
    ]) {
      // An unknown path is in no document: checked by hand.
      const send = path === '/no-such-route' ? rawRequest : request;
      const missing = await send(app).get(`${API}${path}`).set('x-fw-tenant-id', T1);
      expect(missing.status).toBe(401);
      expect(missing.body).toMatchObject({
        subErrorCode: 'PM401',
        message: expect.stringMatching(/Missing header X-Process-Management-Key/),
      });
      const wrong = await send(app)
        .get(`${API}${path}`)
        .set({ ...auth(), 'X-Process-Management-Key': `${KEY}-wrong` });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ subErrorCode: 'PM401', message: expect.stringMatching(/Invalid/) });
    }
    const post = await request(app)
      .post(`${API}/triggers`)
      .send({ payload: { processDefName: 'single' } });
    expect(post.status).toBe(401);
  });

  it('answers 400 (error envelope) for a missing or malformed tenant header', async () => {
    const missing = await request(app).get(`${API}/info`).set('X-Process-Management-Key', KEY);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/x-fw-tenant-id/);
    for (const bad of ['a b', 'x'.repeat(129), 'tenant/1', 'tenant:1', '%C3%BC']) {
      const res = await request(app)
        .get(`${API}/processes`)
        .set({ ...auth(), 'x-fw-tenant-id': bad });
      expect(res.status).toBe(400);
      expectErrorEnvelope(res);
    }
  });

  it('GET /info describes the host', async () => {
    const res = await request(app).get(`${API}/info`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      definitionSource: 'database',
      definitionsWritable: true,
      cronAvailable: true,
      supportedEvents: ['ProcessCreate'],
    });
  });

  it('sends no CORS headers, even to a preflight', async () => {
    const res = await request(app)
      .get(`${API}/info`)
      .set({ ...auth(), Origin: 'https://evil.example' });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await rawRequest(app)
      .options(`${API}/info`)
      .set({ Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers unknown paths with 404 and bad JSON with 400 in the error envelope, never a stack', async () => {
    const unknown = await rawRequest(app).get(`${API}/nothing-here`).set(auth());
    expect(unknown.status).toBe(404);
    expectErrorEnvelope(unknown);
    const badJson = await request(app)
      .post(`${API}/triggers`)
      .set({ ...auth(), 'Content-Type': 'application/json' })
      .send('{"payload":');
    expect(badJson.status).toBe(400);
    expect(badJson.body).toMatchObject({ subErrorCode: 'FW400', message: 'The request body is not valid JSON' });
    const form = await request(app).post(`${API}/triggers`).set(auth()).type('form').send('a=b');
    expect(form.status).toBe(415);
    expectErrorEnvelope(form);
    expect(form.body.subErrorCode).toBe('PM415');
  });

  it('serves the OpenAPI 3.1 document of every route with the key and without a tenant', async () => {
    const res = await request(app).get(`${API}/openapi.json`).set('X-Process-Management-Key', KEY);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const paths = Object.keys(res.body.paths).map((p) => p.replace(API, ''));
    expect(paths.sort()).toEqual(
      [
        '/openapi.json',
        '/info',
        '/crontabs',
        '/crontabs/{id}',
        '/triggers',
        '/executions',
        '/definitions',
        '/definitions/{name}',
        '/definitions/refresh',
        '/processes',
        '/processes/{id}',
        '/trace',
        '/health',
        '/me',
        '/audit',
      ].sort(),
    );
    expect(res.body).toEqual(JSON.parse(JSON.stringify(DOCUMENT)));
    expect(res.body.components.securitySchemes.ManagementKey).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-Process-Management-Key',
    });
    // With a tenant header too, and 405 (not 400 for the missing tenant) for another method.
    expect((await request(app).get(`${API}/openapi.json`).set(auth())).status).toBe(200);
    expect((await request(app).post(`${API}/openapi.json`).set('X-Process-Management-Key', KEY)).status).toBe(405);
  });

  it('answers 405 (error envelope) with Allow to a method a documented path does not list, before looking at the tenant or body', async () => {
    const cases: Array<[method: 'patch' | 'put' | 'delete' | 'post' | 'options', path: string, allow: string]> = [
      ['patch', '/info', 'GET, HEAD'],
      ['delete', '/crontabs', 'GET, HEAD, POST'],
      ['patch', '/crontabs/00000000-0000-4000-8000-000000000000', 'GET, HEAD, PUT, DELETE'],
      ['put', '/triggers', 'POST'],
      ['post', '/executions', 'GET, HEAD'],
      // /definitions/refresh is also /definitions/{name}: the methods of both.
      ['patch', '/definitions/refresh', 'GET, HEAD, POST, PUT, DELETE'],
      ['post', '/processes/00000000-0000-4000-8000-000000000000', 'GET, HEAD, DELETE'],
      ['options', '/trace', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const agent = request(app);
      const res = await agent[method](`${API}${path}`)
        .set('X-Process-Management-Key', KEY)
        .set('Content-Type', 'text/plain')
        .send('not json');
      expect({ method, path, status: res.status, allow: res.headers.allow }).toEqual({
        method,
        path,
        status: 405,
        allow,
      });
      expect(res.body).toMatchObject({
        subErrorCode: 'PM405',
        message: `Method ${method.toUpperCase()} is not allowed on ${API}${path}: use ${allow}`,
      });
    }
    // Without the key it is still a 401 (nothing about the API is told to a stranger).
    expect((await request(app).patch(`${API}/info`)).status).toBe(401);
    // A HEAD on a GET route is allowed.
    expect((await request(app).head(`${API}/info`).set(auth())).status).toBe(200);
  });

  it('is a valid OpenAPI 3.1 document (checked by @seriousme/openapi-schema-validator)', () => {
    expect(validateOpenApi(DOCUMENT)).toEqual({ valid: true });
  });
});

describeEachDatabase('administration API: the input policy (no control characters)', (getDb) => {
  let app: express.Express;
  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    app = makeAdminHarness(getDb()).app;
  });

  it('refuses U+0000 or another control character in any body field or query parameter with 400 (error envelope) naming it, storing nothing', async () => {
    const cases = [
      {
        method: 'post',
        path: '/triggers',
        body: { triggerId: 'a\u0000b', payload: { processDefName: 'single', args: {} } },
        field: 'triggerId',
      },
      {
        method: 'post',
        path: '/triggers',
        body: { payload: { processDefName: 'single', args: { note: 'x\u0007' } } },
        field: 'payload.args.note',
      },
      { method: 'post', path: '/definitions', body: { processType: 'ctl\u0001x', leaf: true }, field: 'processType' },
      {
        method: 'post',
        path: '/crontabs',
        body: {
          name: 'n\u0000',
          cronExpression: '0 0 1 * * *',
          timezone: 'UTC',
          enabled: false,
          payload: { processDefName: 'single', args: {} },
        },
        field: 'name',
      },
    ] as const;
    for (const c of cases) {
      const res = await request(app)[c.method](`${API}${c.path}`).set(auth()).send(c.body);
      expect({ path: c.path, status: res.status }).toEqual({ path: c.path, status: 400 });
      expect(res.body.message).toMatch(
        new RegExp(`^'${c.field.replace(/[.[\]]/g, '\\$&')}' contains the control character U\\+00`),
      );
    }
    const listed = await request(app).get(`${API}/processes`).set(auth()).query({ triggerId: 'a\u0000b' });
    expect(listed.status).toBe(400);
    expect(listed.body.message).toBe("'query.triggerId' contains the control character U+0000, which is not allowed");
    expect((await request(app).get(`${API}/definitions/ctl%01x`).set(auth())).status).toBe(404);
    // Names with outer blanks are junk that cannot be told apart in a list.
    const blank = await request(app)
      .post(`${API}/definitions`)
      .set(auth())
      .send({ processType: ' single ', leaf: true });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toMatch(/'processType' must not start or end with blanks/);
    const blankCron = await request(app)
      .post(`${API}/crontabs`)
      .set(auth())
      .send({
        name: ' nightly',
        cronExpression: '0 0 1 * * *',
        timezone: 'UTC',
        enabled: false,
        payload: { processDefName: 'single', args: {} },
      });
    expect(blankCron.status).toBe(400);
    expect(blankCron.body.message).toBe("'name' must not start or end with blanks");
    expect(
      (await request(app).get(`${API}/crontabs`).set(auth())).body.content.map((c: { name: string }) => c.name),
    ).not.toContain('n\u0000');
  });
});
