import { CoreErrorCodes, type Database } from '@fw/core';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '@fw/test-support';
import rawRequest from 'supertest';
import { makeServiceRegistry, makeServiceRegistryService, makeServiceRouter } from '@fw/service';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdminServer, seedDefinitions, WORD_COUNT_DEFINITIONS, type AdminServer } from '../src';
import { checkedAgainst, type CheckedAgent } from './contract';
import { API, eventually, KEY, testConfig } from './support';

/** The 503 envelope of `/health-check` when the process database is down. */
const DATABASE_DOWN = {
  success: false,
  code: 503,
  severity: 'ERROR',
  subErrorCode: CoreErrorCodes.unavailable,
  description: 'Unhealthy: process-database',
  message: 'Unhealthy: process-database',
  payload: null,
  // the reason (a connection error names hosts and users) is logged, not answered
  errors: [
    {
      code: '503',
      subErrorCode: CoreErrorCodes.unavailable,
      severity: 'ERROR',
      description: 'Unhealthy: process-database',
      params: ['process-database'],
    },
  ],
};

describeEachDatabase('admin server /info, /service-info and /health-check', (getDb) => {
  let server: AdminServer;
  /** supertest, every answer checked against the server's own /openapi.json. */
  let request: (target: AdminServer['app']) => CheckedAgent;

  beforeAll(async () => {
    await seedDefinitions(getDb().database, WORD_COUNT_DEFINITIONS);
    server = await createAdminServer({
      config: testConfig(getDb()),
      database: getDb().database,
      ownerId: 'info-owner',
    });
    request = await checkedAgainst(server.app);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  }, 60_000);

  it('answers /info and /service-info without the key', async () => {
    const info = await request(server.app).get('/info');
    expect(info.status).toBe(200);
    expect(info.body).toEqual({
      success: true,
      code: 200,
      payload: {
        name: 'admin-server',
        version: '0.1.0',
        description: expect.any(String),
        services: [
          { name: 'process', version: '0.1.0', kind: 'process', description: expect.any(String), healthCheck: true },
          {
            name: 'process-management',
            version: '0.1.0',
            kind: 'process',
            description: expect.any(String),
            healthCheck: false,
          },
        ],
      },
    });
    const services = await request(server.app).get('/service-info');
    expect(services.status).toBe(200);
    expect(services.body.payload.map((s: { name: string }) => s.name)).toEqual(['process', 'process-management']);
    const processService = await request(server.app).get('/service-info/process');
    expect(processService.body.payload).toMatchObject({
      name: 'process',
      kind: 'process',
      details: { profile: 'production', definitionSource: 'database', exampleWorkers: false },
      healthCheck: true,
    });
    expect(
      processService.body.payload.operations.map((o: { method: string; path: string }) => `${o.method} ${o.path}`),
    ).toEqual([
      'POST /process',
      'GET /process/{id}',
      'PATCH /process/{id}/{eventID}',
      'GET /processChildren/{id}',
      'POST /process/completed',
    ]);
    const management = await request(server.app).get('/service-info/process-management');
    expect(management.body.payload.operations.map((o: { name: string }) => o.name)).toEqual(
      expect.arrayContaining(['info', 'listCrontabs', 'addCrontab']),
    );
    expect((await request(server.app).get('/service-info/nope')).body).toMatchObject({
      success: false,
      code: 404,
      subErrorCode: 'SVC404',
    });
    const openapi = await request(server.app).get('/openapi.json');
    expect(openapi.body).toMatchObject({ openapi: '3.1.0', info: { title: 'admin-server' } });
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining(['/process', '/process/{id}', '/process-management/api/crontabs']),
    );
  });

  it('reports the process database healthy after a real query, with or without a key', async () => {
    const healthy = {
      success: true,
      code: 200,
      payload: { healthy: true, checks: [{ name: 'process-database', healthy: true }] },
    };
    const health = await request(server.app).get('/health-check');
    expect(health.status).toBe(200);
    expect(health.body).toEqual(healthy);
    expect((await request(server.app).get('/health-check').set('X-Process-Management-Key', 'wrong')).body).toEqual(
      healthy,
    );
    const one = await request(server.app).get('/health-check/process');
    expect(one.status).toBe(200);
    expect(one.body.payload).toEqual(healthy.payload);
    // A service without a health check, and an unknown one: 404.
    expect((await request(server.app).get('/health-check/process-management')).status).toBe(404);
    expect((await request(server.app).get('/health-check/nope')).status).toBe(404);
  });

  it('still guards everything else with the key', async () => {
    expect((await request(server.app).get('/process/00000000-0000-4000-8000-000000000000')).status).toBe(401);
    expect((await request(server.app).get(`${API}/info`).set('x-fw-tenant-id', 'demo')).status).toBe(401);
    expect((await rawRequest(server.app).get('/info/anything')).status).toBe(401); // in no document
    expect(
      (await request(server.app).get(`${API}/info`).set({ 'X-Process-Management-Key': KEY, 'x-fw-tenant-id': 'demo' }))
        .status,
    ).toBe(200);
  });

  it('answers 503 with the error envelope when the process database is gone', async () => {
    // A server on a database of its own, which the test then closes (and, on PostgreSQL, drops).
    const doomed: TestDatabase = await createTestDatabase(getDb().target);
    const orphaned = await createAdminServer({
      config: testConfig(doomed),
      database: doomed.database,
      ownerId: 'info-doomed',
    });
    try {
      expect((await request(orphaned.app).get('/health-check')).status).toBe(200);
      await doomed.dispose();
      const health = await request(orphaned.app).get('/health-check');
      expect(health.status).toBe(503);
      expect(health.body).toEqual(DATABASE_DOWN);
      expect((await request(orphaned.app).get('/info')).status).toBe(200); // the process itself still answers
    } finally {
      await orphaned.close();
    }
  }, 60_000);

  it('answers 503 when the process database does not answer in time', async () => {
    let answering = true;
    const real = getDb().database;
    // The same database, except that its sessions hang once `answering` is false (a stalled server or network).
    const stalling: Database = {
      ...real,
      withSession: (fn) => (answering ? real.withSession(fn) : new Promise(() => undefined)),
    };
    const stalled = await createAdminServer({
      config: testConfig(getDb()),
      database: stalling,
      ownerId: 'info-stalled',
    });
    try {
      answering = false;
      const began = Date.now();
      const health = await request(stalled.app).get('/health-check');
      expect(health.status).toBe(503);
      expect(health.body).toEqual(DATABASE_DOWN);
      expect(Date.now() - began).toBeGreaterThanOrEqual(2_900);
    } finally {
      await stalled.close();
    }
  }, 60_000);
});

