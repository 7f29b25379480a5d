/**
 * The OpenAPI 3 description of the administration API, written by hand as a typed object and
 * served at `GET /process-management/api/openapi.json` (key required, no tenant needed).
 *
 * @example
 * const doc = buildOpenApiDocument('/process-management/api');
 * Object.keys(doc.paths); // ['/process-management/api/info', ...]
 */

/** The subset of OpenAPI 3.0 used here. */
export interface OpenApiSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'boolean' | 'number';
  format?: string;
  enum?: readonly string[];
  properties?: Record<string, OpenApiSchema>;
  required?: readonly string[];
  items?: OpenApiSchema;
  additionalProperties?: boolean | OpenApiSchema;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
  description?: string;
  $ref?: string;
}

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description?: string;
  schema: OpenApiSchema;
}

/** A parameter, or a reference to one in `components.parameters`. */
export type OpenApiParameterOrRef = OpenApiParameter | { $ref: string };

export interface OpenApiResponse {
  description: string;
  content?: { 'application/json': { schema: OpenApiSchema } };
}

export interface OpenApiOperation {
  summary: string;
  operationId: string;
  tags: string[];
  parameters?: OpenApiParameterOrRef[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: OpenApiSchema } } };
  responses: Record<string, OpenApiResponse>;
  security?: Array<Record<string, string[]>>;
}

export type OpenApiPathItem = Partial<Record<'get' | 'post' | 'put', OpenApiOperation>>;

export interface OpenApiDocument {
  openapi: '3.0.3';
  info: { title: string; version: string; description: string };
  paths: Record<string, OpenApiPathItem>;
  components: {
    schemas: Record<string, OpenApiSchema>;
    securitySchemes: Record<string, { type: 'apiKey'; in: 'header'; name: string }>;
    parameters: Record<string, OpenApiParameter>;
  };
  security: Array<Record<string, string[]>>;
}

const ref = (name: string): OpenApiSchema => ({ $ref: `#/components/schemas/${name}` });
const str: OpenApiSchema = { type: 'string' };
const nullableStr: OpenApiSchema = { type: 'string', nullable: true };
const int: OpenApiSchema = { type: 'integer' };
const bool: OpenApiSchema = { type: 'boolean' };
const time: OpenApiSchema = { type: 'string', format: 'date-time' };
const anyValue: OpenApiSchema = { description: 'any JSON value', nullable: true };
const json = (schema: OpenApiSchema) => ({ 'application/json': { schema } }) as const;
const ok = (description: string, schema: OpenApiSchema): OpenApiResponse => ({ description, content: json(schema) });
const error = (description: string): OpenApiResponse => ({ description, content: json(ref('Error')) });
const pageOf = (item: string): OpenApiSchema => ({
  type: 'object',
  required: ['content', 'totalElements', 'page', 'size', 'totalPages'],
  properties: { content: { type: 'array', items: ref(item) }, totalElements: int, page: int, size: int, totalPages: int },
});
const query = (name: string, description: string, schema: OpenApiSchema = str): OpenApiParameter => ({ name, in: 'query', required: false, description, schema });
const path = (name: string, description: string): OpenApiParameter => ({ name, in: 'path', required: true, description, schema: str });
const tenant: OpenApiParameterOrRef = { $ref: '#/components/parameters/Tenant' };
const paging: OpenApiParameterOrRef[] = [{ $ref: '#/components/parameters/Page' }, { $ref: '#/components/parameters/Size' }];
const common: Record<string, OpenApiResponse> = {
  '400': error('Bad request: tenant header, parameters or body'),
  '401': error('Missing or wrong X-Process-Management-Key'),
};
const body = (schema: OpenApiSchema) => ({ required: true, content: json(schema) });

function op(tag: string, operationId: string, summary: string, responses: Record<string, OpenApiResponse>, extra: Partial<OpenApiOperation> = {}): OpenApiOperation {
  return { summary, operationId, tags: [tag], ...extra, parameters: [tenant, ...(extra.parameters ?? [])], responses: { ...responses, ...common } };
}

