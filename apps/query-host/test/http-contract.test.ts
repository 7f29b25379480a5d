import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describeEachDatabase, databaseTargets } from '@fw/test-support';
import request, { type Response } from 'supertest';
import type { QueryHost } from '../src';
import { createTwoTenantHost, createTwoTenants, headerAuthorizer, type TwoTenants } from './support/host-fixture';

const SEARCH = { filters: { title: 'the' }, sortCriteria: [{ name: 'title', ascendingOrder: true }], numRowsInPage: 5 };

/** Every error body: the envelope, status = code, no stack trace, no SQL. */
function expectErrorEnvelope(res: Response, status: number, subErrorCode: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toMatchObject({ success: false, code: status, severity: 'ERROR', subErrorCode, payload: null });
  expect(typeof res.body.description).toBe('string');
  expect(res.body.errors[0]).toMatchObject({ code: String(status), subErrorCode });
  expect(res.text).not.toMatch(/\n\s+at |\.ts:\d+|stack/);
}

for (const target of databaseTargets()) {
  describe(`query host HTTP contract [${target}]`, () => {
    let tenants: TwoTenants;
    let host: QueryHost;
    beforeAll(async () => {
      tenants = await createTwoTenants(target);
      host = await createTwoTenantHost(target, tenants, { authorizer: headerAuthorizer, mcp: true });
    });
    afterAll(async () => {
      await host?.close();
      await tenants?.dispose();
    });
    const post = (name: string, body: unknown, tenant: string | null = 't1') => {
      const req = request(host.app).post(`/q/${name}`).set('content-type', 'application/json');
      if (tenant !== null) req.set('x-fw-tenant-id', tenant);
      return req.send(typeof body === 'string' ? body : JSON.stringify(body));
    };

    it('POST /q/{name} answers the envelope with the SearchResponse', async () => {
      const res = await post('books', SEARCH);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.code).toBe(200);
      const page = res.body.payload;
      expect(page.list.map((r: { row: { title: string } }) => r.row.title)).toEqual([
        'Parable of the Sower',
        'The Baron in the Trees',
        'The City and the Stars',
        'The Cyberiad',
        'The Dark Forest',
      ]);
      expect(page.list[0]).toEqual({
        row: {
          id: 17,
          title: 'Parable of the Sower',
          author: 'Octavia E. Butler',
          genre: 'scifi',
          price: 12.25,
          year: 1993,
          inStock: true,
        },
        allowedActions: [],
      });
      expect(page).toMatchObject({
        numRowsReturned: 5,
        currentPage: 1,
        numRowsInPage: 5,
        startRow: 1,
        endRow: 5,
        maxRows: 12,
        maxPages: 3,
      });
      expect(page.pagination).toEqual({
        nextPageAvailable: true,
        countQueryExecuted: true,
        totalCountAvailable: true,
        countMode: 'exact',
      });
    });

    it('applies between, contains and paging', async () => {
      const res = await post('books', {
        filters: { year: [1960, 1969], genre: ['scifi', 'humour'] },
        sortCriteria: [
          { name: 'year', ascendingOrder: false },
          { name: 'id', ascendingOrder: true },
        ],
        pageNum: 2,
        numRowsInPage: 3,
      });
      expect(res.status).toBe(200);
      expect(res.body.payload.list.map((r: { row: { id: number } }) => r.row.id)).toEqual([1, 9, 8]);
      expect(res.body.payload).toMatchObject({ maxRows: 6, currentPage: 2, startRow: 4, endRow: 6 });
    });

    it('treats an empty JSON body as a default request', async () => {
      const res = await request(host.app)
        .post('/q/books')
        .set('content-type', 'application/json')
        .set('x-fw-tenant-id', 't1');
      expect(res.status).toBe(200);
      expect(res.body.payload.list).toHaveLength(10);
    });

    it('each tenant sees only its own database', async () => {
      const t1 = await post('books', { numRowsInPage: 100 }, 't1');
      const t2 = await post('books', { numRowsInPage: 100 }, 't2');
      expect(t1.body.payload.maxRows).toBe(26);
      expect(t2.body.payload.maxRows).toBe(7);
      const titles2 = t2.body.payload.list.map((r: { row: { title: string } }) => r.row.title);
      expect(titles2).toContain('Moby-Dick');
      expect(titles2).not.toContain('Dune');
      const t2Dune = await post('books', { filters: { title: 'dune' } }, 't2');
      expect(t2Dune.body.payload.list).toEqual([]);
    });

    it('Q723: no tenant and no default', async () => {
      expectErrorEnvelope(await post('books', {}, null), 400, 'Q723');
    });

    it('Q724: unknown tenant, no fallback to another tenant', async () => {
      const res = await post('books', {}, 't3');
      expectErrorEnvelope(res, 400, 'Q724');
      expect(res.body.description).toContain("'t3'");
    });

    it('Q700: unknown query (POST and GET)', async () => {
      expectErrorEnvelope(await post('nope', {}), 404, 'Q700');
      expectErrorEnvelope(await request(host.app).get('/q/nope').set('x-fw-tenant-id', 't1'), 404, 'Q700');
    });

    it('Q725: filter on a column that is not filterable', async () => {
      const res = await post('books', { filters: { id: 3 } });
      expectErrorEnvelope(res, 400, 'Q725');
      expect(res.body.errors[0].field).toBe('filters.id');
    });

    it('Q725: a list on a column without containsQuery or betweenQuery', async () => {
      expectErrorEnvelope(await post('books', { filters: { title: ['a', 'b'] } }), 400, 'Q725');
    });

    it('Q726: sort on a column that is not sortable', async () => {
      expectErrorEnvelope(
        await post('books', { sortCriteria: [{ name: 'inStock', ascendingOrder: true }] }),
        400,
        'Q726',
      );
    });

    it('Q727: unknown request field or wrong type', async () => {
      expectErrorEnvelope(await post('books', { pageSize: 5 }), 400, 'Q727');
      expectErrorEnvelope(await post('books', { numRowsInPage: 'five' }), 400, 'Q727');
      expectErrorEnvelope(await post('books', [1, 2]), 400, 'Q727');
    });

    it('Q728: the authorizer refuses the acls; allowed with the role', async () => {
      expectErrorEnvelope(await post('authors', {}), 403, 'Q728');
      const ok = await request(host.app)
        .post('/q/authors')
        .set('content-type', 'application/json')
        .set('x-fw-tenant-id', 't2')
        .set('x-roles', 'LIBRARY_STAFF')
        .send({ filters: { country: 'UK' } });
      expect(ok.status).toBe(200);
      expect(
        ok.body.payload.list.map((r: { row: { name: string; books: unknown[] } }) => [r.row.name, r.row.books.length]),
      ).toEqual([
        ['Jane Austen', 3],
        ['Mary Shelley', 2],
      ]);
    });

    it('Q721: a failing statement answers 500 without SQL internals', async () => {
      const res = await post('broken', {});
      expectErrorEnvelope(res, 500, 'Q721');
      expect(res.body.description).toBe("Query 'broken' failed");
      expect(res.text).not.toMatch(/no_such_internal_table|secret_column|select|relation/i);
    });

    it('415 when the body is not declared JSON', async () => {
      const res = await request(host.app)
        .post('/q/books')
        .set('x-fw-tenant-id', 't1')
        .set('content-type', 'text/plain')
        .send('{}');
      expectErrorEnvelope(res, 415, 'FW415');
      const form = await request(host.app).post('/q/books').set('x-fw-tenant-id', 't1').type('form').send('a=1');
      expectErrorEnvelope(form, 415, 'FW415');
      const none = await request(host.app).post('/q/books').set('x-fw-tenant-id', 't1');
      expectErrorEnvelope(none, 415, 'FW415');
    });

    it('400 FW400 for malformed JSON', async () => {
      expectErrorEnvelope(await post('books', '{"filters": {'), 400, 'FW400');
    });

    it('404 FW404 for an unknown route', async () => {
      expectErrorEnvelope(await request(host.app).get('/nowhere'), 404, 'FW404');
      expectErrorEnvelope(
        await request(host.app).put('/q/books').set('content-type', 'application/json').send('{}'),
        404,
        'FW404',
      );
    });

    it('GET /q lists the queries the caller may use with filterable and sortable fields', async () => {
      const anonymous = await request(host.app).get('/q').set('x-fw-tenant-id', 't1');
      expect(anonymous.status).toBe(200);
      expect(anonymous.body.payload.map((q: { name: string }) => q.name)).toEqual(['books', 'broken']);
      const staff = await request(host.app).get('/q').set('x-fw-tenant-id', 't1').set('x-roles', 'LIBRARY_STAFF');
      expect(staff.body.payload.map((q: { name: string }) => q.name)).toEqual(['authors', 'books', 'broken']);
      const books = staff.body.payload.find((q: { name: string }) => q.name === 'books');
      expect(books.sortable).toEqual(['author', 'genre', 'id', 'price', 'title', 'year']);
      expect(books.filters.map((f: { name: string }) => f.name)).toEqual([
        'author',
        'genre',
        'inStock',
        'price',
        'title',
        'year',
      ]);
      expect(books.filters.find((f: { name: string }) => f.name === 'price')).toEqual({
        name: 'price',
        columnType: 'Number',
        likeQuery: false,
        containsQuery: false,
        betweenQuery: true,
      });
      expect(JSON.stringify(staff.body)).not.toContain('library.findBooks');
      expectErrorEnvelope(await request(host.app).get('/q'), 400, 'Q723');
    });

    it('GET /q/{name} describes one query; 403 without the acl', async () => {
      const res = await request(host.app).get('/q/books').set('x-fw-tenant-id', 't2');
      expect(res.status).toBe(200);
      expect(res.body.payload).toMatchObject({ name: 'books', paginated: true, tenantSpecific: false, acls: [] });
      expectErrorEnvelope(await request(host.app).get('/q/authors').set('x-fw-tenant-id', 't2'), 403, 'Q728');
    });

    it('refuses a control character in a search or a query parameter with 400 FW400C naming the field (fast path and express path)', async () => {
      const fast = await post('books', { filters: { title: 'nul\u0000' } });
      expectErrorEnvelope(fast, 400, 'FW400C');
      expect(fast.body.errors[0].field).toBe('filters.title');
      const viaGet = await request(host.app).get('/q').query({ q: 'a\u0001' }).set('x-fw-tenant-id', 't1');
      expectErrorEnvelope(viaGet, 400, 'FW400C');
      expect(viaGet.body.errors[0].field).toBe('query.q');
    });

    it('/mcp lists the named queries as tools and runs one for the tenant (SDK client)', async () => {
      const { url } = await host.listen();
      const client = new Client({ name: 'query-host-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
          requestInit: { headers: { 'x-fw-tenant-id': 't1' } },
        }),
      );
      try {
        const names = (await client.listTools()).tools.map((t) => t.name);
        expect(names).toEqual(expect.arrayContaining(['query__books']));
        const result = await client.callTool({ name: 'query__books', arguments: SEARCH });
        expect(result.isError).toBeFalsy();
        const viaHttp = await post('books', SEARCH);
        expect(JSON.parse((result.content as Array<{ text: string }>)[0].text).list).toEqual(viaHttp.body.payload.list);
        // The query's acls hold through MCP too: 'authors' needs LIBRARY_STAFF (x-roles).
        const denied = await client.callTool({ name: 'query__authors', arguments: {} });
        expect(denied).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^Q728: /) }] });
        const staff = new Client({ name: 'query-host-staff', version: '1.0.0' });
        await staff.connect(
          new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
            requestInit: { headers: { 'x-fw-tenant-id': 't1', 'x-roles': 'LIBRARY_STAFF' } },
          }),
        );
        expect((await staff.callTool({ name: 'query__authors', arguments: {} })).isError).toBeFalsy();
        await staff.close();
      } finally {
        await client.close();
      }
    });

    it('/info, /service-info/query and /health-check answer the envelope', async () => {
      const info = await request(host.app).get('/info');
      expect(info.body).toMatchObject({
        success: true,
        code: 200,
        payload: { name: 'query-host', services: [{ name: 'query', kind: 'query', healthCheck: true }] },
      });
      const service = await request(host.app).get('/service-info/query');
      expect(service.body.payload.details).toMatchObject({
        provider: 'sql',
        tenants: ['t1', 't2'],
        aclsEnforced: true,
      });
      // one operation per named query, its input built from the query's filters and sortable columns
      const books = service.body.payload.operations.find((o: { name: string }) => o.name === 'books');
      expect(books).toMatchObject({ method: 'POST', path: '/q/books' });
      expect(Object.keys(books.input.properties.filters.properties).length).toBeGreaterThan(0);
      expectErrorEnvelope(await request(host.app).get('/service-info/nope'), 404, 'SVC404');
      const openapi = await request(host.app).get('/openapi.json');
      expect(openapi.body.paths['/q/books'].post.operationId).toBe('query.books');
      expect((await request(host.app).get('/health-check/query')).status).toBe(200);
      const health = await request(host.app).get('/health-check');
      expect(health.status).toBe(200);
      expect(health.body.payload.checks).toEqual([
        { name: 'database:t1', healthy: true },
        { name: 'database:t2', healthy: true },
      ]);
    });
  });
}

