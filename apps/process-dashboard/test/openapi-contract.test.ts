/**
 * The dashboard's one API client against the server's OpenAPI document
 * (`/process-management/api/openapi.json`): every path, method and query parameter the client uses
 * exists there; the server-side helper finds the build.
 */
import { buildOpenApiDocument, makeProcessManagementRouter } from '@fw/process-management';
import express from 'express';
import request from 'supertest';
import { API_BASE, ENDPOINTS } from '../web/src/api/client';
import { PROCESS_MANAGEMENT_API_PATH, processDashboardAssetsDir, processDashboardBuilt } from '../src';

interface Parameter {
  name?: string;
  in?: string;
  $ref?: string;
}
interface Doc {
  paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
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
