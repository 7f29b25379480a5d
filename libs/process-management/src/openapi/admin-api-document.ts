/**
 * The OpenAPI 3.1 document of the administration API, generated from the operation table and the
 * schemas the router validates with (nothing in it is written twice). Served at
 * `GET /process-management/api/openapi.json` (key required, no tenant needed).
 *
 * @example
 * const doc = buildOpenApiDocument('/process-management/api');
 * doc.paths['/process-management/api/crontabs'].post.requestBody; // { $ref: CrontabInput }
 */
import { MANAGEMENT_KEY_HEADER } from '../auth/key-guard';
import { ACCESS_SCHEMAS } from '../audit/audit-schemas';
import { ADMIN_API_OPERATIONS, type AdminApiOperation, type ApiMethod, type ApiResponse } from './admin-api-operations';
import { REQUEST_SCHEMAS, TENANT_HEADER_SCHEMA } from './admin-api-request-schemas';
import { RESPONSE_SCHEMAS } from './admin-api-response-schemas';
import { ref, type JsonSchema } from './json-schema';

// Type aliases, not interfaces: they are plain JSON objects (assignable to Record<string, unknown>).
export type OpenApiMediaContent = {
  'application/json': { schema: JsonSchema };
};

export type OpenApiResponseObject = {
  description: string;
  headers?: Record<string, { description: string; required?: boolean; schema: JsonSchema }>;
  content?: OpenApiMediaContent;
};

export type OpenApiParameter = {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  description: string;
  schema: JsonSchema;
};

export type OpenApiRef = { $ref: string };

export type OpenApiOperationObject = {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: Array<OpenApiParameter | OpenApiRef>;
  requestBody?: { required: boolean; content: OpenApiMediaContent };
  responses: Record<string, OpenApiResponseObject | OpenApiRef>;
};

/**
 * The operations of a path, and (an extension) the answer to any method it does not list: OpenAPI
 * has no place for it. Written in place, not as a `components.responses` entry: tools count only
 * references from operations, so a component used by extensions alone reads as unused.
 */
export type OpenApiPathItem = Partial<Record<ApiMethod, OpenApiOperationObject>> & {
  'x-fw-method-not-allowed'?: OpenApiResponseObject;
};

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: Array<{ url: string; description: string }>;
  security: Array<Record<string, string[]>>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, OpenApiPathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, OpenApiResponseObject>;
    parameters: Record<string, OpenApiParameter>;
    securitySchemes: Record<
      string,
      | { type: 'apiKey'; in: 'header'; name: string }
      | { type: 'http'; scheme: 'bearer'; bearerFormat: string; description: string }
    >;
  };
};

/** Every component schema of the API (requests and answers). */
export const ADMIN_API_SCHEMAS: Record<string, JsonSchema> = {
  ...REQUEST_SCHEMAS,
  ...RESPONSE_SCHEMAS,
  ...ACCESS_SCHEMAS,
};

const json = (schema: JsonSchema): OpenApiMediaContent => ({ 'application/json': { schema } });
const errorResponse = (description: string): OpenApiResponseObject => ({ description, content: json(ref('Error')) });

/** Answers shared by many operations, as `components.responses`. */
const SHARED_RESPONSES: Record<string, OpenApiResponseObject> = {
  BadRequest: errorResponse(
    'Bad request, naming the field: tenant header, query parameter, body against its schema, a control character (U+0000 and other C0 controls), malformed JSON, or a value the database cannot store',
  ),
  Unauthorized: errorResponse(
    'Missing or refused credential: X-Process-Management-Key, or Authorization: Bearer <JWT> (expired, not yet valid, another issuer or audience, bad signature, unknown key)',
  ),
  Forbidden: errorResponse(
    'The credential’s role does not allow this operation, or the tenant is outside its scope (the same answer whether or not that tenant exists)',
  ),
  TooManyRequests: {
    description: 'Too many refused credentials from this address; try again after Retry-After seconds',
    headers: {
      'Retry-After': {
        description: 'Seconds until the address may try again',
        required: true,
        schema: { type: 'integer', minimum: 1 },
      },
    },
    content: json(ref('Error')),
  },
  PayloadTooLarge: errorResponse('The request body is over the limit (1 MB by default)'),
  UnsupportedMediaType: errorResponse('A request body that is not application/json'),
  InternalError: errorResponse('Unexpected error: a generic message, the details in the log only'),
  RequestHeaderFieldsTooLarge: {
    description:
      'The request line and headers are over 16 KB (a path parameter or query that long): answered by the HTTP server itself, without a body',
  },
};

/** Each path's `x-fw-method-not-allowed`. */
const METHOD_NOT_ALLOWED: OpenApiResponseObject = {
  description: 'A method the path does not list; Allow names those it does',
  headers: {
    Allow: {
      description: 'The methods of the path, e.g. "GET, HEAD, POST"',
      required: true,
      schema: { type: 'string' },
    },
  },
  content: json(ref('Error')),
};

