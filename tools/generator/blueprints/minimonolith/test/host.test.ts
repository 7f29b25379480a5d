// {{monolith}} on a real port: every endpoint the admin UI reads, the admin UI itself, the built-in
// notes service, and a composed service package (a test double in the package's shape).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { defineService } from '@fw/service';
import { NOTES_SERVICE } from '../src/notes-service';
import { authHeaders, call, start, type Envelope, type Running } from './support';

interface HostInfo {
  name: string;
  services: Array<{ name: string; kind: string; healthCheck: boolean }>;
}

const echo = defineService({
  name: 'echo',
  version: '1.0.0',
  operations: [{ name: 'say', method: 'POST', path: '/echo', input: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } }, handler: async (input: { text: string }) => ({ text: input.text }) }],
});

describe('{{monolith}} host', () => {
  let host: Running;
  before(async () => {
    host = await start({ servicePackages: [{ package: 'test-echo', load: () => [echo] }] });
  });
  after(() => host.close());

  it('lists its services at /info: the built-in notes service and the composed ones', async () => {
    const { status, body } = await call<Envelope<HostInfo>>(`${host.url}/info`);
    assert.equal(status, 200);
    assert.equal(body.payload.name, '{{monolithKebab}}');
    const names = body.payload.services.map((s) => s.name);
    assert.ok(names.includes(NOTES_SERVICE), names.join());
    assert.ok(names.includes('echo'), names.join());
  });

  it('describes a service at /service-info/{svc}, with its store', async () => {
    const { status, body } = await call<Envelope<{ operations: Array<{ name: string; path?: string }>; details?: { store: string } }>>(`${host.url}/service-info/${NOTES_SERVICE}`);
    assert.equal(status, 200);
    assert.deepEqual(body.payload.operations.map((o) => o.path), ['/notes', '/notes/{id}']);
    assert.equal(body.payload.details?.store, '{{#jpa}}database{{/jpa}}{{^jpa}}memory{{/jpa}}');
    assert.equal((await call(`${host.url}/service-info/nothing-here`)).status, 404);
  });

  it('runs the health check at /health-check/{svc} and /health-check', async () => {
    const one = await call<Envelope<{ healthy: boolean }>>(`${host.url}/health-check/${NOTES_SERVICE}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.payload.healthy, true);
    assert.equal((await call(`${host.url}/health-check`)).status, 200);
  });

  it('serves an OpenAPI document with the operations', async () => {
    const { status, body } = await call<{ openapi: string; paths: Record<string, unknown> }>(`${host.url}/openapi.json`);
    assert.equal(status, 200);
    assert.match(body.openapi, /^3\./);
    assert.ok('/notes' in body.paths && '/echo' in body.paths, Object.keys(body.paths).join());
  });

  it('serves the admin UI at /fw/admin/', async () => {
    const res = await fetch(`${host.url}/fw/admin/`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /html/);
    assert.match(await res.text(), /<base href="\/fw\/admin\/">/);
  });

  it('creates and reads a note; an unknown one is a 404 envelope, a bad body a 400', async () => {
    const headers = await authHeaders();
    const created = await call<Envelope<{ id: string; text: string }>>(`${host.url}/notes`, { method: 'POST', headers, body: JSON.stringify({ text: 'hello' }) });
    assert.equal(created.status, 200);
    const read = await call<Envelope<{ text: string }>>(`${host.url}/notes/${created.body.payload.id}`, { headers });
    assert.equal(read.body.payload.text, 'hello');
    const missing = await call<Envelope<null>>(`${host.url}/notes/nope`, { headers });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.subErrorCode, 'NOTE404');
    assert.equal((await call(`${host.url}/notes`, { method: 'POST', headers, body: JSON.stringify({ text: '' }) })).status, 400);
  });

  it('calls a composed service over HTTP and in-process', async () => {
    const res = await call<Envelope<{ text: string }>>(`${host.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'hi' }) });
    assert.deepEqual(res.body.payload, { text: 'hi' });
    assert.deepEqual(await host.monolith.registry.invoke('echo', 'say', { text: 'in-process' }), { text: 'in-process' });
  });
});
