// The cloud switch: one client function, run against the service in this process and against the
// same service over HTTP (configured by URL), gives the same answers and the same refusals.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isFwError } from '@fw/core';
import { make{{servicePascal}}Client, type {{servicePascal}}Client } from '../src';
import { CREATE_BODY, start, type Running } from './support';

/** Creates, sends the first action the new entity allows, reads it, sends an event not allowed. */
async function scenario(client: {{servicePascal}}Client, headers: Record<string, string>): Promise<unknown[]> {
  const created = await client.create(CREATE_BODY, { headers });
  const id = created.mutatedEntity.id;
  const first = created.allowedActionsAndMetadata[0];
  assert.ok(first, 'a new entity allows an action');
  const moved = await client.send(id, first.allowedAction, {}, { headers });
  const read = await client.get(id, { headers });
  let refusal: unknown;
  try {
    await client.send(id, 'no-such-event', {}, { headers });
  } catch (err) {
    refusal = isFwError(err) ? [err.code, err.subErrorCode] : err;
  }
  return [created.mutatedEntity.state.stateId, moved.mutatedEntity.state.stateId, read.mutatedEntity.version, refusal];
}

describe('{{service}}: the client through the service proxy', () => {
  let local: Running;
  let remote: Running;
  before(async () => {
    local = await start();
    remote = await start();
  });
  after(async () => {
    await local.close();
    await remote.close();
  });

  it('resolves locally without a URL and remotely with one, with the same results', async () => {
    const inProcess = make{{servicePascal}}Client(local.registry, {});
    const overHttp = make{{servicePascal}}Client(local.registry, { url: remote.baseUrl });
    assert.equal(inProcess.resolvesTo, 'local');
    assert.equal(overHttp.resolvesTo, remote.baseUrl);
    const a = await scenario(inProcess, local.headers);
    const b = await scenario(overHttp, remote.headers);
    assert.deepEqual(a, b);
    assert.deepEqual(a[3], [422, 'WF422']);
  });
});