/** The license the API is published under (that of this package). */
export const API_LICENSE = { name: 'MIT', identifier: 'MIT' };

const sharedRef = (name: string): OpenApiRef => ({ $ref: `#/components/responses/${name}` });

function responsesOf(op: AdminApiOperation): Record<string, OpenApiResponseObject | OpenApiRef> {
  const own: Record<string, OpenApiResponseObject | OpenApiRef> = {};
  for (const [status, answer] of Object.entries(op.responses)) own[status] = toResponseObject(answer);
  const shared: Record<string, OpenApiRef> = op.tenant
    ? {
        '400': sharedRef('BadRequest'),
        '401': sharedRef('Unauthorized'),
        '403': sharedRef('Forbidden'),
        '413': sharedRef('PayloadTooLarge'),
        '415': sharedRef('UnsupportedMediaType'),
        '429': sharedRef('TooManyRequests'),
        '431': sharedRef('RequestHeaderFieldsTooLarge'),
        '500': sharedRef('InternalError'),
      }
    : {
        '401': sharedRef('Unauthorized'),
        '403': sharedRef('Forbidden'),
        '429': sharedRef('TooManyRequests'),
        '431': sharedRef('RequestHeaderFieldsTooLarge'),
        '500': sharedRef('InternalError'),
      };
  const merged = { ...shared, ...own };
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
}

function toResponseObject(answer: ApiResponse): OpenApiResponseObject {
  return answer.schema === undefined
    ? { description: answer.description }
    : { description: answer.description, content: json(ref(answer.schema)) };
}

function operationObject(op: AdminApiOperation): OpenApiOperationObject {
  const parameters: Array<OpenApiParameter | OpenApiRef> = [
    ...(op.tenant ? [{ $ref: '#/components/parameters/Tenant' }] : []),
    ...(op.pathParameters ?? []).map((p): OpenApiParameter => ({
      name: p.name,
      in: 'path',
      required: true,
      description: p.description,
      schema: { type: 'string' },
    })),
    ...(op.query ?? []).map((q): OpenApiParameter => ({
      name: q.name,
      in: 'query',
      required: false,
      description: q.description,
      schema: q.schema,
    })),
  ];
  return {
    operationId: op.operationId,
    summary: op.summary,
    tags: [op.tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body === undefined ? {} : { requestBody: { required: true, content: json(ref(op.body)) } }),
    responses: responsesOf(op),
  };
}

/** Builds the document for the API mounted at `basePath`. */
export function buildOpenApiDocument(basePath = '/process-management/api'): OpenApiDocument {
  const paths: Record<string, OpenApiPathItem> = {};
  for (const op of ADMIN_API_OPERATIONS) {
    const item = (paths[`${basePath}${op.path}`] ??= { 'x-fw-method-not-allowed': METHOD_NOT_ALLOWED });
    item[op.method] = operationObject(op);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'fw process management API',
      version: '0.1.0',
      description:
        'Administration of the process orchestrator: definitions, crontabs, manual triggers, trigger history, processes and traces. Plain DTOs; errors are { message } (never a stack trace). Requests are checked against the schemas of this document before anything runs; unknown body fields are refused. A method a documented path does not list answers 405 with Allow (x-fw-method-not-allowed of each path).',
      license: API_LICENSE,
    },
    // The paths carry the mount path already: the server is the host that serves the document.
    servers: [{ url: '/', description: 'The host that serves this document' }],
    // Either credential: an administration key, or a bearer token of the identity provider.
    security: [{ ManagementKey: [] }, { BearerToken: [] }],
    tags: [
      { name: 'meta', description: 'This API itself' },
      { name: 'cron', description: 'ProcessCreate schedules of the tenant' },
      { name: 'triggers', description: 'Manual triggers and the trigger history' },
      { name: 'definitions', description: 'Process definitions (global)' },
      { name: 'processes', description: 'Processes of the tenant and their execution graph' },
      { name: 'access', description: 'The caller and the audit trail of changes' },
    ],
    paths,
    components: {
      schemas: ADMIN_API_SCHEMAS,
      responses: SHARED_RESPONSES,
      parameters: {
        Tenant: {
          name: 'x-fw-tenant-id',
          in: 'header',
          required: true,
          description: 'Tenant view, [A-Za-z0-9_.-]{1,128}',
          schema: TENANT_HEADER_SCHEMA,
        },
      },
      securitySchemes: {
        ManagementKey: { type: 'apiKey', in: 'header', name: headerName(MANAGEMENT_KEY_HEADER) },
        BearerToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A token of the configured identity provider; claims fw_roles (viewer, operator, admin) and fw_tenants (tenant ids or *)',
        },
      },
    },
  };
}

/** `x-process-management-key` → `X-Process-Management-Key` (how clients write it). */
function headerName(lowerCase: string): string {
  return lowerCase.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => `${dash}${c.toUpperCase()}`);
}
