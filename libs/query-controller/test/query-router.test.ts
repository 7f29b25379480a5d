import { createLogger } from '@fw/core';
import { makeErrorMiddleware, makeNotFoundHandler, tenantContextMiddleware } from '@fw/core/http';
import { makeInMemoryQueryProvider, makeQueryService, type QueryService } from '@fw/query-core';
import express, { type Express, type Request } from 'express';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import request from 'supertest';
import { makeQueryRouter, type QueryAuthorizer } from '../src';

const PLANETS = [
  { name: 'Mercury', moons: 0 },
  { name: 'Venus', moons: 0 },
  { name: 'Earth', moons: 1 },
  { name: 'Mars', moons: 2 },
  { name: 'Jupiter', moons: 95 },
  { name: 'Saturn', moons: 146 },
];

function memoryLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as { level: number; msg: string });
      done();
    },
  });
  return { logger: createLogger({ name: 'test', level: 'info', destination }), lines };
}

let service: QueryService;
beforeAll(async () => {
  service = await makeQueryService({
    config: {
      defaultTenantId: 't1',
      datasources: { t1: { jdbcUrl: 'pglite:memory:' }, t2: { jdbcUrl: 'pglite:memory:' } },
      definitionFiles: 'definitions.json',
      provider: 'memory',
    },
    baseDir: path.join(__dirname, 'fixtures'),
    providers: [makeInMemoryQueryProvider({ datasets: { 'space.planets': PLANETS, 'space.secrets': [{ code: 42 }] } })],
    logger: createLogger({ name: 'test', level: 'silent' }),
  });
});
afterAll(() => service.close());

function appWith(
  options: {
    authorizer?: QueryAuthorizer;
    withTenantContext?: boolean;
    logger?: ReturnType<typeof memoryLogger>['logger'];
  } = {},
): Express {
  const logger = options.logger ?? memoryLogger().logger;
  const app = express();
  app.use(express.json());
  if (options.withTenantContext ?? true) app.use(tenantContextMiddleware());
  app.use(makeQueryRouter({ queryService: service, authorizer: options.authorizer, logger }));
  app.use(makeNotFoundHandler());
  app.use(makeErrorMiddleware(logger));
  return app;
}

const search = (app: Express, name: string, body: unknown, headers: Record<string, string> = {}) => {
  const req = request(app).post(`/q/${name}`).set('content-type', 'application/json');
  for (const [k, v] of Object.entries(headers)) req.set(k, v);
  return req.send(JSON.stringify(body));
};

describe('makeQueryRouter', () => {
  it('answers POST /q/{name} with the envelope around the SearchResponse', async () => {
    const res = await search(appWith(), 'planets', {
      filters: { moons: [1, 100] },
      sortCriteria: [{ name: 'moons', ascendingOrder: false }],
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.code).toBe(200);
    expect(res.body.payload.list.map((r: { row: { name: string } }) => r.row.name)).toEqual([
      'Jupiter',
      'Mars',
      'Earth',
    ]);
  });

  it('logs once, at creation, that acls are not enforced when there is no authorizer', async () => {
    const { logger, lines } = memoryLogger();
    const app = appWith({ logger });
    await search(app, 'secrets', {});
    await search(app, 'secrets', {});
    const warnings = lines.filter((l) => /acls are NOT enforced/.test(l.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].level).toBe(40);
    expect(memoryLogger().lines).toEqual([]);
    const quiet = memoryLogger();
    appWith({ logger: quiet.logger, authorizer: () => true });
    expect(quiet.lines).toEqual([]);
  });

  it('passes the request and the acls to the authorizer (which may be async)', async () => {
    const seen: Array<{ acls: readonly string[]; role: string | undefined }> = [];
    const authorizer: QueryAuthorizer = async (req: Request, acls) => {
      seen.push({ acls, role: req.header('x-role') });
      await new Promise((resolve) => setTimeout(resolve, 1));
      return req.header('x-role') === 'ADMIN';
    };
    const app = appWith({ authorizer });
    const refused = await search(app, 'secrets', {}, { 'x-role': 'GUEST' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, code: 403, subErrorCode: 'Q728' });
    const allowed = await search(app, 'secrets', {}, { 'x-role': 'ADMIN' });
    expect(allowed.status).toBe(200);
    expect(allowed.body.payload.list).toEqual([{ row: { code: 42 }, allowedActions: [] }]);
    expect(seen).toEqual([
      { acls: ['ADMIN'], role: 'GUEST' },
      { acls: ['ADMIN'], role: 'ADMIN' },
    ]);
  });

  it('routes by x-fw-tenant-id, with or without the tenant context middleware', async () => {
    for (const withTenantContext of [true, false]) {
      const app = appWith({ withTenantContext });
      const t2 = await search(
        app,
        'planets',
        { sortCriteria: [{ name: 'moons', ascendingOrder: true }] },
        { 'x-fw-tenant-id': 't2' },
      );
      expect(t2.status).toBe(400); // t2's override does not allow sorting on moons
      expect(t2.body.subErrorCode).toBe('Q726');
      const t1 = await search(app, 'planets', { sortCriteria: [{ name: 'moons', ascendingOrder: true }] });
      expect(t1.status).toBe(200); // default tenant t1
      const unknown = await search(app, 'planets', {}, { 'x-fw-tenant-id': 'nobody' });
      expect(unknown.body.subErrorCode).toBe('Q724');
    }
  });

  it('answers 415 unless the body is declared JSON', async () => {
    const app = appWith();
    const text = await request(app).post('/q/planets').set('content-type', 'text/plain').send('{}');
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({ success: false, code: 415, subErrorCode: 'FW415' });
    expect((await request(app).post('/q/planets')).status).toBe(415);
  });

  it('GET /q lists visible queries with their filterable and sortable fields; GET /q/{name} describes one', async () => {
    const app = appWith({ authorizer: (req, acls) => acls.length === 0 || req.header('x-role') === 'ADMIN' });
    const list = await request(app).get('/q');
    expect(list.status).toBe(200);
    expect(list.body.payload).toEqual([
      {
        name: 'planets',
        paginated: true,
        tenantSpecific: false,
        acls: [],
        filters: [
          { name: 'moons', columnType: 'Number', likeQuery: false, containsQuery: false, betweenQuery: true },
          { name: 'name', columnType: 'Text', likeQuery: true, containsQuery: false, betweenQuery: false },
        ],
        sortable: ['moons', 'name'],
      },
    ]);
    const admin = await request(app).get('/q').set('x-role', 'ADMIN');
    expect(admin.body.payload.map((q: { name: string }) => q.name)).toEqual(['planets', 'secrets']);
    const t2 = await request(app).get('/q/planets').set('x-fw-tenant-id', 't2');
    expect(t2.body.payload).toMatchObject({ name: 'planets', tenantSpecific: true, sortable: [] });
    expect((await request(app).get('/q/secrets')).status).toBe(403);
    const missing = await request(app).get('/q/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.subErrorCode).toBe('Q700');
  });

  it('decodes the query name from the path', async () => {
    const res = await search(appWith(), 'no%20such%20query', {});
    expect(res.status).toBe(404);
    expect(res.body.description).toBe("Query 'no such query' does not exist");
  });
});
