// The HTTP entry: every process behind PROCESS_MANAGEMENT_API_KEY, read on each request.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { after, before, test } from 'node:test';
import express from 'express';
import { KEY_HEADER, makeProcessRoutes } from '../src/http';
import { argsFor, startTestEnv, TENANT, type TestEnv } from './support';

const KEY = 'k'.repeat(40);
const env: NodeJS.ProcessEnv = {};
let testEnv: TestEnv;
let server: Server;
let base: string;

before(async () => {
  testEnv = await startTestEnv();
  server = express().use(makeProcessRoutes(testEnv.host.manager, env)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise((resolve) => server.close(resolve));
  await testEnv.close();
});

function post(path: string, body: unknown, key?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-fw-tenant-id': TENANT };
  if (key !== undefined) headers[KEY_HEADER] = key;
  return fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
}
{{#rootProcesses.0}}

test('without a configured key every request is 503; the key is read at run time', async () => {
  delete env.PROCESS_MANAGEMENT_API_KEY;
  assert.equal((await post('/processes/{{processType}}', {}, KEY)).status, 503);
  env.PROCESS_MANAGEMENT_API_KEY = KEY;
  assert.equal((await post('/processes/{{processType}}', {}, 'wrong')).status, 401);
  assert.equal((await post('/processes/{{processType}}', {})).status, 401);
});

test('with the key: a process is created from its typed input; bad input is 400 naming the field', async () => {
  env.PROCESS_MANAGEMENT_API_KEY = KEY;
  const created = await post('/processes/{{processType}}', argsFor(testEnv, '{{processType}}'), KEY);
  assert.equal(created.status, 201);
  const { id } = (await created.json()) as { id: string };
  const read = await fetch(`${base}/processes/${id}`, { headers: { [KEY_HEADER]: KEY, 'x-fw-tenant-id': TENANT } });
  assert.equal(read.status, 200);
  assert.equal(((await read.json()) as { processType: string }).processType, '{{processType}}');
{{#fields.0}}
  const bad = await post('/processes/{{processType}}', { ...{{{sampleArgsJson}}}, {{fields.0.name}}: [] }, KEY);
  assert.equal(bad.status, 400);
  assert.match(JSON.stringify(await bad.json()), /{{fields.0.name}}/);
{{/fields.0}}
  assert.equal((await post('/processes/no-such-process', {}, KEY)).status, 404);
});
{{/rootProcesses.0}}
