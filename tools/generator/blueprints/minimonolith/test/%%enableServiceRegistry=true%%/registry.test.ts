// enableServiceRegistry=y: this host runs the registry service; another host registers with it.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { call, start, type Envelope, type Running } from './support';

let host: Running;
before(async () => {
  host = await start();
});
after(() => host.close());

it('accepts a registration at POST /serviceregistry and lists it at GET /serviceregistry', async () => {
  const registration = { baseUrl: 'http://127.0.0.1:9', services: [{ name: 'billing', version: '1.0.0', kind: 'http', description: 'Bills', healthCheck: false }] };
  const posted = await call(`${host.url}/serviceregistry`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(registration) });
  assert.equal(posted.status, 200);
  const { body } = await call<Envelope<Array<{ baseUrl: string; services: Array<{ name: string }> }>>>(`${host.url}/serviceregistry`);
  const entry = body.payload.find((e) => e.baseUrl === registration.baseUrl);
  assert.deepEqual(entry?.services.map((s) => s.name), ['billing']);
});
