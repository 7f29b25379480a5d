// jpa=y: notes live in the database, so they survive a restart on the same PGlite folder.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, it } from 'node:test';
import { authHeaders, call, start, type Envelope } from './support';

const dir = mkdtempSync(path.join(tmpdir(), '{{monolithKebab}}-db-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('keeps a note across a restart (migrations run once)', async () => {
  const databaseUrl = `pglite:${path.join(dir, 'db')}`;
  const first = await start({ config: { databaseUrl } });
  const headers = await authHeaders();
  const created = await call<Envelope<{ id: string }>>(`${first.url}/notes`, { method: 'POST', headers, body: JSON.stringify({ text: 'durable' }) });
  await first.close();
  const second = await start({ config: { databaseUrl } });
  try {
    const read = await call<Envelope<{ text: string }>>(`${second.url}/notes/${created.body.payload.id}`, { headers });
    assert.equal(read.body.payload.text, 'durable');
  } finally {
    await second.close();
  }
});
