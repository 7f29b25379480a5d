import { createLogger, isConfigError, isFwError } from '@fw/core';
import { makeErrorMiddleware, makeNotFoundHandler } from '@fw/core/http';
import { defineService, makeServiceRegistry, makeServiceRouter, type ServiceRegistry } from '@fw/service';
import express, { type Express } from 'express';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { calls, echoService, recording, ticketService } from './fixtures';

/** The host's read-only endpoints, in every document. */
const INFO_ENDPOINTS = [
  '/info',
  '/service-info',
  '/service-info/{svc}',
  '/health-check',
  '/health-check/{svc}',
  '/openapi.json',
];

function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (isConfigError(err)) return err.message;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

function hostOf(registry: ServiceRegistry, infoAccessKey?: string): Express {
  const app = express();
  app.use(makeServiceRouter(registry, { infoAccessKey }));
  app.use(makeNotFoundHandler(), makeErrorMiddleware(createLogger({ name: 'test-host' })));
  return app;
}

describe('defineService', () => {
  it('refuses a definition that is not well formed, naming the service, the operation and the field', () => {
    const handler = async () => null;
    expect(configError(() => defineService({ name: '1bad', version: '1', operations: [] }))).toMatch(
      /service '1bad': 'name' must start with a letter/,
    );
    expect(configError(() => defineService({ name: 's', version: '', operations: [] }))).toBe(
      "service 's': 'version' must be a non-empty string",
    );
    expect(
      configError(() =>
        defineService({
          name: 's',
          version: '1',
          operations: [
            { name: 'a', handler },
            { name: 'a', handler },
          ],
        }),
      ),
    ).toBe("service 's' operations[1]: operation 'a' is defined twice");
    expect(
      configError(() =>
        defineService({ name: 's', version: '1', operations: [{ name: 'a', method: 'GET', handler }] }),
      ),
    ).toBe("service 's' operations[0] (a): give both 'method' and 'path', or neither");
    expect(
      configError(() =>
        defineService({
          name: 's',
          version: '1',
          operations: [
            { name: 'a', method: 'POST', path: '/x', handler },
            { name: 'b', method: 'POST', path: '/x', handler },
          ],
        }),
      ),
    ).toBe("service 's': two operations answer POST /x");
    expect(
      configError(() => defineService({ name: 's', version: '1', kind: 'nope' as never, operations: [] })),
    ).toMatch(/'kind' must be one of http, headless, workflow, query, process/);
  });

  it('defaults the kind from the bindings and refuses a schema ajv cannot compile at registration', () => {
    expect(ticketService().kind).toBe('http');
    expect(echoService.kind).toBe('headless');
    const bad = defineService({
      name: 'bad',
      version: '1',
      operations: [{ name: 'a', input: { type: 'no-such-type' }, handler: async () => null }],
    });
    expect(configError(() => makeServiceRegistry({ host: { name: 'h', version: '1' }, services: [bad] }))).toMatch(
      /service 'bad' operation 'a': 'input' is not a valid JSON Schema/,
    );
    expect(
      configError(() =>
        makeServiceRegistry({ host: { name: 'h', version: '1' }, services: [echoService, echoService] }),
      ),
    ).toBe("service 'echo' is registered twice in host 'h'");
  });
});

