import { isFwError } from '@fw/core';
import {
  makeRegistryDelegate,
  makeServiceProxy,
  makeServiceRegistry,
  makeServiceRegistryService,
  makeServiceRouter,
  onListening,
  type ServiceProxy,
} from '@fw/service';
import express from 'express';
import type { Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import request from 'supertest';
import { echoService, ticketService } from './fixtures';

async function listen(app: express.Express, port = 0): Promise<{ server: Server; url: string; port: number }> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, '127.0.0.1');
    server.once('error', reject);
    server.once('listening', () => {
      const address = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${address.port}`, port: address.port });
    });
  });
}

async function close(server: Server): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function registryHost() {
  const registry = makeServiceRegistry({
    host: { name: 'registry-host', version: '1' },
    services: [makeServiceRegistryService()],
  });
  return express().use(makeServiceRouter(registry));
}

async function eventually<T>(probe: () => Promise<T | undefined>, millis = 10_000): Promise<T> {
  const until = Date.now() + millis;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('service registry service and delegate', () => {
  it('registers a host with its services, lists the catalog, refuses a bad registration', async () => {
    const app = registryHost();
    const ok = await request(app)
      .post('/serviceregistry')
      .send({
        baseUrl: 'http://orders:8080/',
        host: { name: 'orders', version: '2' },
        services: [{ name: 'orders', version: '2.0.0', kind: 'http', description: 'Orders', healthCheck: true }],
      });
    expect(ok.status).toBe(200);
    const list = await request(app).get('/serviceregistry');
    expect(list.body.payload).toEqual([
      {
        baseUrl: 'http://orders:8080',
        host: { name: 'orders', version: '2' },
        services: [{ name: 'orders', version: '2.0.0', kind: 'http', description: 'Orders', healthCheck: true }],
        registeredAt: expect.any(String),
        lastSeen: expect.any(String),
      },
    ]);
    const bad = await request(app)
      .post('/serviceregistry')
      .send({ baseUrl: 'ftp://nope', services: [{ name: '1x' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'body.baseUrl',
      'body.services[0].name',
      'body.services[0].version',
    ]);
  });

  it('the delegate retries until the registry answers, and registers again after the registry restarted', async () => {
    // A free port, with nothing listening on it yet.
    const probe = await listen(express());
    const port = probe.port;
    await close(probe.server);
    const local = makeServiceRegistry({
      host: { name: 'shop', version: '3' },
      services: [ticketService(), echoService],
    });
    const delegate = makeRegistryDelegate({
      registryUrl: `http://127.0.0.1:${port}`,
      baseUrl: 'http://shop:8080',
      registry: local,
      refreshMillis: 200,
      retry: { baseMillis: 50, maxMillis: 200 },
    });
    delegate.start();
    try {
      // Nothing listens yet: the delegate keeps trying.
      await eventually(async () => (delegate.stats().attempts > 1 ? true : undefined));
      expect(delegate.stats().successes).toBe(0);
      let registryServer = (await listen(registryHost(), port)).server;
      await delegate.registered();
      const names = async () =>
        (
          (await request(`http://127.0.0.1:${port}`).get('/serviceregistry')).body.payload as Array<{
            services: Array<{ name: string }>;
          }>
        ).flatMap((e) => e.services.map((s) => s.name));
      expect(await names()).toEqual(['tickets', 'echo']);
      // The registry restarts and forgets everything; the next refresh fills it again.
      await close(registryServer);
      registryServer = (await listen(registryHost(), port)).server;
      expect(await names()).toEqual([]);
      expect(await eventually(async () => ((await names()).length === 2 ? await names() : undefined))).toEqual([
        'tickets',
        'echo',
      ]);
      await close(registryServer);
    } finally {
      await delegate.stop();
    }
  });
});

