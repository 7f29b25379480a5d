/**
 * GET /metrics of the query host (its own bearer token) and fw_query_duration_seconds recorded per
 * POST /q/{name} on both paths (the node:http fast path and express), for catalog names only.
 */
import { databaseTargets } from '@fw/test-support';
import request from 'supertest';
import type { QueryHost } from '../src';
import { createTwoTenantHost, createTwoTenants, type TwoTenants } from './support/host-fixture';

const TOKEN = 'query-host-metrics-token-5b1e';
const SEARCH = { filters: { title: 'the' }, numRowsInPage: 5 };

/** The `_count` sample of fw_query_duration_seconds per `tenant/query`. */
function queryCounts(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(/^fw_query_duration_seconds_count\{tenant="([^"]*)",query="([^"]*)"\} (\d+)$/gm))
    counts[`${match[1]}/${match[2]}`] = Number(match[3]);
  return counts;
}

for (const target of databaseTargets()) {
  describe(`query host metrics [${target}]`, () => {
    let tenants: TwoTenants;
    let host: QueryHost;
    beforeAll(async () => {
      tenants = await createTwoTenants(target);
      host = await createTwoTenantHost(target, tenants, { metricsToken: TOKEN });
    });
    afterAll(async () => {
      await host?.close();
      await tenants?.dispose();
    });
    const scrape = async (): Promise<string> => {
      const res = await request(host.app).get('/metrics').set('authorization', `Bearer ${TOKEN}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return res.text;
    };
    const post = (name: string, body: unknown, tenant: string) =>
      request(host.app)
        .post(`/q/${name}`)
        .set('content-type', 'application/json')
        .set('x-fw-tenant-id', tenant)
        .send(JSON.stringify(body));

    it('serves /metrics with the bearer token only', async () => {
      expect((await request(host.app).get('/metrics')).status).toBe(401);
      const wrong = await request(host.app).get('/metrics').set('authorization', 'Bearer nope');
      expect(wrong.status).toBe(401);
      expect(wrong.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(await scrape()).toContain('# TYPE fw_query_duration_seconds histogram');
    });

    it('records each search on both paths under its tenant and name; made-up names and tenants add no series', async () => {
      expect((await post('books', SEARCH, 't1')).status).toBe(200);
      // A content type with a parameter other than charset is not the fast path's: express and the router answer it.
      const viaExpress = await request(host.app)
        .post('/q/books')
        .set('content-type', 'application/json; profile=search')
        .set('x-fw-tenant-id', 't2')
        .send(JSON.stringify(SEARCH));
      expect(viaExpress.status).toBe(200);
      // Refused after the definition was found: still a search of `books`.
      expect((await post('books', { filters: { nope: 1 } }, 't1')).status).toBe(400);
      // Unknown name, unknown tenant: refused before any definition, recorded nowhere.
      expect((await post('no-such-query', SEARCH, 't1')).status).toBe(404);
      expect((await post('books', SEARCH, 'made-up-tenant')).status).toBeGreaterThanOrEqual(400);

      const text = await scrape();
      expect(queryCounts(text)).toEqual({ 't1/books': 2, 't2/books': 1 });
      expect(text).not.toContain('no-such-query');
      expect(text).not.toContain('made-up-tenant');
    });

    it('answers 404 at /metrics without a token in production', async () => {
      const open = await createTwoTenantHost(target, tenants);
      try {
        expect((await request(open.app).get('/metrics')).status).toBe(404);
      } finally {
        await open.close();
      }
    });
  });
}