describe('registry.invoke (in-process)', () => {
  const registry = makeServiceRegistry({ host: { name: 'h', version: '1' }, services: [ticketService(), echoService] });

  it('runs service-level then operation-level interceptors around the handler, with the tenant', async () => {
    calls.length = 0;
    const created = await registry.invoke('tickets', 'create', { title: 'printer' }, { tenant: 't1' });
    expect(created).toEqual({ id: 1, title: 'printer', tenant: 't1' });
    expect(calls).toEqual([
      'service-level:before',
      'operation-level:before',
      'operation-level:after',
      'service-level:after',
    ]);
    expect(await registry.invoke('tickets', 'count', {})).toEqual({ count: 1 });
    expect(await registry.invoke('echo', 'echo', { text: 'hi' })).toEqual({ text: 'hi' });
  });

  it('refuses a bad input with 400 SVC400 naming every field, before any interceptor runs', async () => {
    calls.length = 0;
    const error = await registry.invoke('tickets', 'create', { priority: 9, colour: 'red' }).catch((e: unknown) => e);
    expect(isFwError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 400,
      subErrorCode: 'SVC400',
      field: 'input.title',
      description: "'input.title' is required",
    });
    expect((error as { details: Array<{ field: string }> }).details.map((d) => d.field).sort()).toEqual([
      'input.colour',
      'input.priority',
      'input.title',
    ]);
    expect(calls).toEqual([]);
  });

  it('answers 404 SVC404 for an unknown service or operation', async () => {
    await expect(registry.invoke('nope', 'x', {})).rejects.toMatchObject({
      code: 404,
      subErrorCode: 'SVC404',
      description: "No service named 'nope'",
    });
    await expect(registry.invoke('tickets', 'nope', {})).rejects.toMatchObject({
      code: 404,
      description: "Service 'tickets' has no operation 'nope'",
    });
  });

  it('checks the output: 500 SVC500 in development, logged only in production', async () => {
    const strict = makeServiceRegistry({
      host: { name: 'h', version: '1' },
      services: [ticketService({ brokenOutput: true })],
      outputValidation: 'error',
    });
    await expect(strict.invoke('tickets', 'create', { title: 'x' })).rejects.toMatchObject({
      code: 500,
      subErrorCode: 'SVC500',
    });
    const lenient = makeServiceRegistry({
      host: { name: 'h', version: '1' },
      services: [ticketService({ brokenOutput: true })],
      outputValidation: 'log',
    });
    expect(await lenient.invoke('tickets', 'create', { title: 'x' })).toEqual({ id: 'not-a-number' });
  });

  it('lets an interceptor short-circuit (the handler never runs) or refuse with its own error', async () => {
    calls.length = 0;
    const cached = makeServiceRegistry({
      host: { name: 'h', version: '1' },
      services: [
        ticketService({
          interceptors: [recording('cache', { shortCircuit: { id: 99, title: 'cached', tenant: null } })],
        }),
      ],
    });
    expect(await cached.invoke('tickets', 'create', { title: 'x' })).toEqual({ id: 99, title: 'cached', tenant: null });
    expect(calls).toEqual(['cache:before']);
    const refusing = makeServiceRegistry({
      host: { name: 'h', version: '1' },
      services: [ticketService({ interceptors: [recording('security', { fail: 'not you' })] })],
    });
    await expect(refusing.invoke('tickets', 'create', { title: 'x' })).rejects.toMatchObject({
      code: 403,
      subErrorCode: 'TEST403',
      description: 'not you',
    });
  });
});

