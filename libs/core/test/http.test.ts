import express, { type Express } from 'express';
import { Writable } from 'node:stream';
import request from 'supertest';
import {
  ConfigError,
  CoreErrorCodes,
  createLogger,
  currentContext,
  currentTenantId,
  FwError,
  type HealthCheck,
} from '../src';
import {
  makeErrorMiddleware,
  makeInfoRouter,
  makeNotFoundHandler,
  requireJsonBody,
  tenantContextMiddleware,
} from '../src/http';

/** A logger whose lines are kept in memory, so tests can check what went to the log. */
function memoryLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger({ name: 'test', level: 'info', destination }), lines };
}

function appWith(setup: (app: Express) => void, logger = memoryLogger().logger): Express {
  const app = express();
  app.use(express.json({ limit: '1kb' }));
  app.use(tenantContextMiddleware());
  app.use(requireJsonBody());
  setup(app);
  app.use(makeNotFoundHandler());
  app.use(makeErrorMiddleware(logger));
  return app;
}

describe('error middleware', () => {
  it('renders an FwError as the envelope with status = code and every detail', async () => {
    const app = appWith((a) =>
      a.get('/fail', () => {
        throw new FwError({
          code: 400,
          subErrorCode: 'Q725',
          description: "Filter 'price' is not allowed for query 'books'",
          params: ['price', 'books'],
          field: 'filters.price',
          details: [{ subErrorCode: 'Q726', description: 'second', params: ['x'] }],
        });
      }),
    );
    const res = await request(app).get('/fail');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      code: 400,
      severity: 'ERROR',
      subErrorCode: 'Q725',
      description: "Filter 'price' is not allowed for query 'books'",
      message: "Filter 'price' is not allowed for query 'books'",
      payload: null,
      errors: [
        {
          code: '400',
          subErrorCode: 'Q725',
          description: "Filter 'price' is not allowed for query 'books'",
          params: ['price', 'books'],
          field: 'filters.price',
          severity: 'ERROR',
        },
        { code: '400', subErrorCode: 'Q726', description: 'second', params: ['x'], severity: 'ERROR' },
      ],
    });
  });

  it('propagates errors of async handlers (express 5)', async () => {
    const app = appWith((a) =>
      a.get('/async', async () => {
        await Promise.resolve();
        throw new FwError({ code: 409, subErrorCode: 'X409', description: 'conflict' });
      }),
    );
    const res = await request(app).get('/async');
    expect(res.status).toBe(409);
    expect(res.body.subErrorCode).toBe('X409');
  });

  it('answers an unknown error with a generic 500 and logs the details only', async () => {
    const { logger, lines } = memoryLogger();
    const app = appWith(
      (a) =>
        a.get('/boom', () => {
          throw new Error('select secret_column from internal_table failed');
        }),
      logger,
    );
    const res = await request(app).get('/boom');
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({
      success: false,
      code: 500,
      subErrorCode: CoreErrorCodes.internal,
      description: 'Internal server error',
      payload: null,
    });
    expect(res.text).not.toContain('secret_column');
    expect(res.text).not.toContain('stack');
    expect(res.text).not.toMatch(/at .*\.ts:\d+/);
    expect(lines.join('')).toContain('secret_column');
  });

  it('answers an FwError that is not exposed (a ConfigError) as the generic 500', async () => {
    const { logger, lines } = memoryLogger();
    const app = appWith(
      (a) =>
        a.get('/config', () => {
          throw new ConfigError('db.password of /etc/secret.json is not set');
        }),
      logger,
    );
    const res = await request(app).get('/config');
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({
      code: 500,
      subErrorCode: CoreErrorCodes.internal,
      message: 'Internal server error',
    });
    expect(res.text).not.toContain('secret.json');
    expect(lines.join('')).toContain('secret.json');
  });

  it('carries the former spelling of a renamed code as legacyCode', async () => {
    const app = appWith((a) =>
      a.get('/conflict', () => {
        throw new FwError({ code: 409, subErrorCode: 'P011', description: 'changed concurrently' });
      }),
    );
    const res = await request(app).get('/conflict');
    expect(res.body).toMatchObject({ subErrorCode: 'P011', legacyCode: 'P423', message: 'changed concurrently' });
    const plain = await request(
      appWith((a) =>
        a.get('/x', () => {
          throw new FwError({ code: 400, subErrorCode: 'Q725', description: 'x' });
        }),
      ),
    ).get('/x');
    expect(plain.body).not.toHaveProperty('legacyCode');
  });

  it('treats thrown non-Error values as unknown errors', async () => {
    const app = appWith((a) =>
      a.get('/str', () => {
        throw 'plain string';
      }),
    );
    const res = await request(app).get('/str');
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('plain string');
  });

  it('answers malformed JSON with 400 FW400', async () => {
    const app = appWith((a) => a.post('/echo', (req, res) => res.json(req.body)));
    const res = await request(app).post('/echo').set('content-type', 'application/json').send('{"a": ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      code: 400,
      subErrorCode: 'FW400',
      description: 'The request body is not valid JSON',
    });
  });

  it('answers a body above the limit with 413 FW413', async () => {
    const app = appWith((a) => a.post('/echo', (req, res) => res.json(req.body)));
    const res = await request(app)
      .post('/echo')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ big: 'x'.repeat(5000) }));
    expect(res.status).toBe(413);
    expect(res.body.subErrorCode).toBe(CoreErrorCodes.payloadTooLarge);
  });

  it('answers unknown routes with a 404 envelope naming method and path', async () => {
    const res = await request(appWith(() => undefined)).delete('/nowhere');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      success: false,
      code: 404,
      subErrorCode: 'FW404',
      description: 'No route for DELETE /nowhere',
      errors: [{ params: ['DELETE', '/nowhere'] }],
    });
  });
});