describe('onListening', () => {
  it('gives the bound address and URL and announces the host there, or at the base URL it is told', async () => {
    const registryServer = await listen(registryHost());
    const local = makeServiceRegistry({ host: { name: 'shop', version: '3' }, services: [echoService] });
    const shop = await listen(express().use(makeServiceRouter(local)));
    const announced = onListening(shop.server, { registry: local, serviceRegistry: { url: registryServer.url } });
    const behindProxy = onListening(shop.server, {
      registry: local,
      serviceRegistry: { url: registryServer.url, baseUrl: 'https://shop.example.com' },
    });
    try {
      expect(announced).toMatchObject({ address: '127.0.0.1', port: shop.port, url: shop.url });
      await Promise.all([announced.delegate?.registered(), behindProxy.delegate?.registered()]);
      const catalog = (await request(registryServer.url).get('/serviceregistry')).body.payload as Array<{
        baseUrl: string;
      }>;
      expect(catalog.map((entry) => entry.baseUrl).sort()).toEqual([shop.url, 'https://shop.example.com']);
    } finally {
      await announced.delegate?.stop();
      await behindProxy.delegate?.stop();
      await close(shop.server);
      await close(registryServer.server);
    }
  });

  it('starts no delegate without a service registry, brackets an IPv6 address, refuses a server not on a port', () => {
    const registry = makeServiceRegistry({ host: { name: 'shop', version: '3' } });
    const v6 = { address: (): AddressInfo => ({ address: '::1', family: 'IPv6', port: 8080 }) };
    expect(onListening(v6, { registry })).toEqual({
      address: '::1',
      port: 8080,
      url: 'http://[::1]:8080',
      delegate: undefined,
    });
    expect(() => onListening(createServer(), { registry })).toThrow(/not listening/);
    expect(() => onListening({ address: () => '/tmp/shop.sock' }, { registry })).toThrow(
      /on the pipe \/tmp\/shop\.sock/,
    );
  });
});

describe('service proxy (cloud switch)', () => {
  let remote: { server: Server; url: string };
  beforeAll(async () => {
    const registry = makeServiceRegistry({ host: { name: 'remote', version: '1' }, services: [ticketService()] });
    remote = await listen(express().use(makeServiceRouter(registry)));
  });
  afterAll(async () => close(remote.server));

  /** One client, written once, run against a local and a remote resolution. */
  async function client(proxy: ServiceProxy) {
    const created = (await proxy.invoke('tickets', 'create', { title: 'paper jam' }, { tenant: 'acme' })) as {
      id: number;
      title: string;
      tenant: string;
    };
    const read = await proxy.invoke('tickets', 'get', { id: created.id });
    const refused = await proxy.invoke('tickets', 'create', { priority: 9 }).catch((e: unknown) => e);
    const missing = await proxy.invoke('tickets', 'get', { id: 999 }).catch((e: unknown) => e);
    return { created, read, refused, missing };
  }

  it('runs the same client code against the local instance and an HTTP delegate, with the same results and errors', async () => {
    const localRegistry = makeServiceRegistry({ host: { name: 'local', version: '1' }, services: [ticketService()] });
    const local = makeServiceProxy({ registry: localRegistry });
    const viaHttp = makeServiceProxy({ registry: localRegistry, services: { tickets: { url: remote.url } } });
    expect(local.resolve('tickets')).toBe('local');
    expect(viaHttp.resolve('tickets')).toBe(remote.url);
    const a = await client(local);
    const b = await client(viaHttp);
    expect(b.created).toEqual(a.created);
    expect(a.created).toEqual({ id: 1, title: 'paper jam', tenant: 'acme' });
    expect(b.read).toEqual(a.read);
    for (const outcome of [a, b]) {
      expect(isFwError(outcome.refused)).toBe(true);
      expect(outcome.refused).toMatchObject({ code: 400, subErrorCode: 'SVC400' });
      expect((outcome.refused as { field: string }).field).toMatch(/^(input|body)\.title$/);
      expect(outcome.missing).toMatchObject({ code: 404, subErrorCode: 'TICKET404', description: 'No ticket 999' });
    }
  });

  it('answers 404 for an operation the remote service does not have', async () => {
    const proxy = makeServiceProxy({
      registry: makeServiceRegistry({ host: { name: 'l', version: '1' } }),
      services: { tickets: { url: remote.url } },
    });
    await expect(proxy.invoke('tickets', 'nope', {})).rejects.toMatchObject({ code: 404, subErrorCode: 'SVC404' });
  });
});
