import { createLogger } from '@fw/core';
import { makeErrorMiddleware, makeNotFoundHandler, requireJsonBody } from '@fw/core/http';
import { makeInMemoryQueryProvider, makeQueryService, type QueryService } from '@fw/query-core';
import express, { type Express } from 'express';
import { createServer, request as httpRequest, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { makeQueryRequestHandler, makeQueryRouter, parseBodyLimit, type QueryAuthorizer } from '../src';

const PLANETS = [
  { name: 'Mercury', moons: 0 },
  { name: 'Earth', moons: 1 },
  { name: 'Mars', moons: 2 },
  { name: 'Jupiter', moons: 95 },
];
const logger = createLogger({ name: 'test', level: 'silent' });
const authorizer: QueryAuthorizer = (req, acls) => acls.length === 0 || req.header('x-role') === 'ADMIN';

let service: QueryService;
let routerOnly: Server;
let withFastPath: Server;
let fastCount = 0;

/** The express app of a host: body parser, 415 check, router, 404, error envelope. */
function expressApp(bodyLimit: string): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json({ limit: bodyLimit }));
  app.use(requireJsonBody());
  app.use(makeQueryRouter({ queryService: service, authorizer, logger }));
  app.use(makeNotFoundHandler(), makeErrorMiddleware(logger));
  return app;
}

async function listen(listener: RequestListener): Promise<Server> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

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
    logger,
  });
  routerOnly = await listen(expressApp('200b'));
  const app = expressApp('200b');
  const fast = makeQueryRequestHandler({ queryService: service, authorizer, logger, bodyLimit: '200b', app });
  withFastPath = await listen((req, res) => {
    let passed = false;
    fast(req, res, () => {
      passed = true;
      app(req, res);
    });
    if (!passed) fastCount++;
  });
});
afterAll(async () => {
  await Promise.all([routerOnly, withFastPath].map((s) => new Promise((resolve) => s.close(resolve))));
  await service.close();
});

interface Exchange {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Written as is; chunks are sent one by one (chunked transfer when no content-length is set). */
  body?: string | Buffer | Array<string | Buffer>;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function send(server: Server, exchange: Exchange): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: exchange.method ?? 'POST', path: exchange.path, headers: exchange.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    const body = exchange.body;
    for (const chunk of Array.isArray(body) ? body : body === undefined ? [] : [body]) req.write(chunk);
    req.end();
  });
}

const json = (body: string, extra: Record<string, string> = {}): Exchange => ({
  path: '/q/planets',
  headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...extra },
  body,
});

/** Sends the exchange to both servers; the answers must be the same bytes with the same headers. */
async function same(exchange: Exchange, expectFastPath: boolean): Promise<Answer> {
  const before = fastCount;
  const fast = await send(withFastPath, exchange);
  expect(fastCount - before).toBe(expectFastPath ? 1 : 0);
  const reference = await send(routerOnly, exchange);
  expect({ status: fast.status, text: fast.text }).toEqual({ status: reference.status, text: reference.text });
  for (const name of ['content-type', 'content-length', 'etag', 'x-powered-by', 'connection'])
    expect(fast.headers[name]).toEqual(reference.headers[name]);
  return fast;
}

