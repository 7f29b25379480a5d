// The service packages {{monolith}} was generated with are registered and listed at /info.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { loadComposedServices } from '../src/composed-services';
import { call, start, type Envelope, type Running } from './support';

let host: Running;
before(async () => {
  host = await start();
});
after(() => host.close());

it('lists every service of {{#dependencyPackages}}{{name}} {{/dependencyPackages}}at /info', async () => {
  const composed = await loadComposedServices();
  const expected = composed.services.map((s) => s.name);
  await composed.close();
  assert.ok(expected.length > 0);
  const { body } = await call<Envelope<{ services: Array<{ name: string }> }>>(`${host.url}/info`);
  const listed = body.payload.services.map((s) => s.name);
  for (const name of expected) assert.ok(listed.includes(name), `${name} not in ${listed.join()}`);
});