describe('requireJsonBody', () => {
  const app = appWith((a) => a.post('/echo', (req, res) => res.json({ body: req.body ?? null })));

  it('rejects a form post with 415', async () => {
    const res = await request(app).post('/echo').type('form').send('a=1');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({
      success: false,
      code: 415,
      subErrorCode: 'FW415',
      description: 'Content-Type must be application/json',
    });
  });

  it('rejects a text body with 415', async () => {
    const res = await request(app).post('/echo').set('content-type', 'text/plain').send('{"a":1}');
    expect(res.status).toBe(415);
  });

  it('accepts JSON, with a charset too', async () => {
    const res = await request(app).post('/echo').set('content-type', 'application/json; charset=utf-8').send('{"a":1}');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ body: { a: 1 } });
  });

  it('lets a request without a body through', async () => {
    const res = await request(app).post('/echo');
    expect(res.status).toBe(200);
  });
});

describe('tenantContextMiddleware', () => {
  const app = appWith((a) =>
    a.get('/ctx', async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      res.json({ tenantId: currentTenantId() ?? null, headers: currentContext()?.headers ?? null });
    }),
  );

  it('puts the tenant header and other x-fw-* headers into the context, across awaits', async () => {
    const res = await request(app)
      .get('/ctx')
      .set('x-fw-tenant-id', ' t1 ')
      .set('x-fw-trace', 'abc')
      .set('x-other', 'no');
    expect(res.body).toEqual({ tenantId: 't1', headers: { 'x-fw-tenant-id': 't1', 'x-fw-trace': 'abc' } });
  });

  it('puts x-fw-trigger-id into the context as the trigger', async () => {
    const app2 = appWith((a) => a.get('/trigger', (_req, res) => res.json(currentContext()?.trigger ?? null)));
    const res = await request(app2).get('/trigger').set('x-fw-trigger-id', 'ext-7');
    expect(res.body).toEqual({ id: 'ext-7' });
    expect((await request(app2).get('/trigger')).body).toBeNull();
  });

  it('treats an absent or blank header as no tenant', async () => {
    expect((await request(app).get('/ctx')).body.tenantId).toBeNull();
    expect((await request(app).get('/ctx').set('x-fw-tenant-id', '   ')).body.tenantId).toBeNull();
  });

  it('keeps concurrent requests apart', async () => {
    const responses = await Promise.all(
      ['a', 'b', 'c', 'd'].map((t) => request(app).get('/ctx').set('x-fw-tenant-id', t)),
    );
    expect(responses.map((r) => r.body.tenantId)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('has no context outside a request', () => {
    expect(currentTenantId()).toBeUndefined();
  });
});

describe('info router', () => {
  let dbHealthy = true;
  const checks: HealthCheck[] = [
    {
      name: 'db',
      check: async () => (dbHealthy ? { healthy: true } : { healthy: false, message: 'connection refused' }),
    },
    { name: 'always', check: async () => ({ healthy: true }) },
    {
      name: 'throws',
      check: async () => {
        throw new Error('probe exploded');
      },
    },
  ];
  const app = appWith((a) =>
    a.use(
      makeInfoRouter({
        info: { name: 'test-host', version: '1.2.3' },
        services: () => [{ name: 'query', version: '0.1.0', details: { queries: 2 } }],
        healthChecks: checks.slice(0, 2),
      }),
    ),
  );
  const appWithThrowingCheck = appWith((a) =>
    a.use(makeInfoRouter({ info: { name: 'h', version: '0' }, healthChecks: [checks[2]] })),
  );

  beforeEach(() => {
    dbHealthy = true;
  });

  it('GET /info describes the host and names its services', async () => {
    const res = await request(app).get('/info');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      code: 200,
      payload: { name: 'test-host', version: '1.2.3', services: ['query'] },
    });
  });

  it('GET /service-info lists services, /service-info/:name describes one', async () => {
    expect((await request(app).get('/service-info')).body.payload).toEqual([
      { name: 'query', version: '0.1.0', details: { queries: 2 } },
    ]);
    const one = await request(app).get('/service-info/query');
    expect(one.body).toEqual({
      success: true,
      code: 200,
      payload: { name: 'query', version: '0.1.0', details: { queries: 2 } },
    });
  });

  it('GET /service-info/:name answers 404 for an unknown service', async () => {
    const res = await request(app).get('/service-info/nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      success: false,
      code: 404,
      subErrorCode: 'FW404',
      description: "No service named 'nope'",
    });
  });

  it('GET /health-check answers 200 when every check is healthy', async () => {
    const res = await request(app).get('/health-check');
    expect(res.status).toBe(200);
    expect(res.body.payload).toEqual({
      healthy: true,
      checks: [
        { name: 'db', healthy: true },
        { name: 'always', healthy: true },
      ],
    });
  });

  it('GET /health-check answers 503 naming the unhealthy check', async () => {
    dbHealthy = false;
    const res = await request(app).get('/health-check');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      success: false,
      code: 503,
      subErrorCode: 'FW503',
      description: 'Unhealthy: db',
      payload: null,
    });
  });

  it('GET /health-check/:name runs one check, 404 for an unknown one', async () => {
    dbHealthy = false;
    expect((await request(app).get('/health-check/always')).status).toBe(200);
    expect((await request(app).get('/health-check/db')).status).toBe(503);
    expect((await request(app).get('/health-check/nope')).status).toBe(404);
  });

  it('counts a check that throws as unhealthy', async () => {
    const res = await request(appWithThrowingCheck).get('/health-check');
    expect(res.status).toBe(503);
    expect(res.body.description).toBe('Unhealthy: throws');
  });
});
