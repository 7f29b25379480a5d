// The command: JSON-line events on standard input, one outcome line each on standard output.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';

test('answers every input line, then exits 0', () => {
  const main = path.resolve(__dirname, '../src/main.js');
  const input = [
    JSON.stringify({ operation: 'quote', input: { sku: 'D-1', quantity: 3, unitPrice: 2 }, correlationId: 'a' }),
    'not json',
    JSON.stringify({ operation: 'quote', input: { sku: 'D-1', quantity: -1, unitPrice: 2 }, correlationId: 'b' }),
  ].join('\n');
{{#registerInServiceRegistry}}
  // The registry address is a closed port: registration keeps retrying in the background and
  // must not hold the process once the input is answered.
{{/registerInServiceRegistry}}
  const run = spawnSync(process.execPath, [main], { input, encoding: 'utf8', timeout: 20_000, env: { ...process.env, {{#registerInServiceRegistry}}SERVICE_REGISTRY_URL: 'http://127.0.0.1:9', {{/registerInServiceRegistry}}FW_LOG_LEVEL: 'error' } });
  assert.equal(run.status, 0, run.stderr);
  const outcomes = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { correlationId?: string; envelope: { code: number } });
  assert.equal(outcomes.length, 3);
  const codes = Object.fromEntries(outcomes.map((o) => [o.correlationId ?? 'none', o.envelope.code]));
  assert.deepEqual(codes, { a: 200, none: 400, b: 400 });
});
