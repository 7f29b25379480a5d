// The cloud switch: one client function, run against the service in this process and against a
// second real host on another port, chosen by configuration only (services.{{serviceKebab}}.url);
// same results, same errors.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { makeServiceRegistry, type ServiceRegistry } from '@fw/service';
import { make{{servicePascal}}Client, type {{servicePascal}}Client } from '../src/client';
import type { Running{{servicePascal}}Host } from '../src/host';
import { readSettings } from '../src/settings';
import { callerHeaders, startTestHost, TENANT } from './support';

let local: Running{{servicePascal}}Host;
let remote: Running{{servicePascal}}Host;
let callerRegistry: ServiceRegistry;

before(async () => {
  local = await startTestHost();
  remote = await startTestHost();
  // A caller that hosts no {{service}} itself: it can only reach the remote one.
  callerRegistry = makeServiceRegistry({ host: { name: 'caller', version: '1.0.0' } });
});

after(async () => {
  await local.close();
  await remote.close();
});

/** The client code under test: the same whatever the client resolves to. */
async function scenario(client: {{servicePascal}}Client) {
  const options = { tenant: TENANT, headers: await callerHeaders() };
  const created = await client.create({ name: 'switch', quantity: 2 }, options);
  const read = await client.read(created.id, options);
  const changed = await client.op1({ id: created.id, delta: 1 }, options);
  const refused = await client.op1({ id: created.id, delta: -10 }, options).catch((err: { code: number; subErrorCode: string }) => ({ code: err.code, subErrorCode: err.subErrorCode }));
  const missing = await client.read('missing-id', options).catch((err: { code: number; subErrorCode: string }) => ({ code: err.code, subErrorCode: err.subErrorCode }));
  const invalid = await client.create({ name: '' }, options).catch((err: { code: number; subErrorCode: string }) => ({ code: err.code, subErrorCode: err.subErrorCode }));
  return { sameRecord: read.id === created.id && read.name === 'switch', changed: { previousQuantity: changed.previousQuantity, quantity: changed.quantity }, refused, missing, invalid, id: created.id };
}

test('without a url the client calls the local instance; with one, the remote host — same results and errors', async () => {
  const inProcess = make{{servicePascal}}Client({ registry: local.registry, services: {} });
  const overHttp = make{{servicePascal}}Client({ registry: callerRegistry, services: { '{{serviceKebab}}': { url: remote.url } } });
  assert.equal(inProcess.target, 'local');
  assert.equal(overHttp.target, remote.url);
  const a = await scenario(inProcess);
  const b = await scenario(overHttp);
  const expected = {
    sameRecord: true,
    changed: { previousQuantity: 2, quantity: 3 },
    refused: { code: 422, subErrorCode: '{{serviceConstant}}_422' },
    missing: { code: 404, subErrorCode: '{{serviceConstant}}_404' },
    invalid: { code: 400, subErrorCode: 'SVC400' },
  };
  assert.deepEqual({ ...a, id: undefined }, { ...expected, id: undefined });
  assert.deepEqual({ ...b, id: undefined }, { ...expected, id: undefined });
  // Each record is where its calls went: the remote one only on the remote host.
  assert.notEqual(await remote.repository.get(TENANT, b.id), undefined);
  assert.equal(await local.repository.get(TENANT, b.id), undefined);
  assert.notEqual(await local.repository.get(TENANT, a.id), undefined);
});

test('services.<name>.url comes from the {{serviceConstant}}_CONFIG file, with environment placeholders', () => {
  const dir = mkdtempSync(path.join(tmpdir(), '{{serviceKebab}}-config-'));
  try {
    const file = path.join(dir, 'services.json');
    writeFileSync(file, JSON.stringify({ services: { '{{serviceKebab}}': { url: '${REMOTE_URL:-}' } } }));
    assert.deepEqual(readSettings({ {{serviceConstant}}_CONFIG: file, REMOTE_URL: 'http://10.0.0.7:8080' }).services, { '{{serviceKebab}}': { url: 'http://10.0.0.7:8080' } });
    // The placeholder left empty: local, as if there were no entry.
    assert.deepEqual(readSettings({ {{serviceConstant}}_CONFIG: file }).services, { '{{serviceKebab}}': {} });
    assert.deepEqual(readSettings({}).services, {});
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
