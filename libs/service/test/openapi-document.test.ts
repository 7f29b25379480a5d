import { ERROR_ENVELOPE_SCHEMA } from '@fw/core';
import { buildOpenApiDocument, defineService, makeServiceRegistry, makeServiceRouter } from '@fw/service';
import Ajv2020 from 'ajv/dist/2020';
import express from 'express';
import request from 'supertest';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>; components: { schemas: Record<string, object> } };

/** Validates `body` against the documented answer of `path`'s GET for `status`. */
function checker(doc: Doc): (path: string, status: number, body: unknown) => string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
  ajv.addSchema({ $id: 'urn:test:doc', components: doc.components });
  return (path, status, body) => {
    const schema = doc.paths[path]?.get?.responses[String(status)]?.content?.['application/json']?.schema;
    if (schema === undefined) return [`no schema for GET ${path} ${status}`];
    const anchored = JSON.parse(JSON.stringify(schema).replace(/"#\/components/g, '"urn:test:doc#/components')) as object;
    const validate = ajv.compile(anchored);
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
  };
}

const pinged = defineService({
  name: 'pinged',
  version: '1',
  kind: 'process',
  httpBinding: 'host',
  healthCheck: async () => ({ healthy: true, checks: [{ name: 'pinged', healthy: true }] }),
  openApiComponents: { schemas: { Pong: { type: 'object', properties: { pong: { type: 'boolean' } }, required: ['pong'], additionalProperties: false }, ErrorEnvelope: ERROR_ENVELOPE_SCHEMA } },
  operations: [
    {
      name: 'ping',
      method: 'GET',
      path: '/ping',
      openapi: { responses: { '200': { description: 'pong', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pong' } } } } }, methodNotAllowed: { $ref: '#/components/responses/EnvelopeMethodNotAllowed' } },
    },
  ],
});

describe('the OpenAPI document of a host', () => {
  const registry = makeServiceRegistry({ host: { name: 'h', version: '1' }, services: [pinged] });
  const app = express().use(makeServiceRouter(registry));

  it("shows an operation's own exchange and its service's components, and the host's info endpoints with strict schemas the answers follow", async () => {
    const doc = (await request(app).get('/openapi.json')).body as Doc;
    expect(doc.paths['/ping']).toEqual({ get: { operationId: 'pinged.ping', tags: ['pinged'], summary: 'ping', responses: { '200': { description: 'pong', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pong' } } } } } }, 'x-fw-method-not-allowed': { $ref: '#/components/responses/EnvelopeMethodNotAllowed' } });
    expect(doc.components.schemas.Pong).toBeDefined();
    const problems = checker(doc);
    for (const [path, status] of [['/info', 200], ['/service-info', 200], ['/service-info/pinged', 200], ['/service-info/nope', 404], ['/health-check', 200], ['/health-check/pinged', 200], ['/health-check/nope', 404], ['/openapi.json', 200]] as const) {
      const res = await request(app).get(path);
      expect({ path, status: res.status }).toEqual({ path, status });
      const template = path.replace(/^\/(service-info|health-check)\/.+$/, '/$1/{svc}');
      expect({ path, problems: problems(template, status, res.body) }).toEqual({ path, problems: [] });
    }
    // Strict: a field more, or one missing, breaks them.
    const info = (await request(app).get('/info')).body as { payload: Record<string, unknown> };
    expect(problems('/info', 200, { ...info, payload: { ...info.payload, secret: 'x' } })).not.toEqual([]);
    expect(problems('/info', 200, { ...info, payload: { ...info.payload, services: undefined } })).not.toEqual([]);
  });

  it('refuses two services that define one component differently', () => {
    const other = defineService({ name: 'other', version: '1', httpBinding: 'host', openApiComponents: { schemas: { Pong: { type: 'string' } } }, operations: [] });
    expect(() => buildOpenApiDocument(makeServiceRegistry({ host: { name: 'h', version: '1' }, services: [pinged, other] }))).toThrow("service 'other': components.schemas.Pong is already defined differently in the OpenAPI document");
  });

  it('answers other methods on the info endpoints with a 405 envelope and Allow', async () => {
    for (const path of ['/info', '/service-info/pinged', '/health-check', '/openapi.json']) {
      const res = await request(app).post(path).send({});
      expect({ path, status: res.status, allow: res.headers.allow, code: res.body.subErrorCode }).toEqual({ path, status: 405, allow: 'GET, HEAD', code: 'FW405' });
    }
    expect((await request(app).head('/info')).status).toBe(200);
  });
});
