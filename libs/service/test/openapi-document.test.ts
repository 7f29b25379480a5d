import { ERROR_ENVELOPE_SCHEMA } from '@fw/core';
import {
  buildOpenApiDocument,
  defineService,
  ENVELOPE_METHOD_NOT_ALLOWED,
  makeServiceRegistry,
  makeServiceRouter,
} from '@fw/service';
import Ajv2020 from 'ajv/dist/2020';
import express from 'express';
import request from 'supertest';

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
  components: {
    schemas: Record<string, object>;
    responses?: Record<string, object>;
    securitySchemes?: Record<string, object>;
  };
  servers?: unknown;
  info: { license?: unknown };
};

/** Validates `body` against the documented answer of `path`'s GET for `status`. */
function checker(doc: Doc): (path: string, status: number, body: unknown) => string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
  ajv.addSchema({ $id: 'urn:test:doc', components: doc.components });
  return (path, status, body) => {
    const schema = doc.paths[path]?.get?.responses[String(status)]?.content?.['application/json']?.schema;
    if (schema === undefined) return [`no schema for GET ${path} ${status}`];
    const anchored = JSON.parse(
      JSON.stringify(schema).replace(/"#\/components/g, '"urn:test:doc#/components'),
    ) as object;
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
  openApiComponents: {
    schemas: {
      Pong: {
        type: 'object',
        properties: { pong: { type: 'boolean' } },
        required: ['pong'],
        additionalProperties: false,
      },
      ErrorEnvelope: ERROR_ENVELOPE_SCHEMA,
    },
  },
  operations: [
    {
      name: 'ping',
      method: 'GET',
      path: '/ping',
      openapi: {
        responses: {
          '200': {
            description: 'pong',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pong' } } },
          },
        },
        methodNotAllowed: ENVELOPE_METHOD_NOT_ALLOWED,
      },
    },
  ],
});

describe('the OpenAPI document of a host', () => {
  const registry = makeServiceRegistry({
    host: { name: 'h', version: '1', license: { name: 'MIT', identifier: 'MIT' } },
    services: [pinged],
  });
  const app = express().use(makeServiceRouter(registry));

  it("shows an operation's own exchange and its service's components, and the host's info endpoints with strict schemas the answers follow", async () => {
    const doc = (await request(app).get('/openapi.json')).body as Doc;
    // No guard and no interceptor: the operation is stated open (an empty security requirement).
    expect(doc.paths['/ping']).toEqual({
      get: {
        operationId: 'pinged.ping',
        tags: ['pinged'],
        summary: 'ping',
        responses: {
          '200': {
            description: 'pong',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pong' } } },
          },
        },
        security: [],
      },
      'x-fw-method-not-allowed': ENVELOPE_METHOD_NOT_ALLOWED,
    });
    expect(doc.components.schemas.Pong).toBeDefined();
    expect(doc.servers).toEqual([{ url: '/', description: 'The host that serves this document' }]);
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    // Every component is referenced from an operation (the 405 answers are written in place).
    const text = JSON.stringify(doc.paths);
    for (const kind of ['schemas', 'responses'] as const)
      for (const name of Object.keys(doc.components[kind] ?? {}))
        expect({
          name,
          used:
            text.includes(`#/components/${kind}/${name}"`) ||
            JSON.stringify(doc.components).includes(`#/components/${kind}/${name}"`),
        }).toEqual({ name, used: true });
    const problems = checker(doc);
    for (const [path, status] of [
      ['/info', 200],
      ['/service-info', 200],
      ['/service-info/pinged', 200],
      ['/service-info/nope', 404],
      ['/health-check', 200],
      ['/health-check/pinged', 200],
      ['/health-check/nope', 404],
      ['/openapi.json', 200],
    ] as const) {
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

  it("shows the host's operations guard as the security of registry-bound operations, and introspection with the info endpoints", () => {
    const guarded = defineService({
      name: 'guarded',
      version: '1',
      operations: [
        { name: 'make', method: 'POST', path: '/things', input: { type: 'object' }, handler: () => ({}) },
        { name: 'shape', method: 'GET', path: '/things/info', introspection: true, handler: () => ({}) },
      ],
    });
    const intercepted = defineService({
      name: 'intercepted',
      version: '1',
      interceptors: [{ name: 'audit', intercept: (_call, next) => next() }],
      operations: [{ name: 'run', method: 'POST', path: '/run', handler: () => ({}) }],
    });
    const guard = { Key: { type: 'apiKey', in: 'header', name: 'X-Key' } };
    const doc = buildOpenApiDocument(
      makeServiceRegistry({ host: { name: 'h', version: '1' }, services: [guarded, intercepted] }),
      { operationsGuard: guard },
    ) as Doc;
    const op = (path: string, method: string) => (doc.paths[path] as Record<string, { security?: unknown }>)[method];
    expect(op('/things', 'post').security).toEqual([{ Key: [] }]);
    expect(op('/things/info', 'get').security).toEqual([{}, { InfoKey: [] }]);
    expect(doc.components.securitySchemes?.Key).toEqual(guard.Key);
    // Without a guard, an intercepted operation's security is left unstated rather than shown open.
    const open = buildOpenApiDocument(
      makeServiceRegistry({ host: { name: 'h', version: '1' }, services: [guarded, intercepted] }),
    ) as Doc;
    expect((open.paths['/things'] as Record<string, { security?: unknown }>).post.security).toEqual([]);
    expect('security' in (open.paths['/run'] as Record<string, object>).post).toBe(false);
    expect(open.info.license).toBeUndefined();
  });

  it('refuses two services that define one component differently', () => {
    const other = defineService({
      name: 'other',
      version: '1',
      httpBinding: 'host',
      openApiComponents: { schemas: { Pong: { type: 'string' } } },
      operations: [],
    });
    expect(() =>
      buildOpenApiDocument(makeServiceRegistry({ host: { name: 'h', version: '1' }, services: [pinged, other] })),
    ).toThrow("service 'other': components.schemas.Pong is already defined differently in the OpenAPI document");
  });

  it('answers other methods on the info endpoints with a 405 envelope and Allow', async () => {
    for (const path of ['/info', '/service-info/pinged', '/health-check', '/openapi.json']) {
      const res = await request(app).post(path).send({});
      expect({ path, status: res.status, allow: res.headers.allow, code: res.body.subErrorCode }).toEqual({
        path,
        status: 405,
        allow: 'GET, HEAD',
        code: 'FW405',
      });
    }
    expect((await request(app).head('/info')).status).toBe(200);
  });
});