const SCHEMAS: Record<string, OpenApiSchema> = {
  Error: { type: 'object', required: ['message'], properties: { message: str } },
  Info: {
    type: 'object',
    required: ['definitionSource', 'definitionsWritable', 'cronAvailable', 'supportedEvents'],
    properties: { definitionSource: { type: 'string', enum: ['json', 'database'] }, definitionsWritable: bool, cronAvailable: bool, supportedEvents: { type: 'array', items: { type: 'string', enum: ['ProcessCreate'] } } },
  },
  TriggerPayload: {
    type: 'object',
    required: ['processDefName'],
    properties: { processDefName: str, args: { type: 'object', additionalProperties: true } },
  },
  TriggerRequest: {
    type: 'object',
    required: ['payload'],
    properties: { triggerId: { type: 'string', maxLength: 80, description: 'Optional retry key; stored as manual:<tenant>:<key>' }, payload: ref('TriggerPayload') },
  },
  TriggerResult: {
    type: 'object',
    required: ['triggerId', 'eventId', 'logId', 'dispatched', 'duplicate'],
    properties: { triggerId: str, eventId: str, logId: str, dispatched: bool, duplicate: bool },
  },
  Execution: {
    type: 'object',
    description: 'An accepted dispatch (fw_trigger_execution)',
    additionalProperties: true,
    properties: {
      id: str,
      triggerId: str,
      source: { type: 'string', enum: ['CRON', 'MANUAL', 'EXTERNAL'] },
      status: { type: 'string', enum: ['RUNNING', 'COMPLETED', 'FAILED'] },
      crontabId: nullableStr,
      eventName: str,
      payload: ref('TriggerPayload'),
      scheduledTime: { ...time, nullable: true },
      receivedTime: time,
      startTime: { ...time, nullable: true },
      finishTime: { ...time, nullable: true },
      failure: nullableStr,
    },
  },
  CrontabInput: {
    type: 'object',
    required: ['name', 'cronExpression', 'payload'],
    properties: {
      name: str,
      cronExpression: { type: 'string', description: 'Six fields, seconds first (croner)' },
      timezone: { type: 'string', default: 'UTC', description: 'IANA time zone' },
      enabled: { type: 'boolean', default: true },
      payload: ref('TriggerPayload'),
    },
  },
  CrontabUpdate: {
    type: 'object',
    description: 'Any subset of the crontab fields',
    properties: { name: str, cronExpression: str, timezone: str, enabled: bool, payload: ref('TriggerPayload') },
  },
  Crontab: {
    type: 'object',
    additionalProperties: true,
    properties: { id: str, tenant: str, name: str, cronExpression: str, timezone: str, enabled: bool, payload: ref('TriggerPayload') },
  },
  ProcessDef: {
    type: 'object',
    required: ['processType', 'leaf'],
    properties: {
      processType: str,
      leaf: bool,
      parentProcessType: nullableStr,
      predecessorProcessType: nullableStr,
      predecessorArgs: { type: 'string', enum: ['INPUT', 'OUTPUT', 'BOTH'], default: 'BOTH' },
      config: { type: 'object', additionalProperties: { type: 'string' } },
    },
  },
  ProcessSummary: {
    type: 'object',
    properties: {
      id: { type: 'string', format: 'uuid' },
      processType: str,
      leaf: bool,
      status: str,
      parentId: nullableStr,
      predecessorId: nullableStr,
      triggerId: nullableStr,
      tenant: nullableStr,
      completedPercent: int,
      numSubProcesses: int,
      numCompletedSubProcesses: int,
      description: nullableStr,
      createdTime: time,
      lastModifiedTime: time,
      stateEntryTime: time,
    },
  },
  ProcessError: {
    type: 'object',
    properties: { processId: str, timeOfCompletion: time, errors: { type: 'array', items: str }, exceptionMessage: nullableStr, stackTrace: nullableStr },
  },
  CompletionEvent: {
    type: 'object',
    properties: { id: str, processId: str, processType: str, state: str, successful: bool, triggerId: nullableStr, generatedTime: time, payload: anyValue },
  },
  ProcessDetail: {
    type: 'object',
    description: 'The Process (DECISIONS 5) plus status and completion events',
    additionalProperties: true,
    properties: {
      id: str,
      processType: str,
      status: str,
      state: { type: 'object', properties: { flowId: str, stateId: str } },
      input: anyValue,
      output: anyValue,
      errors: { type: 'array', items: ref('ProcessError') },
      completionEvents: { type: 'array', items: ref('CompletionEvent') },
    },
  },
  TraceNode: {
    type: 'object',
    required: ['id', 'kind', 'label', 'status', 'time', 'data'],
    properties: { id: str, kind: { type: 'string', enum: ['TRIGGER', 'PROCESS', 'COMPLETION'] }, label: str, status: nullableStr, time: { ...time, nullable: true }, data: { type: 'object', additionalProperties: true } },
  },
  TraceEdge: {
    type: 'object',
    required: ['source', 'target', 'kind'],
    properties: { source: str, target: str, kind: { type: 'string', enum: ['PROCESS_CREATE', 'SUBPROCESS', 'EMITS', 'SUCCESSOR', 'LEGACY_SUCCESSOR'] } },
  },
  Trace: { type: 'object', required: ['nodes', 'edges'], properties: { nodes: { type: 'array', items: ref('TraceNode') }, edges: { type: 'array', items: ref('TraceEdge') } } },
  Refresh: { type: 'object', properties: { refreshed: bool, definitions: int } },
};

