// cloudSwitchEnabled=y: the same call through the proxy runs locally, or on the host named by
// remoteServices.<name>.url, with the same result either way.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { NOTES_SERVICE } from '../src/notes-service';
import { authHeaders, start, type Running } from './support';

let remote: Running;
let local: Running;
before(async () => {
  remote = await start();
  local = await start({ config: { remoteServices: { [NOTES_SERVICE]: { url: remote.url } } } });
});
after(async () => {
  await local.close();
  await remote.close();
});

it('resolves locally without configuration', async () => {
  assert.equal(remote.monolith.proxy.resolve(NOTES_SERVICE), 'local');
  const note = (await remote.monolith.proxy.invoke(NOTES_SERVICE, 'create', { text: 'here' }, { headers: await authHeaders() })) as { id: string };
  assert.equal(((await remote.monolith.registry.invoke(NOTES_SERVICE, 'read', { id: note.id }, { headers: await authHeaders() })) as { text: string }).text, 'here');
});

it('calls the remote host when configured; the note lands there', async () => {
  assert.equal(local.monolith.proxy.resolve(NOTES_SERVICE), remote.url);
  const headers = await authHeaders();
  const note = (await local.monolith.proxy.invoke(NOTES_SERVICE, 'create', { text: 'there' }, { headers })) as { id: string };
  const onRemote = (await remote.monolith.registry.invoke(NOTES_SERVICE, 'read', { id: note.id }, { headers })) as { text: string };
  assert.equal(onRemote.text, 'there');
  await assert.rejects(local.monolith.registry.invoke(NOTES_SERVICE, 'read', { id: note.id }, { headers }), /no note/);
});