describeEachDatabase('admin server registering with a service registry (FW_SERVICE_REGISTRY_URL)', (getDb) => {
  it('registers its services with the registry once listening', async () => {
    const registryHost = express().use(
      makeServiceRouter(
        makeServiceRegistry({ host: { name: 'registry', version: '1' }, services: [makeServiceRegistryService()] }),
      ),
    );
    const registryServer = await new Promise<Server>((resolve) => {
      const s = registryHost.listen(0, '127.0.0.1', () => resolve(s));
    });
    const registryUrl = `http://127.0.0.1:${(registryServer.address() as AddressInfo).port}`;
    const server = await createAdminServer({
      config: { ...testConfig(getDb()), serviceRegistry: { url: registryUrl, baseUrl: 'http://admin.example:8080' } },
      database: getDb().database,
      ownerId: 'delegate-owner',
    });
    try {
      await server.listen();
      const catalog = await eventually(
        async () => {
          const body = (await rawRequest(registryUrl).get('/serviceregistry')).body as {
            payload: Array<{ baseUrl: string; services: Array<{ name: string }> }>;
          };
          return body.payload.length > 0 ? body.payload : undefined;
        },
        10_000,
        'the registration',
      );
      expect(catalog.map((e) => [e.baseUrl, e.services.map((s) => s.name)])).toEqual([
        ['http://admin.example:8080', ['process', 'process-management']],
      ]);
    } finally {
      await server.close();
      await new Promise<void>((resolve) => {
        registryServer.close(() => resolve());
        registryServer.closeAllConnections();
      });
    }
  }, 60_000);
});