describe('HTTP binding and info endpoints', () => {
  let healthy = true;
  const registry = makeServiceRegistry({
    host: { name: 'support-host', version: '2.0.0', description: 'test host' },
    services: [ticketService({ healthy: () => healthy }), echoService],
  });
  const app = hostOf(registry);

  it('binds POST with the body and GET with path and query parameters, answering the envelope', async () => {
    const created = await request(app).post('/tickets').set('x-fw-tenant-id', 'acme').send({ title: 'screen' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ success: true, code: 200, payload: { id: 1, title: 'screen', tenant: 'acme' } });
    const got = await request(app).get('/tickets/1').query({ verbose: 'true' });
    expect(got.body.payload).toEqual({ id: 1, title: 'screen', tenant: 'acme' });
    const missing = await request(app).get('/tickets/7');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, subErrorCode: 'TICKET404' });
  });

  it('answers a bad body with 400 and the envelope naming the field; a non-JSON body with 415; a bad path parameter with 400', async () => {
    const bad = await request(app).post('/tickets').send({ title: '' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      success: false,
      code: 400,
      subErrorCode: 'SVC400',
      errors: [{ field: 'body.title', description: "'body.title' must NOT have fewer than 1 characters" }],
    });
    expect((await request(app).post('/tickets').type('form').send('title=x')).status).toBe(415);
    const wrongId = await request(app).get('/tickets/abc');
    expect(wrongId.status).toBe(400);
    expect(wrongId.body.errors[0].field).toBe('query.id');
    expect((await request(app).post('/tickets').set('x-fw-tenant-id', 'bad tenant!').send({ title: 'x' })).status).toBe(
      400,
    );
  });

  it('never answers a stack trace or an internal message', async () => {
    const res = await request(app).post('/tickets/explode').send({});
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toMatch(/secret internal detail|at .*\.ts/);
  });

  it('GET /info lists every service with its kind; /service-info/{svc} gives the whole definition', async () => {
    const info = await request(app).get('/info');
    expect(info.body).toEqual({
      success: true,
      code: 200,
      payload: {
        name: 'support-host',
        version: '2.0.0',
        description: 'test host',
        services: [
          { name: 'tickets', version: '1.2.0', kind: 'http', description: 'Support tickets', healthCheck: true },
          { name: 'echo', version: '0.1.0', kind: 'headless', description: '', healthCheck: false },
        ],
      },
    });
    const svc = await request(app).get('/service-info/tickets');
    expect(svc.body.payload).toMatchObject({
      name: 'tickets',
      kind: 'http',
      interceptors: ['service-level'],
      healthCheck: true,
    });
    expect(
      svc.body.payload.operations.map((o: { name: string; method?: string; path?: string }) => [
        o.name,
        o.method,
        o.path,
      ]),
    ).toEqual([
      ['create', 'POST', '/tickets'],
      ['get', 'GET', '/tickets/{id}'],
      ['explode', 'POST', '/tickets/explode'],
      ['count', undefined, undefined],
    ]);
    expect(svc.body.payload.operations[0]).toMatchObject({
      interceptors: ['operation-level'],
      input: { required: ['title'] },
    });
    const unknown = await request(app).get('/service-info/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, subErrorCode: 'SVC404' });
  });

  it('/health-check/{svc}: 200 healthy, 503 envelope when failing, 404 without a checker or for an unknown service', async () => {
    healthy = true;
    expect((await request(app).get('/health-check/tickets')).body).toEqual({
      success: true,
      code: 200,
      payload: { healthy: true, checks: [{ name: 'tickets', healthy: true }] },
    });
    healthy = false;
    const failing = await request(app).get('/health-check/tickets');
    expect(failing.status).toBe(503);
    expect(failing.body).toMatchObject({
      success: false,
      code: 503,
      subErrorCode: 'FW503',
      description: 'Unhealthy: tickets',
    });
    expect((await request(app).get('/health-check/echo')).status).toBe(404);
    expect((await request(app).get('/health-check/nope')).status).toBe(404);
  });

  it('serves /openapi.json that a real OpenAPI 3.1 validator accepts', async () => {
    const doc = (await request(app).get('/openapi.json')).body;
    expect(doc.openapi).toBe('3.1.0');
    // The operations, and the host's own read-only endpoints.
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/health-check',
      '/health-check/{svc}',
      '/info',
      '/openapi.json',
      '/service-info',
      '/service-info/{svc}',
      '/tickets',
      '/tickets/explode',
      '/tickets/{id}',
    ]);
    expect(
      doc.paths['/tickets/{id}'].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`),
    ).toEqual(['path:id', 'query:verbose']);
    const dir = mkdtempSync(path.join(tmpdir(), 'fw-openapi-'));
    try {
      writeFileSync(path.join(dir, 'doc.json'), JSON.stringify(doc));
      // The validator is an ES module: run it in its own node process.
      const script = `import { Validator } from '@seriousme/openapi-schema-validator';
const result = await new Validator().validate(${JSON.stringify(path.join(dir, 'doc.json'))});
console.log(JSON.stringify(result));`;
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: path.resolve(__dirname, '..'),
        encoding: 'utf8',
      });
      expect(JSON.parse(out)).toEqual({ valid: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('guards the info endpoints with X-Fw-Info-Key when the host sets infoAccessKey', async () => {
    expect(configError(() => makeServiceRouter(registry, { infoAccessKey: 'short' }))).toMatch(
      /infoAccessKey is too short \(5 characters\)/,
    );
    const key = 'info-key-0123456789-0123456789-0123';
    const guarded = hostOf(registry, key);
    for (const url of ['/info', '/service-info/tickets', '/health-check/tickets', '/openapi.json']) {
      const refused = await request(guarded).get(url);
      expect({ url, status: refused.status, body: refused.body }).toEqual({
        url,
        status: 401,
        body: { message: 'Missing X-Fw-Info-Key header' },
      });
      expect((await request(guarded).get(url).set('X-Fw-Info-Key', 'wrong')).body).toEqual({
        message: 'Invalid X-Fw-Info-Key',
      });
    }
    expect((await request(guarded).get('/info').set('X-Fw-Info-Key', key)).status).toBe(200);
    // Operations are not info endpoints: they run their own interceptors.
    expect((await request(guarded).post('/tickets').send({ title: 'no key needed' })).status).toBe(200);
  });

  it('serves introspection operations with the info half: behind the info key, before the operations, outside an operations-only router', async () => {
    const handler = async (input: { id?: string }) => ({ id: input.id ?? 'info' });
    const svc = defineService({
      name: 'flows',
      version: '1',
      operations: [
        { name: 'get', method: 'GET', path: '/flows/{id}', handler },
        {
          name: 'info',
          introspection: true,
          method: 'GET',
          path: '/flows/info',
          handler: async () => ({ flows: ['main'] }),
        },
      ],
    });
    const reg = makeServiceRegistry({ host: { name: 'h', version: '1' }, services: [svc] });
    const key = 'info-key-0123456789-0123456789-0123';
    const guarded = hostOf(reg, key);
    expect((await request(guarded).get('/flows/info')).status).toBe(401);
    // Declared after /flows/{id}, yet not taken for an id.
    expect((await request(guarded).get('/flows/info').set('X-Fw-Info-Key', key)).body.payload).toEqual({
      flows: ['main'],
    });
    expect((await request(guarded).get('/flows/abc')).body.payload).toEqual({ id: 'abc' });
    const operationsOnly = express();
    operationsOnly.use(makeServiceRouter(reg, { serve: { info: false } }));
    expect((await request(operationsOnly).get('/flows/info')).body.payload).toEqual({ id: 'info' });
    const infoOnly = express();
    infoOnly.use(makeServiceRouter(reg, { serve: { operations: false } }));
    expect((await request(infoOnly).get('/flows/info')).body.payload).toEqual({ flows: ['main'] });
    expect((await request(infoOnly).get('/flows/abc')).status).toBe(404);
  });

  it("leaves the host's other routes alone (no body parsing, no envelope for them)", async () => {
    const host = express();
    host.use(makeServiceRouter(registry));
    host.post(
      '/form',
      (req, res) => void res.json({ contentType: req.headers['content-type'], parsed: req.body !== undefined }),
    );
    const res = await request(host).post('/form').type('form').send('a=1');
    expect(res.body).toEqual({ contentType: 'application/x-www-form-urlencoded', parsed: false });
  });
});

describe('services whose routes the host serves, details, the host-wide health check, serving in parts', () => {
  const described = defineService({
    name: 'legacy',
    version: '3.0.0',
    kind: 'process',
    httpBinding: 'host',
    details: () => ({ mode: 'outbox' }),
    healthCheck: async () => ({ healthy: true, checks: [{ name: 'legacy-db', healthy: true }] }),
    operations: [{ name: 'create', method: 'POST', path: '/legacy', input: { type: 'object' } }],
  });
  let sick = false;
  const flaky = defineService({
    name: 'flaky',
    version: '1',
    healthCheck: async () => ({ healthy: !sick }),
    operations: [{ name: 'ping', method: 'GET', path: '/ping', handler: async () => 'pong' }],
  });
  const registry = makeServiceRegistry({ host: { name: 'mixed', version: '1' }, services: [described, flaky] });

  it('describes but does not bind a host-served service; invoking it in-process is 501 SVC501', async () => {
    const app = hostOf(registry);
    expect((await request(app).post('/legacy').send({})).status).toBe(404);
    expect((await request(app).get('/service-info/legacy')).body.payload).toMatchObject({
      kind: 'process',
      details: { mode: 'outbox' },
      operations: [{ name: 'create', method: 'POST', path: '/legacy' }],
    });
    expect(
      Object.keys((await request(app).get('/openapi.json')).body.paths).filter((p) => !INFO_ENDPOINTS.includes(p)),
    ).toEqual(['/legacy', '/ping']);
    await expect(registry.invoke('legacy', 'create', {})).rejects.toMatchObject({ code: 501, subErrorCode: 'SVC501' });
    expect(
      configError(() =>
        defineService({ name: 's', version: '1', operations: [{ name: 'a', method: 'GET', path: '/a' }] }),
      ),
    ).toBe("service 's' operations[0] (a): 'handler' must be a function");
  });

  it('GET /health-check runs every service check: 200 when all are healthy, else 503 naming the failing ones', async () => {
    const app = hostOf(registry);
    sick = false;
    expect((await request(app).get('/health-check')).body.payload).toEqual({
      healthy: true,
      checks: [
        { name: 'legacy-db', healthy: true },
        { name: 'flaky', healthy: true },
      ],
    });
    sick = true;
    const res = await request(app).get('/health-check');
    expect(res.status).toBe(503);
    expect(res.body.description).toBe('Unhealthy: flaky');
  });

  it('serves the info endpoints and the operations separately when asked', async () => {
    const infoOnly = express().use(makeServiceRouter(registry, { serve: { operations: false } }));
    expect((await request(infoOnly).get('/info')).status).toBe(200);
    expect((await request(infoOnly).get('/ping')).status).toBe(404);
    const opsOnly = express().use(makeServiceRouter(registry, { serve: { info: false } }));
    expect((await request(opsOnly).get('/ping')).body.payload).toBe('pong');
    expect((await request(opsOnly).get('/info')).status).toBe(404);
  });
});
