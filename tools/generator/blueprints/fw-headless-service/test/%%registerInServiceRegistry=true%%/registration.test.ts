// Registration against a real registry service (makeServiceRegistryService on express, port 0)
// that refuses the first attempt: the delegate retries with backoff and the catalog then lists
// {{service}} as a headless service.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { test } from 'node:test';
import { makeServiceRegistry, makeServiceRegistryService, makeServiceRouter } from '@fw/service';
import express from 'express';
import { loadRegistrationSettings, make{{servicePascal}}Registry, startRegistration, SERVICE_NAME } from '../src';

interface CatalogEntry {
  baseUrl: string;
  services: Array<{ name: string; kind: string; version: string }>;
}

test('registers with a registry that is unavailable at first', async () => {
  const registryHost = makeServiceRegistry({ host: { name: 'registry', version: '1.0.0' }, services: [makeServiceRegistryService()] });
  let refused = 0;
  const app = express();
  app.use((req, res, next) => {
    if (req.method === 'POST' && refused === 0) {
      refused += 1;
      res.status(503).json({ success: false, code: 503 });
      return;
    }
    next();
  });
  app.use(makeServiceRouter(registryHost));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const registryUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const delegate = startRegistration(make{{servicePascal}}Registry(), { serviceRegistryUrl: registryUrl, baseUrl: 'http://{{serviceKebab}}.test', refreshMillis: 60_000, retry: { baseMillis: 20, maxMillis: 200 } });
  try {
    await delegate.registered();
    assert.equal(refused, 1);
    assert.ok(delegate.stats().attempts >= 2);
    const catalog = (await (await fetch(`${registryUrl}/serviceregistry`)).json()) as { payload: CatalogEntry[] };
    const entry = catalog.payload.find((e) => e.baseUrl === 'http://{{serviceKebab}}.test');
    assert.ok(entry, JSON.stringify(catalog));
    assert.deepEqual(entry.services.map((s) => [s.name, s.kind, s.version]), [[SERVICE_NAME, 'headless', '{{serviceVersion}}']]);
  } finally {
    await delegate.stop();
    server.close();
  }
});

test('settings come from the environment through config/registry.json', () => {
  const settings = loadRegistrationSettings({ SERVICE_REGISTRY_URL: 'http://registry.example:8080', SERVICE_BASE_URL: 'http://worker-1:0' });
  assert.deepEqual(settings, { serviceRegistryUrl: 'http://registry.example:8080', baseUrl: 'http://worker-1:0', refreshMillis: 30000 });
  assert.equal(loadRegistrationSettings({}).serviceRegistryUrl, 'http://127.0.0.1:8080');
  const dir = mkdtempSync(path.join(tmpdir(), '{{serviceKebab}}-'));
  try {
    const file = path.join(dir, 'registry.json');
    writeFileSync(file, JSON.stringify({ serviceRegistryUrl: 'ftp://nope' }));
    assert.throws(() => loadRegistrationSettings({}, file), /serviceRegistryUrl must be an http\(s\) URL/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
