// enableServiceRegistryDelegate=y: at start, this host registers its services with a registry (a
// real registry service on another port here), retrying until it answers.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, it } from 'node:test';
import { createServer, type Server } from 'node:http';
import { makeServiceRegistry, makeServiceRegistryService, makeServiceRouter } from '@fw/service';
import express from 'express';
import { NOTES_SERVICE } from '../src/notes-service';
import { call, start, type Envelope, type Running } from './support';

let registryServer: Server | undefined;
let host: Running | undefined;
after(async () => {
  await host?.close();
  await new Promise((resolve) => registryServer?.close(resolve) ?? resolve(undefined));
});

async function startRegistry(): Promise<string> {
  const registry = makeServiceRegistry({ host: { name: 'registry', version: '1.0.0' }, services: [makeServiceRegistryService()] });
  registryServer = createServer(express().use(makeServiceRouter(registry))).listen(0, '127.0.0.1');
  await new Promise((resolve) => registryServer?.once('listening', resolve));
  return `http://127.0.0.1:${(registryServer.address() as AddressInfo).port}`;
}

it('registers its services with the registry once listening', async () => {
  const registryUrl = await startRegistry();
  host = await start({ config: { serviceRegistryUrl: registryUrl } });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { body } = await call<Envelope<Array<{ baseUrl: string; services: Array<{ name: string }> }>>>(`${registryUrl}/serviceregistry`);
    const entry = body.payload.find((e) => e.baseUrl === host?.url);
    if (entry) {
      assert.ok(entry.services.some((s) => s.name === NOTES_SERVICE));
      return;
    }
    assert.ok(Date.now() < deadline, 'not registered within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});