/** Builds the document for the API mounted at `basePath`. */
export function buildOpenApiDocument(basePath = '/process-management/api'): OpenApiDocument {
  const p = (suffix: string) => `${basePath}${suffix}`;
  const notFound = error('Not found in this tenant');
  const unavailable = error('Not configured on this host (trigger service, crontab store or scheduler)');
  return {
    openapi: '3.0.3',
    info: {
      title: 'fw process management API',
      version: '0.1.0',
      description: 'Administration of the process orchestrator: definitions, crontabs, manual triggers, trigger history, processes and traces. Plain DTOs; errors are { message }.',
    },
    security: [{ ManagementKey: [] }],
    components: {
      schemas: SCHEMAS,
      securitySchemes: { ManagementKey: { type: 'apiKey', in: 'header', name: 'X-Process-Management-Key' } },
      parameters: {
        Tenant: { name: 'x-fw-tenant-id', in: 'header', required: true, description: 'Tenant view, [A-Za-z0-9_.-]{1,128}', schema: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,128}$' } },
        Page: { name: 'page', in: 'query', required: false, description: '0-based page', schema: { type: 'integer', minimum: 0, default: 0 } },
        Size: { name: 'size', in: 'query', required: false, description: 'Rows per page', schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
      },
    },
    paths: {
      [p('/openapi.json')]: {
        get: { summary: 'This document', operationId: 'openApi', tags: ['meta'], responses: { '200': ok('OpenAPI 3 document', { type: 'object' }), '401': error('Missing or wrong key') } },
      },
      [p('/info')]: { get: op('meta', 'info', 'Definition source, write capability, cron availability, supported events', { '200': ok('Info', ref('Info')) }) },
      [p('/crontabs')]: {
        get: op('cron', 'listCrontabs', 'List ProcessCreate schedules of the tenant', { '200': ok('Page of crontabs', pageOf('Crontab')), '503': unavailable }, { parameters: paging }),
        post: op('cron', 'addCrontab', 'Add a schedule (the scheduler reloads)', { '201': ok('Created', ref('Crontab')), '409': error('Duplicate name'), '503': unavailable }, { requestBody: body(ref('CrontabInput')) }),
      },
      [p('/crontabs/{id}')]: {
        get: op('cron', 'getCrontab', 'One schedule', { '200': ok('Crontab', ref('Crontab')), '404': notFound, '503': unavailable }, { parameters: [path('id', 'Crontab id')] }),
        put: op('cron', 'updateCrontab', 'Edit, enable or disable a schedule (the scheduler reloads)', { '200': ok('Updated', ref('Crontab')), '404': notFound, '409': error('Duplicate name'), '503': unavailable }, {
          parameters: [path('id', 'Crontab id')],
          requestBody: body(ref('CrontabUpdate')),
        }),
      },
      [p('/triggers')]: {
        post: op('triggers', 'trigger', 'Generate ProcessCreate through the trigger ingress (source MANUAL)', { '200': ok('Dispatch result', ref('TriggerResult')), '503': unavailable }, { requestBody: body(ref('TriggerRequest')) }),
      },
      [p('/executions')]: {
        get: op('triggers', 'listExecutions', 'Trigger history, newest first', { '200': ok('Page of executions', pageOf('Execution')), '503': unavailable }, {
          parameters: [query('triggerId', 'Stored trigger id'), query('crontabId', 'Crontab id'), query('status', 'Execution status', { type: 'string', enum: ['RUNNING', 'COMPLETED', 'FAILED'] }), ...paging],
        }),
      },
      [p('/definitions')]: {
        get: op('definitions', 'listDefinitions', 'Definitions (global), by processType', { '200': ok('Page of definitions', pageOf('ProcessDef')) }, { parameters: paging }),
        post: op('definitions', 'addDefinition', 'Add a definition (database source)', { '201': ok('Created', ref('ProcessDef')), '409': error('JSON source, or duplicate processType') }, { requestBody: body(ref('ProcessDef')) }),
      },
      [p('/definitions/{name}')]: {
        get: op('definitions', 'getDefinition', 'One definition', { '200': ok('Definition', ref('ProcessDef')), '404': notFound }, { parameters: [path('name', 'processType')] }),
        put: op('definitions', 'updateDefinition', 'Edit a definition (database source); this instance\'s cache is invalidated', { '200': ok('Saved', ref('ProcessDef')), '404': notFound, '409': error('JSON source') }, {
          parameters: [path('name', 'processType')],
          requestBody: body(ref('ProcessDef')),
        }),
      },
      [p('/definitions/refresh')]: {
        post: op('definitions', 'refreshDefinitions', "Clear this instance's definition cache", { '200': ok('Refreshed', ref('Refresh')) }),
      },
      [p('/processes')]: {
        get: op('processes', 'listProcesses', 'Processes of the tenant, newest first; exact filters ANDed', { '200': ok('Page of processes', pageOf('ProcessSummary')) }, {
          parameters: [
            query('processType', 'Definition name'),
            query('status', 'State id (EXECUTING, SPLIT_PENDING, SUB_PROCESSES_PENDING, AGGREGATION_PENDING, PROCESSED, PROCESSED_WITH_ERRORS)'),
            query('triggerId', 'Stored trigger id'),
            query('parentId', 'Parent process id', { type: 'string', format: 'uuid' }),
            query('predecessorId', 'Predecessor process id', { type: 'string', format: 'uuid' }),
            ...paging,
          ],
        }),
      },
      [p('/processes/{id}')]: {
        get: op('processes', 'getProcess', 'Input, output, errors, status and completion events of one process', { '200': ok('Process', ref('ProcessDetail')), '404': notFound }, { parameters: [path('id', 'Process id (UUID)')] }),
      },
      [p('/trace')]: {
        get: op('processes', 'trace', 'Connected execution graph; exactly one of processId and triggerId', { '200': ok('Graph', ref('Trace')), '404': notFound, '413': error('More than 1,000 processes or events') }, {
          parameters: [query('processId', 'Process id (UUID)', { type: 'string', format: 'uuid' }), query('triggerId', 'Stored trigger id')],
        }),
      },
    },
  };
}
