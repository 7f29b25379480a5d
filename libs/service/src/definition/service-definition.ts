/**
 * A service as data: a name, a version, a kind, operations with JSON Schemas for
 * their input and output, the names of the interceptors it runs through and whether it has a
 * health check. The handlers and the interceptor objects travel with the definition, but only the
 * data is ever shown (`/service-info/{svc}`, the OpenAPI document, the admin UI).
 *
 * @example
 * const greeter = defineService({
 *   name: 'greeter', version: '1.0.0', description: 'Says hello',
 *   operations: [{
 *     name: 'greet', method: 'POST', path: '/greeter',
 *     input: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
 *     output: { type: 'object', properties: { text: { type: 'string' } } },
 *     handler: async (input: { name: string }) => ({ text: `hello ${input.name}` }),
 *   }],
 * });
 */
import { ConfigError } from '@fw/core';
import type { Interceptor } from '../interceptors/interceptor';
import type { CallContext } from './call-context';

export type ServiceKind = 'http' | 'headless' | 'workflow' | 'query' | 'process';
export const SERVICE_KINDS: readonly ServiceKind[] = ['http', 'headless', 'workflow', 'query', 'process'];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A JSON Schema (draft 2020-12 as ajv reads it). */
export type JsonSchema = Record<string, unknown>;

export type OperationHandler<I = unknown, O = unknown> = (input: I, ctx: CallContext) => O | Promise<O>;

export interface OperationDefinition<I = unknown, O = unknown> {
  /** Unique in its service; letters, digits, `-`, `_`, `.`. */
  name: string;
  description?: string;
  /** HTTP binding; without it the operation is invoked in-process only. `{id}` marks a path parameter. */
  method?: HttpMethod;
  path?: string;
  /** JSON Schema of the input; a call whose input breaks it is refused (400, naming the field). */
  input?: JsonSchema;
  /** JSON Schema of the output; see the registry's `outputValidation`. */
  output?: JsonSchema;
  /** Interceptors of this operation, after the service's. */
  interceptors?: readonly Interceptor[];
  /**
   * A read-only operation that describes the service itself (a workflow's flows, diagrams, test
   * cases): the HTTP binding serves it with the info endpoints (`serve.info`, behind
   * `X-Fw-Info-Key` when set) rather than with the operations, so a host that guards its
   * operations with a key still lets the admin UI read it. Only for GET operations that carry no
   * tenant data and no secrets.
   */
  introspection?: boolean;
  /**
   * The HTTP exchange as OpenAPI 3.1 objects, when it is more than `input` in and the enveloped
   * `output` out (typically an operation the host serves itself): shown in `/openapi.json` in
   * place of what the document would derive from `input` and `output`.
   */
  openapi?: OperationOpenApi;
  /**
   * The work. Required when the registry binds the service; a service whose HTTP routes the host
   * serves itself (`httpBinding: 'host'`) may leave it out: `invoke` then answers 501 SVC501.
   */
  handler?: OperationHandler<I, O>;
}

/** An OpenAPI object (Parameter, Request Body, Response, ...), as plain data. */
export type OpenApiObject = Record<string, unknown>;

/**
 * How an operation's HTTP exchange looks in the OpenAPI document; `$ref`s point into the
 * service's `openApiComponents` (`#/components/schemas/X`).
 */
export interface OperationOpenApi {
  parameters?: readonly OpenApiObject[];
  requestBody?: OpenApiObject;
  /** Every status the operation answers, with its body. */
  responses: Record<string, OpenApiObject>;
  security?: ReadonlyArray<Record<string, readonly string[]>>;
  /** The answer to a method the operation's path does not take (405 with Allow), shown as the path's `x-fw-method-not-allowed`. */
  methodNotAllowed?: OpenApiObject;
}

/** Components a service's `openapi` objects refer to, merged into the host's document. */
export interface OpenApiComponents {
  schemas?: Record<string, JsonSchema>;
  responses?: Record<string, OpenApiObject>;
  parameters?: Record<string, OpenApiObject>;
  securitySchemes?: Record<string, OpenApiObject>;
}

/** A health check of a service: resolves healthy or not; a throw counts as unhealthy. */
export type ServiceHealthCheck = () => Promise<{
  healthy: boolean;
  checks?: ReadonlyArray<{ name: string; healthy: boolean; message?: string }>;
}>;

export interface ServiceDefinitionInit {
  name: string;
  version: string;
  description?: string;
  /** Default `http` when an operation has an HTTP binding, else `headless`. */
  kind?: ServiceKind;
  operations: ReadonlyArray<OperationDefinition<never, unknown>>;
  /** Interceptors of every operation, run first, in order. */
  interceptors?: readonly Interceptor[];
  healthCheck?: ServiceHealthCheck;
  /**
   * Who serves the operations' HTTP routes: `registry` (default: `makeServiceRouter` binds them)
   * or `host` (the host's own routers do; the registry still describes them in `/service-info`
   * and `/openapi.json`).
   */
  httpBinding?: 'registry' | 'host';
  /** Facts shown in `/service-info/{svc}` (modes, counts), read on each request. */
  details?: () => Record<string, unknown>;
  /** What the operations' `openapi` objects refer to, merged into the host's `/openapi.json`. */
  openApiComponents?: OpenApiComponents;
}

export interface ServiceDefinition extends Required<
  Pick<ServiceDefinitionInit, 'name' | 'version' | 'kind' | 'httpBinding'>
