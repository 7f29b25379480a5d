/**
 * fw_query_duration_seconds of the router and the fast path: one observation per POST /q/{name}
 * (answer, stream, or a refusal after the query was found), none for made-up names or tenants.
 */
import { createLogger } from '@fw/core';
import { makeErrorMiddleware, makeNotFoundHandler } from '@fw/core/http';
import { makeInMemoryQueryProvider, makeQueryService, type QueryService } from '@fw/query-core';
import { makeFwMetrics, type FwMetrics } from '@fw/telemetry';
import express from 'express';
import request from 'supertest';
import type { RequestListener } from 'node:http';
import * as path from 'node:path';
import { makeQueryRequestHandler, makeQueryRouter, type QueryAuthorizer } from '../src';

const logger = createLogger({ name: 'test', level: 'silent' });
/** Refuses every query with acls (`secrets`), after the query was found. */
const authorizer: QueryAuthorizer = (_req, acls) => acls.length === 0;
let service: QueryService;

/** The host's two paths over one `FwMetrics`: `fast` answers POST /q itself, `router` leaves it to express. */
function listeners(metrics: FwMetrics): { fast: RequestListener; router: RequestListener } {
  const app = express();
  app.use(express.json());
  app.use(makeQueryRouter({ queryService: service, authorizer, logger, metrics }));
  app.use(makeNotFoundHandler(), makeErrorMiddleware(logger));
  const fast = makeQueryRequestHandler({ queryService: service, authorizer, logger, app, metrics });
  return { fast: (req, res) => fast(req, res, () => app(req, res)), router: app };
}

/** `tenant/query` → number of observations. */
async function counts(metrics: FwMetrics): Promise<Record<string, number>> {
  const histogram = await metrics.registry.getSingleMetric('fw_query_duration_seconds')!.get();
  return Object.fromEntries(
    histogram.values
      .filter((v) => (v as { metricName?: string }).metricName === 'fw_query_duration_seconds_count')
      .map((v) => [`${v.labels.tenant}/${v.labels.query}`, v.value]),
  );
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
    providers: [
      makeInMemoryQueryProvider({ datasets: { 'space.planets': [{ name: 'Mars', moons: 2 }], 'space.secrets': [] } }),
    ],
    logger,
  });
});
afterAll(async () => {
  await service?.close();
});

describe.each(['fast', 'router'] as const)('fw_query_duration_seconds (%s path)', (via) => {
  it('observes each search of a catalog query under its tenant, and nothing for made-up names or tenants', async () => {
    const metrics = makeFwMetrics(undefined, { defaultMetrics: false });
    const listener = listeners(metrics)[via];
    const post = (name: string, body: unknown, tenant: string, accept = 'application/json') =>
      request(listener)
        .post(`/q/${name}`)
        .set('x-fw-tenant-id', tenant)
        .set('accept', accept)
        .send(body as object);

    expect((await post('planets', {}, 't1')).status).toBe(200);
    expect((await post('planets', {}, 't2', 'application/x-ndjson')).status).toBe(200);
    expect((await post('planets', { filters: { nope: 1 } }, 't1')).status).toBe(400);
    expect((await post('secrets', {}, 't1')).status).toBe(403);
    expect((await post('made-up', {}, 't1')).status).toBe(404);
    expect((await post('planets', {}, 'made-up-tenant')).status).toBeGreaterThanOrEqual(400);

    expect(await counts(metrics)).toEqual({ 't1/planets': 2, 't2/planets': 1, 't1/secrets': 1 });
  });
});

it('serves searches without the metrics option', async () => {
  const app = express();
  app.use(express.json());
  app.use(makeQueryRouter({ queryService: service, authorizer, logger }));
  expect((await request(app).post('/q/planets').set('x-fw-tenant-id', 't1').send({})).status).toBe(200);
});
