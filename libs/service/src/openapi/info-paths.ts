/**
 * The read-only endpoints every host serves with `makeServiceRouter` — `/info`,
 * `/service-info[/{svc}]`, `/health-check[/{svc}]`, `/openapi.json` — as OpenAPI 3.1 path items
 * with strict answer schemas (the framework envelope around exactly what the registry writes).
 * The router answers other methods on these paths with 405 (INFO_PATHS).
 */
import { ERROR_ENVELOPE_SCHEMA, successEnvelopeSchema } from '@fw/core';
import { SERVICE_KINDS } from '../definition/service-definition';

type OpenApiObject = Record<string, unknown>;

const ref = (name: string): OpenApiObject => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: OpenApiObject): OpenApiObject => ({ 'application/json': { schema } });
const text: OpenApiObject = { type: 'string' };
const closed = (
  properties: Record<string, OpenApiObject>,
  required: string[] = Object.keys(properties),
): OpenApiObject => ({ type: 'object', properties, required, additionalProperties: false });
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** A JSON Schema, shown as any object (generators read a bare `type: object` as one with no properties). */
const jsonSchema: OpenApiObject = { type: 'object', additionalProperties: true, description: 'A JSON Schema' };

/** The info endpoints' paths and methods (for 405 answers). */
export const INFO_PATHS: ReadonlyArray<{ method: string; path: string }> = [
  '/info',
  '/service-info',
  '/service-info/{svc}',
  '/health-check',
  '/health-check/{svc}',
  '/openapi.json',
].map((path) => ({ method: 'GET', path }));

export const INFO_SCHEMAS: Record<string, OpenApiObject> = {
  ErrorEnvelope: ERROR_ENVELOPE_SCHEMA,
  InfoKeyError: {
    ...closed({ message: text }),
    description: 'A missing or wrong X-Fw-Info-Key (hosts that require it)',
  },
  HostInfo: closed({
    name: text,
    version: text,
    description: text,
    services: {
      type: 'array',
      items: closed({
        name: text,
        version: text,
        kind: { type: 'string', enum: [...SERVICE_KINDS] },
        description: text,
        healthCheck: { type: 'boolean' },
      }),
    },
  }),
  ServiceDescription: closed(
    {
      name: text,
      version: text,
      description: text,
      kind: { type: 'string', enum: [...SERVICE_KINDS] },
      operations: {
        type: 'array',
        items: closed(
          {
            name: text,
            description: text,
            method: { type: 'string', enum: METHODS },
            path: text,
            input: jsonSchema,
            output: jsonSchema,
            interceptors: { type: 'array', items: text },
          },
          ['name', 'description', 'interceptors'],
        ),
      },
      interceptors: { type: 'array', items: text },
      healthCheck: { type: 'boolean' },
      details: {
        type: 'object',
        additionalProperties: true,
        description: 'Facts the service states about itself (modes, counts)',
      },
    },
    ['name', 'version', 'description', 'kind', 'operations', 'interceptors', 'healthCheck'],
  ),
  HealthReport: closed({
    healthy: { type: 'boolean' },
    checks: {
      type: 'array',
      items: closed({ name: text, healthy: { type: 'boolean' }, message: text }, ['name', 'healthy']),
    },
  }),
};

export const INFO_RESPONSES: Record<string, OpenApiObject> = {
  InfoKeyRefused: {
    description: 'Missing or wrong X-Fw-Info-Key (only when the host sets an info access key)',
    content: json(ref('InfoKeyError')),
  },
  UnexpectedError: {
    description: 'Unexpected error: a generic message, the details in the log only',
    content: json(ref('ErrorEnvelope')),
  },
};

/**
 * The answer to a method a path does not take, as a path's `x-fw-method-not-allowed`. Written
 * in place rather than as a `components.responses` entry: tools count only references from
 * operations, so a component used by extensions alone reads as unused.
 */
export const ENVELOPE_METHOD_NOT_ALLOWED: OpenApiObject = {
  description: 'A method the path does not take (FW405); Allow names those it does',
  headers: { Allow: { description: 'The methods of the path', required: true, schema: { type: 'string' } } },
  content: json(ref('ErrorEnvelope')),
};

/** Who may call the info endpoints: anyone, or (on a host that sets an info access key) with X-Fw-Info-Key. */
export const INFO_SECURITY: ReadonlyArray<Record<string, string[]>> = [{}, { InfoKey: [] }];

const enveloped = (description: string, payload: OpenApiObject): OpenApiObject => ({
  description,
  content: json(successEnvelopeSchema(payload)),
});
const failure = (description: string): OpenApiObject => ({ description, content: json(ref('ErrorEnvelope')) });
const svc = { name: 'svc', in: 'path', required: true, description: 'Service name', schema: text };

function get(
  operationId: string,
  summary: string,
  responses: Record<string, OpenApiObject>,
  parameters: OpenApiObject[] = [],
): OpenApiObject {
  return {
    'x-fw-method-not-allowed': ENVELOPE_METHOD_NOT_ALLOWED,
    get: {
      operationId,
      tags: ['host'],
      summary,
      ...(parameters.length > 0 ? { parameters } : {}),
      security: INFO_SECURITY,
      responses: {
        ...responses,
        '401': { $ref: '#/components/responses/InfoKeyRefused' },
        '500': { $ref: '#/components/responses/UnexpectedError' },
      },
    },
  };
}

/** The path items of the info endpoints. */
export function infoPaths(): Record<string, OpenApiObject> {
  const health = enveloped('Healthy', ref('HealthReport'));
  const unhealthy = failure('Unhealthy (FW503), naming the failing checks; the reason is logged, not answered');
  return {
    '/info': get('host.info', 'The host and its services', { '200': enveloped('The host', ref('HostInfo')) }),
    '/service-info': get('host.serviceInfoAll', 'Every service with its operations', {
      '200': enveloped('The services', { type: 'array', items: ref('ServiceDescription') }),
    }),
    '/service-info/{svc}': get(
      'host.serviceInfo',
      'One service with its operations and schemas',
      { '200': enveloped('The service', ref('ServiceDescription')), '404': failure('No such service (SVC404)') },
      [svc],
    ),
    '/health-check': get('host.healthAll', 'Every health check of the host', { '200': health, '503': unhealthy }),
    '/health-check/{svc}': get(
      'host.health',
      'The health checks of one service (or one check by name)',
      { '200': health, '404': failure('No such service, or it has no health check'), '503': unhealthy },
      [svc],
    ),
    '/openapi.json': get('host.openApi', 'This document', {
      '200': {
        description: 'OpenAPI 3.1',
        content: json({
          type: 'object',
          required: ['openapi', 'info', 'paths'],
          properties: {
            openapi: { const: '3.1.0' },
            info: { type: 'object', additionalProperties: true },
            paths: { type: 'object', additionalProperties: true },
          },
          additionalProperties: true,
        }),
      },
    }),
  };
}
