/**
 * The dashboard's one API client against the server's OpenAPI document
 * (`/process-management/api/openapi.json`): every path, method and query parameter the client uses
 * exists there, and the body of every GET it makes, answered by a real administration API over a
 * test database, is valid against that operation's response schema in the served document (ajv,
 * draft 2020-12 as OpenAPI 3.1 says). The dashboard's types are read from those same schemas, so
 * a body that passes here is what its types say. Also: the server-side helper finds the build.
 */
import { buildOpenApiDocument, makeProcessManagementRouter } from '@fw/process-management';
import { harnessHeaders, makeAdminHarness } from '@fw/process-management/testing';
import { processDb, type ProcessManager } from '@fw/process-service';
import { createTestDatabase, type TestDatabase } from '@fw/test-support';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import express, { type Express } from 'express';
import request from 'supertest';
import { API_BASE, ENDPOINTS } from '../web/src/api/client';
import { PROCESS_MANAGEMENT_API_PATH, processDashboardAssetsDir, processDashboardBuilt } from '../src';

interface Parameter {
  name?: string;
  in?: string;
  $ref?: string;
}
interface Operation {
  parameters?: Parameter[];
  responses?: Record<string, { content?: { 'application/json'?: { schema?: { $ref?: string } } } }>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components?: { parameters?: Record<string, Parameter> };
}

const KEY = 'd'.repeat(40);

async function servedDocument(): Promise<Doc> {
  const app = express();
  const configurator = { findByName: async () => undefined, findSuccessors: async () => [], list: async () => [] };
  app.use(
    makeProcessManagementRouter({
      database: { db: undefined as never },
      apiKey: KEY,
      definitions: { source: 'json', configurator },
    }),
  );
  const res = await request(app).get(`${API_BASE}/openapi.json`).set('X-Process-Management-Key', KEY);
  expect(res.status).toBe(200);
  return res.body as Doc;
}

function queryNames(doc: Doc, params: Parameter[] = []): string[] {
  return params
    .map((p) => (p.$ref ? doc.components?.parameters?.[p.$ref.split('/').pop() ?? ''] : p))
    .filter((p): p is Parameter => p !== undefined && p.in === 'query')
    .map((p) => p.name ?? '');
}

describe('API client against the OpenAPI document', () => {
  let doc: Doc;
  beforeAll(async () => {
    doc = await servedDocument();
  });

  it('is the document buildOpenApiDocument() makes', () => {
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it.each(Object.entries(ENDPOINTS))('%s: path, method and query parameters exist', (_name, endpoint) => {
    const item = doc.paths[`${API_BASE}${endpoint.path}`];
    expect(item).toBeDefined();
    const operation = item[endpoint.method.toLowerCase()];
    expect(operation).toBeDefined();
    const documented = queryNames(doc, operation.parameters);
    const used: readonly string[] = 'query' in endpoint ? endpoint.query : [];
    expect(used.filter((q) => !documented.includes(q))).toEqual([]);
  });

  it('uses only the administration API', () => {
    expect(API_BASE).toBe(PROCESS_MANAGEMENT_API_PATH);
  });
});

describe('processDashboardAssetsDir', () => {
  it('points at dist/web of the package, built or not', () => {
    expect(processDashboardAssetsDir()).toMatch(/apps[/\\]process-dashboard[/\\]dist[/\\]web$/);
    expect(typeof processDashboardBuilt()).toBe('boolean');
    expect(processDashboardBuilt('/nonexistent')).toBe(false);
  });
});

const TENANT = 'acme';

describe('answer bodies of the GETs the client makes', () => {
  let testDb: TestDatabase;
  let app: Express;
  let doc: Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  /** Path parameters and queries filled from the data made in beforeAll. */
  const calls: Record<string, { params?: Record<string, string>; query?: Record<string, string> }> = {};
  const headers = harnessHeaders(TENANT);

  beforeAll(async () => {
    testDb = await createTestDatabase('pglite');
    let manager: ProcessManager;
    // Every port real: processes, triggers and crontabs over the test database.
    ({ app, manager } = makeAdminHarness(testDb, { source: 'json' }));
    doc = (await request(app).get(`${API_BASE}/openapi.json`).set(headers)).body as Doc;
    ajv.addSchema(doc as object, 'openapi.json');
    const crontab = await request(app)
      .post(`${API_BASE}/crontabs`)
      .set(headers)
      .send({ name: 'nightly', cronExpression: '0 0 2 * * *', payload: { processDefName: 'wordcount' } });
    expect(crontab.status).toBe(201);
    const triggered = await request(app)
      .post(`${API_BASE}/triggers`)
      .set(headers)
      .send({ triggerId: 'contract-1', payload: { processDefName: 'wordcount', args: { text: 'a b' } } });
    expect(triggered.status).toBe(200);
    const rootId = (await processDb(testDb.database).selectFrom('fw_process').select('id').executeTakeFirstOrThrow())
      .id;
    // A child and an error make the detail and the trace carry more than a bare root.
    await manager.sendEvent(
      rootId,
      'splitDone',
      { subProcesses: [{ processType: 'chunk', args: {} }] },
      { tenant: TENANT },
    );
    Object.assign(calls, {
      getProcess: { params: { id: rootId } },
      trace: { query: { processId: rootId } },
      getCrontab: { params: { id: (crontab.body as { id: string }).id } },
      getDefinition: { params: { name: 'wordcount' } },
    });
    // A fresh PGlite database with every migration: slow on a loaded machine.
  }, 180_000);
  afterAll(() => testDb?.dispose());

  const gets = Object.entries(ENDPOINTS).filter(([, endpoint]) => endpoint.method === 'GET');

  it('cover every GET of the client', () => {
    expect(gets.map(([name]) => name).sort()).toEqual(
      [
        'getCrontab',
        'getDefinition',
        'getProcess',
        'health',
        'info',
        'listAudit',
        'listCrontabs',
        'listDefinitions',
        'listExecutions',
        'listProcesses',
        'me',
        'trace',
      ].sort(),
    );
  });

  it.each(gets)('%s: the 200 body is valid against its response schema', async (name, endpoint) => {
    const call = calls[name] ?? {};
    const path = endpoint.path.replace(/\{(\w+)\}/g, (_m, param: string) =>
      encodeURIComponent(call.params?.[param] ?? ''),
    );
    const res = await request(app)
      .get(`${API_BASE}${path}`)
      .query(call.query ?? {})
      .set(headers);
    expect(res.status).toBe(200);
    const ref =
      doc.paths[`${API_BASE}${endpoint.path}`].get.responses?.['200']?.content?.['application/json']?.schema?.$ref;
    expect(ref).toMatch(/^#\/components\/schemas\//);
    const validate = ajv.compile({ $ref: `openapi.json${ref}` });
    const valid = validate(res.body);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    // Lists answer something to check, not an empty page.
    if (Array.isArray((res.body as { content?: unknown }).content))
      expect((res.body as { content: unknown[] }).content.length).toBeGreaterThan(0);
  });
});
