/**
 * The OpenAPI 3.1 document of a host's HTTP operations (`GET /openapi.json`), generated from the
 * registered services: one path item per bound operation, its input as the request body (or as
 * query parameters for GET and DELETE), path parameters from `{name}` segments, and its output
 * inside the framework envelope — or, for an operation that describes its own exchange
 * (`openapi`: typically one the host serves itself), exactly that, with the components its
 * service brings. The host's read-only endpoints (`/info`, `/service-info`, `/health-check`,
 * `/openapi.json`) are described too (info-paths.ts).
 */
import { ERROR_ENVELOPE_SCHEMA, successEnvelopeSchema } from '@fw/core';
import type { JsonSchema, OpenApiComponents, OperationDefinition, ServiceDefinition } from '../definition/service-definition';
import type { ServiceRegistry } from '../registry/service-registry';
import { INFO_RESPONSES, INFO_SCHEMAS, infoPaths } from './info-paths';

type OpenApiObject = Record<string, unknown>;

const ERROR_ENVELOPE = { $ref: '#/components/schemas/ErrorEnvelope' };

export function hasBody(method: string): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH';
}

/** `{id}` segments of a path. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}

function queryParameters(input: JsonSchema | undefined, pathParams: readonly string[]): OpenApiObject[] {
  const properties = (input?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((input?.required as string[] | undefined) ?? []);
  return Object.entries(properties)
    .filter(([name]) => !pathParams.includes(name))
    .map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema }));
}

/** What a registry-bound operation answers, derived from its input and output schemas. */
function derivedExchange(op: OperationDefinition): OpenApiObject {
  const method = op.method as string;
  const params = pathParameters(op.path as string);
  const inputProps = (op.input?.properties ?? {}) as Record<string, JsonSchema>;
  const parameters = [
    ...params.map((name) => ({ name, in: 'path', required: true, schema: inputProps[name] ?? { type: 'string' } })),
    ...(hasBody(method) ? [] : queryParameters(op.input, params)),
  ];
  const error = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_ENVELOPE } } });
  return {
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(hasBody(method) ? { requestBody: { required: true, content: { 'application/json': { schema: op.input ?? {} } } } } : {}),
    responses: {
      '200': { description: 'the output in the framework envelope', content: { 'application/json': { schema: successEnvelopeSchema(op.output ?? {}) } } },
      '400': error('the input breaks the schema (SVC400, the field named)'),
      '401': error('refused by a security interceptor'),
      '500': error('unexpected error (details logged, not answered)'),
    },
  };
}

function operationObject(service: ServiceDefinition, op: OperationDefinition): OpenApiObject {
  const own = op.openapi;
  const exchange = own === undefined ? derivedExchange(op) : { ...(own.parameters ? { parameters: own.parameters } : {}), ...(own.requestBody ? { requestBody: own.requestBody } : {}), responses: own.responses, ...(own.security ? { security: own.security } : {}) };
  return { operationId: `${service.name}.${op.name}`, tags: [service.name], summary: op.description || op.name, ...exchange };
}

type ComponentKind = keyof OpenApiComponents;

/** Adds `from` to `into`; the same name twice must mean the same thing. */
function mergeComponents(into: Record<ComponentKind, Record<string, unknown>>, from: OpenApiComponents | undefined, owner: string): void {
  for (const kind of ['schemas', 'responses', 'parameters', 'securitySchemes'] as const) {
    for (const [name, value] of Object.entries(from?.[kind] ?? {})) {
      const existing = into[kind][name];
      if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(value)) throw new Error(`${owner}: components.${kind}.${name} is already defined differently in the OpenAPI document`);
      into[kind][name] = value;
    }
  }
}

/** Builds the document for every HTTP-bound operation of the registry's services and the host's info endpoints. */
export function buildOpenApiDocument(registry: ServiceRegistry): OpenApiObject {
  const paths: Record<string, Record<string, unknown>> = infoPaths();
  const components: Record<ComponentKind, Record<string, unknown>> = {
    schemas: { ...INFO_SCHEMAS, ErrorEnvelope: ERROR_ENVELOPE_SCHEMA },
    responses: { ...INFO_RESPONSES },
    parameters: {},
    securitySchemes: { InfoKey: { type: 'apiKey', in: 'header', name: 'X-Fw-Info-Key', description: 'Only when the host sets an info access key' } },
  };
  for (const service of registry.list()) {
    mergeComponents(components, service.openApiComponents, `service '${service.name}'`);
    for (const op of service.operations) {
      if (op.method === undefined || op.path === undefined) continue;
      const item = (paths[op.path] ??= {});
      item[op.method.toLowerCase()] = operationObject(service, op);
      if (op.openapi?.methodNotAllowed !== undefined) item['x-fw-method-not-allowed'] = op.openapi.methodNotAllowed;
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: registry.host.name, version: registry.host.version, ...(registry.host.description ? { description: registry.host.description } : {}) },
    tags: [{ name: 'host', description: 'The read-only endpoints of the host' }, ...registry.list().map((s) => ({ name: s.name, description: s.description || `${s.kind} service ${s.name} ${s.version}` }))],
    paths,
    components,
  };
}
