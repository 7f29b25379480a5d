// Registration reaches a registry that answers late: refused at first, registered on a retry.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { startRegistration } from '../src/registry';

test('registers every process service, retrying while the registry refuses', async () => {
  const bodies: unknown[] = [];
  let calls = 0;
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(503).end();
        return;
      }
      bodies.push(JSON.parse(text));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const stop = startRegistration({ baseUrl: 'http://127.0.0.1:9999', registryUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  const until = Date.now() + 10_000;
  while (bodies.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  stop();
  server.close();
  assert.equal(calls, 2);
  const body = bodies[0] as { baseUrl: string; services: { name: string; kind: string }[] };
  assert.equal(body.baseUrl, 'http://127.0.0.1:9999');
  assert.equal(body.services.length, {{processes.length}});
  assert.ok(body.services.every((s) => s.kind === 'process' && s.name.startsWith('{{applicationKebab}}-')));
});
