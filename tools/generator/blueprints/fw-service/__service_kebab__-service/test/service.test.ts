// {{service}} end to end over HTTP through the real host ({{#jpa}}PGlite in memory{{/jpa}}{{^jpa}}in-memory store{{/jpa}}):
// the three operations, their errors in the fw envelope, tenants kept apart, the read-only
// endpoints the admin UI reads, and the same service invoked in-process.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { {{servicePascal}}Entity, {{servicePascal}}Op1Response } from '{{scope}}/{{serviceKebab}}-api';
import { start{{servicePascal}}Host, type Running{{servicePascal}}Host } from '../src/host';
import { call, callerHeaders, TENANT, testSettings } from './support';

let host: Running{{servicePascal}}Host;
let headers: Record<string, string>;

before(async () => {
  host = await start{{servicePascal}}Host(testSettings());
  headers = await callerHeaders();
});

after(() => host.close());

async function create(name: string, quantity?: number): Promise<{{servicePascal}}Entity> {
  const created = await call(host.url, 'POST', '/{{serviceKebab}}', { name, quantity }, headers);
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.payload as {{servicePascal}}Entity;
}

test('POST /{{serviceKebab}} creates a record with an id; GET /{{serviceKebab}}/{id} reads it back', async () => {
  const entity = await create('first', 5);
  assert.match(entity.id, /^[0-9a-f-]{36}$/);
  assert.deepEqual({ name: entity.name, quantity: entity.quantity }, { name: 'first', quantity: 5 });
  assert.ok(!Number.isNaN(Date.parse(entity.createdAt)));
  const read = await call(host.url, 'GET', `/{{serviceKebab}}/${entity.id}`, undefined, headers);
  assert.deepEqual(read, { status: 200, body: { success: true, code: 200, payload: entity } });
  assert.equal((await create('no quantity given')).quantity, 0);
});

test('GET of an id that does not exist is a 404 envelope', async () => {
  const read = await call(host.url, 'GET', '/{{serviceKebab}}/no-such-id', undefined, headers);
  assert.equal(read.status, 404);
  assert.equal(read.body.success, false);
  assert.equal(read.body.subErrorCode, '{{serviceConstant}}_404');
  assert.match(read.body.description ?? '', /no-such-id/);
});

test('op1 changes the quantity, refuses (422) to take it below zero, and 404s an unknown id', async () => {
  const entity = await create('stock', 2);
  const added = await call(host.url, 'POST', '/{{serviceKebab}}/op1', { id: entity.id, delta: 3 }, headers);
  assert.deepEqual(added.body.payload as {{servicePascal}}Op1Response, { id: entity.id, previousQuantity: 2, quantity: 5 });
  const refused = await call(host.url, 'POST', '/{{serviceKebab}}/op1', { id: entity.id, delta: -6 }, headers);
  assert.equal(refused.status, 422);
  assert.equal(refused.body.subErrorCode, '{{serviceConstant}}_422');
  const unchanged = await call(host.url, 'GET', `/{{serviceKebab}}/${entity.id}`, undefined, headers);
  assert.equal((unchanged.body.payload as {{servicePascal}}Entity).quantity, 5);
  const unknown = await call(host.url, 'POST', '/{{serviceKebab}}/op1', { id: 'nobody', delta: 1 }, headers);
  assert.equal(unknown.status, 404);
});

test('a body breaking the schema is 400 naming the field; the handler never runs', async () => {
  const bad = await call(host.url, 'POST', '/{{serviceKebab}}', { name: '', quantity: -1 }, headers);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.subErrorCode, 'SVC400');
  assert.match(JSON.stringify(bad.body), /body\.name/);
  assert.match(JSON.stringify(bad.body), /body\.quantity/);
  const extra = await call(host.url, 'POST', '/{{serviceKebab}}/op1', { id: 'x', delta: 1, color: 'red' }, headers);
  assert.equal(extra.status, 400);
  assert.match(JSON.stringify(extra.body), /body\.color/);
});

test('one tenant does not see another tenant\'s records', async () => {
  const entity = await create('private');
  const other = await call(host.url, 'GET', `/{{serviceKebab}}/${entity.id}`, undefined, { ...headers, 'x-fw-tenant-id': 'someone-else' });
  assert.equal(other.status, 404);
});

test('/info, /service-info, /health-check and /openapi.json describe the service', async () => {
  const info = await call(host.url, 'GET', '/info');
  assert.deepEqual((info.body.payload as { services: unknown[] }).services, [
    { name: '{{serviceKebab}}', version: '{{serviceVersion}}', kind: 'http', description: '{{service}}: records with a name and a quantity that may never go below zero', healthCheck: true },
  ]);
  const described = (await call(host.url, 'GET', '/service-info/{{serviceKebab}}')).body.payload as { operations: Array<{ name: string; method: string; path: string }>; interceptors: string[] };
  assert.deepEqual(described.operations.map((o) => `${o.name} ${o.method} ${o.path}`), ['create POST /{{serviceKebab}}', 'read GET /{{serviceKebab}}/{id}', 'op1 POST /{{serviceKebab}}/op1']);
  assert.deepEqual(described.interceptors, ['audit'{{#security}}, 'bearer-jwt'{{/security}}]);
  const health = await call(host.url, 'GET', '/health-check/{{serviceKebab}}');
  assert.equal(health.status, 200);
  assert.equal((health.body.payload as { healthy: boolean }).healthy, true);
  const openapi = (await (await fetch(`${host.url}/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
  assert.match(openapi.openapi, /^3\./);
  assert.ok(openapi.paths['/{{serviceKebab}}'] && openapi.paths['/{{serviceKebab}}/{id}'] && openapi.paths['/{{serviceKebab}}/op1']);
});

test('the same service in-process: registry.invoke runs the same checks and interceptors', async () => {
  const created = (await host.registry.invoke('{{serviceKebab}}', 'create', { name: 'in-process', quantity: 1 }, { tenant: TENANT, headers })) as {{servicePascal}}Entity;
  const read = await call(host.url, 'GET', `/{{serviceKebab}}/${created.id}`, undefined, headers);
  assert.equal((read.body.payload as {{servicePascal}}Entity).name, 'in-process');
  await assert.rejects(host.registry.invoke('{{serviceKebab}}', 'op1', { id: created.id, delta: -2 }, { tenant: TENANT, headers }), { code: 422, subErrorCode: '{{serviceConstant}}_422' });
});
