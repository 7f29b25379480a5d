// The command: starts on PGlite in memory, prints its URL, answers a query, stops on SIGTERM.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';
{{#security}}
import { signToken, TEST_SECRET } from './support';
{{/security}}

test('serves the query on the port it prints and exits 0 on SIGTERM', async () => {
  const child = spawn(process.execPath, [path.resolve(__dirname, '../src/main.js')], {
    env: { ...process.env, PORT: '0', FW_LOG_LEVEL: 'warn'{{#security}}, QUERY_JWT_SECRET: TEST_SECRET, QUERY_JWT_ISSUER: 'test-issuer'{{/security}} },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(text);
        if (match) resolve(match[1]);
      });
      child.once('exit', () => reject(new Error(`exited before listening: ${text}`)));
    });
    const res = await fetch(`${url}/q/{{namespaceKebab}}-items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json'{{#security}}, authorization: `Bearer ${await signToken()}`{{/security}} },
      body: JSON.stringify({ filters: { category: 'accessories' } }),
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { payload: { maxRows: number } }).payload.maxRows, 3);
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(await exited, 0);
});
