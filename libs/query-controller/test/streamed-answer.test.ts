import { createLogger, type DatabaseOptions } from '@fw/core';
import { makeErrorMiddleware, makeNotFoundHandler, requireJsonBody } from '@fw/core/http';
import { makeQueryService, type QueryService } from '@fw/query-core';
import { describeEachDatabase } from '@fw/test-support';
import express from 'express';
import { createServer, request as httpRequest, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { makeQueryRequestHandler, makeQueryRouter } from '../src';

const logger = createLogger({ name: 'test', level: 'silent' });

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function post(server: Server, name: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const { port } = server.address() as AddressInfo;
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: `/q/${name}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (data += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** Starts a stream, reads its first chunk, then drops the connection. */
function readFirstChunkAndLeave(server: Server, name: string): Promise<string> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: `/q/${name}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': 2, accept: 'application/x-ndjson' },
      },
      (res) => {
        res.once('data', (chunk: Buffer) => {
          req.destroy();
          resolve(chunk.toString('utf8'));
        });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' ? undefined : reject(err)));
    req.end('{}');
  });
}

async function listen(listener: RequestListener): Promise<Server> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

describeEachDatabase('streamed and cached answers over HTTP', (getDb) => {
  let service: QueryService;
  const servers: Record<'router' | 'fast', Server> = {} as Record<'router' | 'fast', Server>;

  beforeAll(async () => {
    const { database } = getDb();
    await database.withSession((s) =>
      s.exec(`create table ctl_item (id int primary key, name text not null);
        insert into ctl_item select g, 'item ' || g from generate_series(1, 300) g;
        create sequence ctl_hits;
        create function ctl_fail_like_a_timeout() returns int language plpgsql as $$
        begin raise exception 'canceling statement due to statement timeout' using errcode = 'query_canceled'; end $$;`),
    );
    service = await makeQueryService({
      config: {
        defaultTenantId: 't1',
        datasources: { t1: { jdbcUrl: 'postgres://db-host/t1' } },
        mapperFiles: 'scale.xml',
        definitionFiles: 'scale.json',
      },
      baseDir: path.join(__dirname, 'fixtures', 'scale'),
      databaseFactory: (_o: DatabaseOptions) => ({ ...database, close: async () => undefined }),
      logger,
    });
    const app = express();
    app.set('etag', false);
    app.use(
      express.json(),
      requireJsonBody(),
      makeQueryRouter({ queryService: service, logger }),
      makeNotFoundHandler(),
      makeErrorMiddleware(logger),
    );
    servers.router = await listen(app);
    const fast = makeQueryRequestHandler({ queryService: service, logger, app });
    servers.fast = await listen((req, res) => fast(req, res, () => app(req, res)));
  });
  afterAll(async () => {
    await Promise.all(Object.values(servers).map((s) => new Promise((resolve) => s.close(resolve))));
    await service.close();
  });

  for (const via of ['router', 'fast'] as const) {
    describe(`through the ${via === 'router' ? 'express router' : 'fast path'}`, () => {
      it('streams NDJSON rows then the summary; maxRows truncates', async () => {
        const reply = await post(
          servers[via],
          'items',
          { filters: { id: [1, 120] }, sortCriteria: [{ name: 'id' }] },
          { accept: 'application/x-ndjson' },
        );
        expect(reply.status).toBe(200);
        expect(reply.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
        const lines = reply.body
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        expect(lines).toHaveLength(121);
        expect(lines[0]).toEqual({ id: 1, name: 'item 1' });
        expect(lines[120]).toEqual({ _summary: { rows: 120, truncated: false } });
        const all = await post(servers[via], 'items', {}, { accept: 'application/x-ndjson' });
        expect(all.body.trimEnd().split('\n').pop()).toBe('{"_summary":{"rows":250,"truncated":true}}');
      });

      it('refuses a large unpaginated JSON answer with 413 Q731 and a timed-out statement with 504 Q730', async () => {
        const big = await post(servers[via], 'items', {});
        expect(big.status).toBe(413);
        expect(JSON.parse(big.body)).toMatchObject({ success: false, code: 413, subErrorCode: 'Q731' });
        expect(JSON.parse(big.body).description).toMatch(/more than 10 rows.*application\/x-ndjson/);
        const late = await post(servers[via], 'cancelled', {});
        expect(late.status).toBe(504);
        expect(JSON.parse(late.body)).toMatchObject({ success: false, code: 504, subErrorCode: 'Q730' });
        expect(late.body).not.toMatch(/ctl_fail|at /);
        const refused = await post(servers[via], 'items', { pageNum: 2 }, { accept: 'application/x-ndjson' });
        expect(refused.status).toBe(400);
      });

      it('answers a cached query with ETag, 304 on If-None-Match, per caller', async () => {
        const first = await post(servers[via], 'hits', {}, { authorization: `Bearer ${via}-ann` });
        const etag = first.headers.etag as string;
        expect(etag).toMatch(/^".+"$/);
        expect(first.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
        const again = await post(servers[via], 'hits', {}, { authorization: `Bearer ${via}-ann` });
        expect(again.body).toBe(first.body);
        const notModified = await post(
          servers[via],
          'hits',
          {},
          { authorization: `Bearer ${via}-ann`, 'if-none-match': etag },
        );
        expect(notModified).toMatchObject({ status: 304, body: '' });
        expect(notModified.headers.etag).toBe(etag);
        const other = await post(
          servers[via],
          'hits',
          {},
          { authorization: `Bearer ${via}-bob`, 'if-none-match': etag },
        );
        expect(other.status).toBe(200);
        expect(other.body).not.toBe(first.body);
      });

      it('a client that leaves a stream frees the connection', async () => {
        const { database, target } = getDb();
        // PGlite cannot interrupt a running statement (pg_sleep would hold it): there the stream is long, not slow.
        const first = await readFirstChunkAndLeave(servers[via], target === 'postgres' ? 'slowRows' : 'manyRows');
        expect(first).toMatch(/^\{"id":1,/);
        const left = Date.now();
        if (target === 'postgres') {
          // The FETCH of rows that sleep 5 s each is cancelled: nothing of the stream is left on the server.
          for (;;) {
            const busy = await database.query?.<{ n: number }>(
              "select count(*)::int as n from pg_stat_activity where datname = current_database() and query like 'FETCH FORWARD%' and state <> 'idle'",
            );
            if (busy?.[0].n === 0) break;
            expect(Date.now() - left).toBeLessThan(2000);
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        }
        // PGlite has one connection: the next search only runs once the stream has let it go.
        expect((await post(servers[via], 'items', { filters: { id: [1, 2] } })).status).toBe(200);
        expect(Date.now() - left).toBeLessThan(2000);
      });
    });
  }
});
