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
import type {
  JsonSchema,
  OpenApiComponents,
  OperationDefinition,
  ServiceDefinition,
} from '../definition/service-definition';
import type { ServiceRegistry } from '../registry/service-registry';
import { INFO_RESPONSES, INFO_SCHEMAS, INFO_SECURITY, infoPaths } from './info-paths';

type OpenApiObject = Record<string, unknown>;
type SecurityRequirements = ReadonlyArray<Record<string, readonly string[]>>;

/** What the host adds to its document besides the registry's services. */
export interface OpenApiDocumentOptions {
  /**
   * The guard the host puts in front of the operations the registry binds (a key header, say), as
   * security schemes by name: those operations then require them (one of them). Without it they are
   * shown open, unless their service or the operation has interceptors (a security interceptor
   * may refuse a call): their security is then left unstated.
   */
  operationsGuard?: Record<string, OpenApiObject>;
}

/**
 * Where the operations are: the host that served the document (a relative URL), so a client
 * generated from it works against whatever address the host was reached at.
 */
export const SAME_HOST_SERVERS: ReadonlyArray<OpenApiObject> = [
  { url: '/', description: 'The host that serves this document' },
];

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
    ...(hasBody(method)
      ? { requestBody: { required: true, content: { 'application/json': { schema: op.input ?? {} } } } }
      : {}),
    responses: {
      '200': {
        description: 'the output in the framework envelope',
        content: { 'application/json': { schema: successEnvelopeSchema(op.output ?? {}) } },
      },
      '400': error('the input breaks the schema (SVC400, the field named)'),
      '401': error('refused by a security interceptor'),
      '500': error('unexpected error (details logged, not answered)'),
    },
  };
}

/** Who may call a registry-bound operation, as far as the document can tell (undefined: not stated). */
function derivedSecurity(
  service: ServiceDefinition,
  op: OperationDefinition,
  options: OpenApiDocumentOptions,
): SecurityRequirements | undefined {
  // Introspection operations are served with the info endpoints, in front of any operations guard.
  if (op.introspection === true) return INFO_SECURITY;
  if (options.operationsGuard !== undefined)
    return Object.keys(options.operationsGuard).map((scheme) => ({ [scheme]: [] }));
  const intercepted = service.interceptors.length > 0 || (op.interceptors?.length ?? 0) > 0;
  return intercepted ? undefined : [];
}

function operationObject(
  service: ServiceDefinition,
  op: OperationDefinition,
  options: OpenApiDocumentOptions,
): OpenApiObject {
  const own = op.openapi;
  const exchange =
    own === undefined
      ? derivedExchange(op)
      : {
          ...(own.parameters ? { parameters: own.parameters } : {}),
          ...(own.requestBody ? { requestBody: own.requestBody } : {}),
          responses: own.responses,
        };
  const security = own?.security ?? derivedSecurity(service, op, options);
  return {
    operationId: `${service.name}.${op.name}`,
    tags: [service.name],
    summary: op.description || op.name,
    ...exchange,
    ...(security === undefined ? {} : { security }),
  };
}

type ComponentKind = keyof OpenApiComponents;

/** Adds `from` to `into`; the same name twice must mean the same thing. */
function mergeComponents(
  into: Record<ComponentKind, Record<string, unknown>>,
  from: OpenApiComponents | undefined,
  owner: string,
): void {
  for (const kind of ['schemas', 'responses', 'parameters', 'securitySchemes'] as const) {
    for (const [name, value] of Object.entries(from?.[kind] ?? {})) {
      const existing = into[kind][name];
      if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(value))
        throw new Error(`${owner}: components.${kind}.${name} is already defined differently in the OpenAPI document`);
      into[kind][name] = value;
    }
  }
}

/** Builds the document for every HTTP-bound operation of the registry's services and the host's info endpoints. */
export function buildOpenApiDocument(registry: ServiceRegistry, options: OpenApiDocumentOptions = {}): OpenApiObject {
  const paths: Record<string, Record<string, unknown>> = infoPaths();
  const components: Record<ComponentKind, Record<string, unknown>> = {
    schemas: { ...INFO_SCHEMAS, ErrorEnvelope: ERROR_ENVELOPE_SCHEMA },
    responses: { ...INFO_RESPONSES },
    parameters: {},
    securitySchemes: {
      InfoKey: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Fw-Info-Key',
        description: 'Only when the host sets an info access key',
      },
    },
  };
  mergeComponents(components, { securitySchemes: options.operationsGuard }, 'the operations guard');
  for (const service of registry.list()) {
    mergeComponents(components, service.openApiComponents, `service '${service.name}'`);
    for (const op of service.operations) {
      if (op.method === undefined || op.path === undefined) continue;
      const item = (paths[op.path] ??= {});
      item[op.method.toLowerCase()] = operationObject(service, op, options);
      if (op.openapi?.methodNotAllowed !== undefined) item['x-fw-method-not-allowed'] = op.openapi.methodNotAllowed;
    }
  }
  const { name, version, description, license } = registry.host;
  return {
    openapi: '3.1.0',
    info: {
      title: name,
      version,
      ...(description ? { description } : {}),
      ...(license === undefined ? {} : { license }),
    },
    servers: SAME_HOST_SERVERS,
    tags: [
      { name: 'host', description: 'The read-only endpoints of the host' },
      ...registry
        .list()
        .map((s) => ({ name: s.name, description: s.description || `${s.kind} service ${s.name} ${s.version}` })),
    ],
    paths,
    components,
  };
}
