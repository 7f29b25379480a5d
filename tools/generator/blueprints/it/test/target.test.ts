// The two other ways to choose the target, proven with the reference app: IT_APP_COMMAND starts
// it as a command and finds its URL in its output; IT_BASE_URL uses an app that already runs.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { make{{entityPascal}}Client, startReferenceApp, startTarget } from '../src';
{{#security}}
import { signToken } from '../src/jwt';

const SECRET = 'an-integration-test-secret-of-32-chars+';
{{/security}}

test('IT_APP_COMMAND: starts the command, reads the URL it prints, stops it afterwards', async () => {
  const command = `"${process.execPath}" "${path.resolve(__dirname, '../src/reference/main.js')}"`;
  const target = await startTarget({ IT_APP_COMMAND: command{{#security}}, IT_JWT_SECRET: SECRET{{/security}} });
  try {
    assert.equal(target.kind, 'command');
    assert.match(target.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    const client = make{{entityPascal}}Client(target.baseUrl{{#security}}, { authorization: `Bearer ${await signToken(target.jwt)}` }{{/security}});
    assert.equal((await client.create({ name: 'from a command' })).status, 200);
  } finally {
    await target.stop();
  }
  await assert.rejects(fetch(`${target.baseUrl}/{{entityKebab}}/x`), 'the command was stopped');
});

test('IT_APP_COMMAND: a command that exits without printing a URL fails clearly', async () => {
  await assert.rejects(startTarget({ IT_APP_COMMAND: `"${process.execPath}" -e "console.log('no url here')"`{{#security}}, IT_JWT_SECRET: SECRET{{/security}} }), /exited \(0\) before printing a URL/);
});

test('IT_BASE_URL: uses the running app as it is', async () => {
  const app = await startReferenceApp({{#security}}{ jwt: { secret: SECRET } }{{/security}});
  try {
    const target = await startTarget({ IT_BASE_URL: `${app.url}/`{{#security}}, IT_JWT_SECRET: SECRET{{/security}} });
    assert.deepEqual([target.kind, target.baseUrl], ['url', app.url]);
    const client = make{{entityPascal}}Client(target.baseUrl{{#security}}, { authorization: `Bearer ${await signToken(target.jwt)}` }{{/security}});
    assert.equal((await client.read('unknown')).status, 404);
  } finally {
    await app.close();
  }
});
{{#security}}

test('testing a running app with security needs its secret', async () => {
  await assert.rejects(startTarget({ IT_BASE_URL: 'http://127.0.0.1:9' }), /IT_JWT_SECRET must be set/);
});
{{/security}}