> {
  readonly description: string;
  readonly openApiComponents: OpenApiComponents | undefined;
  readonly operations: ReadonlyArray<OperationDefinition>;
  readonly interceptors: readonly Interceptor[];
  readonly healthCheck: ServiceHealthCheck | undefined;
  readonly details: (() => Record<string, unknown>) | undefined;
}

/** The data of a service, as `/service-info/{svc}` answers it. */
export interface ServiceDescription {
  name: string;
  version: string;
  description: string;
  kind: ServiceKind;
  operations: Array<{
    name: string;
    description: string;
    method?: HttpMethod;
    path?: string;
    input?: JsonSchema;
    output?: JsonSchema;
    interceptors: string[];
  }>;
  interceptors: string[];
  healthCheck: boolean;
  details?: Record<string, unknown>;
}

const NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,127}$/;

function checkOperation(
  op: OperationDefinition<never, unknown>,
  where: string,
  seen: Set<string>,
  handlerRequired: boolean,
): void {
  if (typeof op.name !== 'string' || !NAME.test(op.name))
    throw new ConfigError(
      `${where}: 'name' must start with a letter and use letters, digits, '_', '.', '-' (got ${JSON.stringify(op.name)})`,
    );
  if (seen.has(op.name)) throw new ConfigError(`${where}: operation '${op.name}' is defined twice`);
  seen.add(op.name);
  if (op.handler !== undefined ? typeof op.handler !== 'function' : handlerRequired)
    throw new ConfigError(`${where} (${op.name}): 'handler' must be a function`);
  if ((op.method === undefined) !== (op.path === undefined))
    throw new ConfigError(`${where} (${op.name}): give both 'method' and 'path', or neither`);
  if (op.method !== undefined && !METHODS.includes(op.method))
    throw new ConfigError(`${where} (${op.name}): 'method' must be one of ${METHODS.join(', ')}`);
  if (op.path !== undefined && !/^\/[A-Za-z0-9_.~{}/-]*$/.test(op.path))
    throw new ConfigError(
      `${where} (${op.name}): 'path' must start with '/' and use letters, digits, '_', '.', '~', '-', '/' and {param} (got '${op.path}')`,
    );
  for (const key of ['input', 'output'] as const) {
    const schema = op[key];
    if (schema !== undefined && (typeof schema !== 'object' || schema === null || Array.isArray(schema)))
      throw new ConfigError(`${where} (${op.name}): '${key}' must be a JSON Schema object`);
  }
}

/**
 * Checks and freezes a service definition.
 * @throws ConfigError naming the service, the operation and the field.
 */
export function defineService(init: ServiceDefinitionInit): ServiceDefinition {
  const where = `service '${String(init.name)}'`;
  if (typeof init.name !== 'string' || !NAME.test(init.name))
    throw new ConfigError(`${where}: 'name' must start with a letter and use letters, digits, '_', '.', '-'`);
  if (typeof init.version !== 'string' || init.version.trim() === '')
    throw new ConfigError(`${where}: 'version' must be a non-empty string`);
  if (init.kind !== undefined && !SERVICE_KINDS.includes(init.kind))
    throw new ConfigError(`${where}: 'kind' must be one of ${SERVICE_KINDS.join(', ')}`);
  if (!Array.isArray(init.operations)) throw new ConfigError(`${where}: 'operations' must be an array`);
  const seen = new Set<string>();
  if (init.httpBinding !== undefined && init.httpBinding !== 'registry' && init.httpBinding !== 'host')
    throw new ConfigError(`${where}: 'httpBinding' must be 'registry' or 'host'`);
  const httpBinding = init.httpBinding ?? 'registry';
  init.operations.forEach((op, i) => checkOperation(op, `${where} operations[${i}]`, seen, httpBinding === 'registry'));
  const routes = new Set<string>();
  for (const op of init.operations) {
    if (op.method === undefined || op.path === undefined) continue;
    const route = `${op.method} ${op.path.replace(/\{[^}]+\}/g, '{}')}`;
    if (routes.has(route)) throw new ConfigError(`${where}: two operations answer ${op.method} ${op.path}`);
    routes.add(route);
  }
  const http = init.operations.some((op) => op.method !== undefined);
  return Object.freeze({
    name: init.name,
    version: init.version,
    description: init.description ?? '',
    kind: init.kind ?? (http ? 'http' : 'headless'),
    operations: Object.freeze([...init.operations]) as ReadonlyArray<OperationDefinition>,
    interceptors: Object.freeze([...(init.interceptors ?? [])]),
    healthCheck: init.healthCheck,
    httpBinding,
    details: init.details,
    openApiComponents: init.openApiComponents,
  });
}

/** The data of a service (no handlers), as shown to clients. */
export function describeService(service: ServiceDefinition): ServiceDescription {
  return {
    name: service.name,
    version: service.version,
    description: service.description,
    kind: service.kind,
    operations: service.operations.map((op) => ({
      name: op.name,
      description: op.description ?? '',
      ...(op.method ? { method: op.method, path: op.path } : {}),
      ...(op.input ? { input: op.input } : {}),
      ...(op.output ? { output: op.output } : {}),
      interceptors: (op.interceptors ?? []).map((i) => i.name),
    })),
    interceptors: service.interceptors.map((i) => i.name),
    healthCheck: service.healthCheck !== undefined,
    ...(service.details ? { details: service.details() } : {}),
  };
}
