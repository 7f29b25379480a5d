/**
 * The `/process` endpoints as OpenAPI 3.1 operation objects, built from the schemas the router
 * checks requests with (process-api-schemas.ts): a host's document (for example the admin
 * server's `/openapi.json`) shows them as they are, with every status the router answers. A host
 * that puts a guard in front adds that guard's answers (the admin server: 401).
 *
 * @example
 * PROCESS_API_OPERATIONS.find((op) => op.path === '/process/{id}/{eventID}')?.openapi.responses; // 200, 400, 404, 409, 413, 415, 422, 500
 */
import { EVENT_PAYLOAD_SCHEMAS } from './process-api-schemas';

type OpenApiObject = Record<string, unknown>;

export interface ProcessApiOperation {
  /** Operation name (unique among these). */
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** OpenAPI path template. */
  path: string;
  description: string;
  /** Component schema the router checks the JSON body with; `event` picks it by the path's eventID. */
  body?: string | 'event';
  /** The parameters, request body and answers as OpenAPI objects. */
  openapi: { parameters?: OpenApiObject[]; requestBody?: OpenApiObject; responses: Record<string, OpenApiObject> };
}

const ref = (name: string): OpenApiObject => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: OpenApiObject): OpenApiObject => ({ 'application/json': { schema } });
const envelope = (description: string, schema: string): OpenApiObject => ({ description, content: json(ref(schema)) });
const failure = (description: string): OpenApiObject => envelope(description, 'ErrorEnvelope');
const body = (schema: OpenApiObject): OpenApiObject => ({ required: true, content: json(schema) });
const pathId = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'Process id (a malformed id, or one of another tenant, answers 404)',
  schema: { type: 'string' },
};
const tenant = {
  name: 'x-fw-tenant-id',
  in: 'header',
  required: false,
  description: 'Stored on a created process; elsewhere a process of another tenant answers 404',
  schema: { type: 'string' },
};

/** Answers every route can give: the input policy, body parsing and unexpected errors. */
const COMMON: Record<string, OpenApiObject> = {
  '400': failure(
    'A control character (FW400C) or nesting deeper than 64 levels (FW400D) in the request, malformed JSON (FW400), a body against its schema (P001, P003, naming the field), an unknown type (P002), a child-only type as a root (P009), or a value the database cannot store (FW400V)',
  ),
  '413': failure('The body is over the limit (5 MB by default)'),
  '415': failure('A body that is not application/json'),
  '500': failure('Unexpected error: a generic message, the details in the log only'),
};

const answers = (own: Record<string, OpenApiObject>): Record<string, OpenApiObject> => {
  const all = { ...COMMON, ...own };
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)));
};

export const PROCESS_API_OPERATIONS: readonly ProcessApiOperation[] = [
  {
    name: 'create',
    method: 'POST',
    path: '/process',
    description: 'ProcessCreate: starts a root process',
    body: 'ProcessCreateRequest',
    openapi: {
      parameters: [
        tenant,
        {
          name: 'x-fw-trigger-id',
          in: 'header',
          required: false,
          description: 'Trigger correlation when the body has none',
          schema: { type: 'string' },
        },
      ],
      requestBody: body(ref('ProcessCreateRequest')),
      responses: answers({ '200': envelope('The created process and its allowed actions', 'ProcessResponseEnvelope') }),
    },
  },
  {
    name: 'get',
    method: 'GET',
    path: '/process/{id}',
    description: 'A process with its allowed actions',
    openapi: {
      parameters: [pathId, tenant],
      responses: answers({
        '200': envelope('The process and its allowed actions', 'ProcessResponseEnvelope'),
        '404': failure('No such process in this tenant (P004)'),
      }),
    },
  },
  {
    name: 'event',
    method: 'PATCH',
    path: '/process/{id}/{eventID}',
    description: 'Sends a state-machine event; the body is its payload',
    body: 'event',
    openapi: {
      parameters: [
        pathId,
        {
          name: 'eventID',
          in: 'path',
          required: true,
          description: `The event: ${Object.keys(EVENT_PAYLOAD_SCHEMAS).join(', ')}`,
          schema: { type: 'string' },
        },
        tenant,
      ],
      requestBody: body({
        description: 'The payload of the event named in the path',
        anyOf: [...new Set(Object.values(EVENT_PAYLOAD_SCHEMAS))].map(ref),
      }),
      responses: answers({
        '200': envelope('The process after the event and its allowed actions', 'ProcessResponseEnvelope'),
        '404': failure('No such process in this tenant (P004)'),
        '409': failure('A childId of another parent (P006) or a concurrent change (P011)'),
        '422': failure('An event not allowed in the current state (P010) or an unknown event (P005)'),
      }),
    },
  },
  {
    name: 'children',
    method: 'GET',
    path: '/processChildren/{id}',
    description: 'The process and its children (recursive=true: every descendant, breadth-first)',
    openapi: {
      parameters: [
        pathId,
        {
          name: 'recursive',
          in: 'query',
          required: false,
          description: 'true: every descendant',
          schema: { type: 'string' },
        },
        tenant,
      ],
      responses: answers({
        '200': envelope('[process, ...children]', 'ProcessListEnvelope'),
        '404': failure('No such process in this tenant (P004)'),
      }),
    },
  },
  {
    name: 'completed',
    method: 'POST',
    path: '/process/completed',
    description: 'ProcessCompleted ingress: starts the successors of the completed type',
    body: 'ProcessCompletedRequest',
    openapi: {
      parameters: [tenant],
      requestBody: body(ref('ProcessCompletedRequest')),
      responses: answers({ '200': envelope('The successors created now', 'ProcessListEnvelope') }),
    },
  },
];