describe('makeQueryRequestHandler', () => {
  it('answers a search exactly like the router', async () => {
    const res = await same(
      json(JSON.stringify({ filters: { moons: [1, 100] }, sortCriteria: [{ name: 'moons', ascendingOrder: false }] })),
      true,
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).payload.list.map((r: { row: { name: string } }) => r.row.name)).toEqual([
      'Jupiter',
      'Mars',
      'Earth',
    ]);
    await same({ ...json('{}'), path: '/q/planets?debug=1' }, true);
    await same(json('{}', { 'content-type': 'application/json; charset=UTF-8' }), true);
  });

  it('reads bodies the way express.json() does: empty, byte order mark, chunked, split UTF-8', async () => {
    expect((await same(json(''), true)).status).toBe(200);
    expect((await same(json('\ufeff{"numRowsInPage":2}'), true)).status).toBe(200);
    const text = JSON.stringify({ filters: { name: 'Märs' } });
    const bytes = Buffer.from(text);
    const split = text.indexOf('ä') + 1; // in the middle of the two bytes of ä
    await same(
      {
        path: '/q/planets',
        headers: { 'content-type': 'application/json' },
        body: [bytes.subarray(0, split), bytes.subarray(split)],
      },
      true,
    );
  });

  it('answers the same errors: tenant, unknown query, validation, ACL', async () => {
    expect((await same(json('{}', { 'x-fw-tenant-id': 'nobody' }), true)).status).toBe(400);
    expect((await same(json('{}', { 'x-fw-tenant-id': '  ' }), true)).status).toBe(200);
    expect((await same({ ...json('{}'), path: '/q/nope' }, true)).status).toBe(404);
    expect((await same(json('{"pageSize":1,"numRowsInPage":"x"}'), true)).status).toBe(400);
    expect((await same(json('{"filters":{"moons":{"a":1}},"sortCriteria":[{"name":"x"}]}'), true)).status).toBe(400);
    expect((await same(json('[1,2]'), true)).status).toBe(400);
    expect((await same(json('{"sortCriteria":[{"name":"moons"}]}', { 'x-fw-tenant-id': 't2' }), true)).status).toBe(
      400,
    );
    expect((await same({ ...json('{}'), path: '/q/secrets' }, true)).status).toBe(403);
    expect((await same({ ...json('{}', { 'x-role': 'ADMIN' }), path: '/q/secrets' }, true)).status).toBe(200);
  });

  it('answers 400 FW400 for malformed or non-object JSON and 413 FW413 over the limit', async () => {
    for (const body of ['{"filters": {', '"text"', '42', 'null', '   ', ' \n{"x"']) {
      const res = await same(json(body), true);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text).subErrorCode).toBe('FW400');
    }
    const big = JSON.stringify({ filters: { name: 'x'.repeat(300) } });
    expect((await same(json(big), true)).status).toBe(413);
    // Without Content-Length the limit is found while reading; the connection stays usable.
    const chunked = await same(
      {
        path: '/q/planets',
        headers: { 'content-type': 'application/json' },
        body: [big.slice(0, 150), big.slice(150)],
      },
      true,
    );
    expect(JSON.parse(chunked.text).subErrorCode).toBe('FW413');
  });

  it('leaves every other request to express', async () => {
    expect(
      (
        await same(
          { path: '/q/planets', headers: { 'content-type': 'text/plain', 'content-length': '2' }, body: '{}' },
          false,
        )
      ).status,
    ).toBe(415);
    expect((await same({ path: '/q/planets' }, false)).status).toBe(415);
    expect((await same(json('{}', { 'content-type': 'application/json; charset=latin1' }), false)).status).toBe(415);
    expect((await same({ ...json('{}'), path: '/q/no%20such' }, false)).status).toBe(404);
    expect((await same({ ...json('{}'), path: '/Q/planets' }, false)).status).toBe(200);
    expect((await same({ ...json('{}'), path: '/q/planets/' }, false)).status).toBe(200);
    expect((await same({ ...json('{}'), method: 'PUT' }, false)).status).toBe(404);
    expect((await same({ method: 'GET', path: '/q/planets' }, false)).status).toBe(200);
  });

  it('parses body limits like express.json', () => {
    expect(parseBodyLimit('1mb')).toBe(1024 * 1024);
    expect(parseBodyLimit('100KB')).toBe(102400);
    expect(parseBodyLimit('2048')).toBe(2048);
    expect(parseBodyLimit(10.7)).toBe(10);
    expect(() => parseBodyLimit('lots')).toThrow(/not a size/);
  });
});