describeEachDatabase(
  'query host health with an unreachable tenant database',
  (getDb) => {
    let tenants: TwoTenants;
    let host: QueryHost;
    beforeAll(async () => {
      tenants = await createTwoTenants(getDb().target);
      host = await createTwoTenantHost(getDb().target, tenants, {
        datasources: { down: { jdbcUrl: 'postgres://postgres@127.0.0.1:1/x' } },
      });
    });
    afterAll(async () => {
      await host?.close();
      await tenants?.dispose();
    });

    it('answers 503 naming the tenant whose database does not answer, 200 for the others', async () => {
      const res = await request(host.app).get('/health-check');
      expectErrorEnvelope(res, 503, 'FW503');
      expect(res.body.description).toBe('Unhealthy: database:down');
      expect((await request(host.app).get('/health-check/database:t1')).status).toBe(200);
    });

    it('a query on the unreachable tenant fails with Q721 and the others keep working', async () => {
      const down = await request(host.app)
        .post('/q/books')
        .set('content-type', 'application/json')
        .set('x-fw-tenant-id', 'down')
        .send('{}');
      expectErrorEnvelope(down, 500, 'Q721');
      expect(down.text).not.toContain('127.0.0.1');
      const ok = await request(host.app)
        .post('/q/books')
        .set('content-type', 'application/json')
        .set('x-fw-tenant-id', 't2')
        .send('{}');
      expect(ok.status).toBe(200);
    });

    it('without an authorizer, acls are not enforced', async () => {
      const res = await request(host.app)
        .post('/q/authors')
        .set('content-type', 'application/json')
        .set('x-fw-tenant-id', 't1')
        .send('{}');
      expect(res.status).toBe(200);
      expect(res.body.payload.numRowsReturned).toBe(8);
    });
  },
  { migrate: false },
);
