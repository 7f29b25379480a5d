import { CoreErrorCodes, type Database } from '@fw/core';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '@fw/test-support';
import request from 'supertest';
import { createAdminServer, seedDefinitions, WORD_COUNT_DEFINITIONS, type AdminServer } from '../src';
import { API, KEY, testConfig } from './support';

/** The 503 envelope of `/health-check` when the process database is down. */
const DATABASE_DOWN = {
  success: false,
  code: 503,
  severity: 'ERROR',
  subErrorCode: CoreErrorCodes.unavailable,
  description: 'Unhealthy: process-database',
  payload: null,
  // the reason (a connection error names hosts and users) is logged, not answered
  errors: [{ code: '503', subErrorCode: CoreErrorCodes.unavailable, severity: 'ERROR', description: 'Unhealthy: process-database', params: ['process-database'] }],
};

describeEachDatabase('admin server /info, /service-info and /health-check', (getDb) => {
  let server: AdminServer;

  beforeAll(async () => {
    await seedDefinitions(getDb().database, WORD_COUNT_DEFINITIONS);
    server = await createAdminServer({ config: testConfig(getDb()), database: getDb().database, ownerId: 'info-owner' });
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
      payload: { name: 'admin-server', version: '0.1.0', description: expect.any(String), details: { profile: 'production' }, services: ['process', 'process-management'] },
    });
    const services = await request(server.app).get('/service-info');
    expect(services.status).toBe(200);
    expect(services.body.payload.map((s: { name: string }) => s.name)).toEqual(['process', 'process-management']);
    const processService = await request(server.app).get('/service-info/process');
    expect(processService.body.payload).toMatchObject({ name: 'process', details: { definitionSource: 'database', exampleWorkers: false } });
    expect((await request(server.app).get('/service-info/nope')).body).toMatchObject({ success: false, code: 404, subErrorCode: CoreErrorCodes.notFound });
  });

  it('reports the process database healthy after a real query, with or without a key', async () => {
    const healthy = { success: true, code: 200, payload: { healthy: true, checks: [{ name: 'process-database', healthy: true }] } };
    const health = await request(server.app).get('/health-check');
    expect(health.status).toBe(200);
    expect(health.body).toEqual(healthy);
    expect((await request(server.app).get('/health-check').set('X-Process-Management-Key', 'wrong')).body).toEqual(healthy);
    const one = await request(server.app).get('/health-check/process-database');
    expect(one.status).toBe(200);
    expect(one.body.payload).toEqual(healthy.payload);
  });

  it('still guards everything else with the key', async () => {
    expect((await request(server.app).get('/process/00000000-0000-4000-8000-000000000000')).status).toBe(401);
    expect((await request(server.app).get(`${API}/info`).set('x-fw-tenant-id', 'demo')).status).toBe(401);
    expect((await request(server.app).get('/info/anything')).status).toBe(401);
    expect((await request(server.app).get(`${API}/info`).set({ 'X-Process-Management-Key': KEY, 'x-fw-tenant-id': 'demo' })).status).toBe(200);
  });

  it('answers 503 with the error envelope when the process database is gone', async () => {
    // A server on a database of its own, which the test then closes (and, on PostgreSQL, drops).
    const doomed: TestDatabase = await createTestDatabase(getDb().target);
    const orphaned = await createAdminServer({ config: testConfig(doomed), database: doomed.database, ownerId: 'info-doomed' });
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
    const stalling: Database = { ...real, withSession: (fn) => (answering ? real.withSession(fn) : new Promise(() => undefined)) };
    const stalled = await createAdminServer({ config: testConfig(getDb()), database: stalling, ownerId: 'info-stalled' });
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
