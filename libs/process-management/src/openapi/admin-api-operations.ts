/**
 * Every operation of the administration API as data: method, path, parameters, body schema and
 * the answers it can give. The router binds its handlers by `operationId` and checks requests
 * with the schemas named here; the OpenAPI document and the 405 answers are built from the same
 * table, so a route cannot exist without its description.
 *
 * @example
 * const op = operationById('addCrontab');  // { method: 'post', path: '/crontabs', body: 'CrontabInput', ... }
 */
import { AUDIT_QUERY_PARAMETERS } from '../audit/audit-schemas';
import { QUERY_PARAMETERS, type QueryParameter } from './admin-api-request-schemas';

export type ApiMethod = 'get' | 'post' | 'put' | 'delete';

/** One answer: its description and the component schema of its body (none for 204). */
export interface ApiResponse {
  description: string;
  schema?: string;
}

export interface AdminApiOperation {
  operationId: string;
  method: ApiMethod;
  /** Relative to the mount path, with `{name}` parameters (OpenAPI notation). */
  path: string;
  tag: string;
  summary: string;
  /** Whether `x-fw-tenant-id` is required (all but `/openapi.json`). */
  tenant: boolean;
  pathParameters?: ReadonlyArray<{ name: string; description: string }>;
  query?: readonly QueryParameter[];
  /** Component schema of the JSON body, when the operation reads one. */
  body?: string;
  /** The answers particular to this operation; the document adds 400, 401, 413, 415, 431 and 500. */
  responses: Record<string, ApiResponse>;
}

const Q = QUERY_PARAMETERS;
const paging = [Q.page, Q.size];
const notFound: ApiResponse = { description: 'Not found in this tenant', schema: 'Error' };
const unavailable: ApiResponse = {
  description: 'Not configured on this host (trigger service, crontab store or cron scheduler)',
  schema: 'Error',
};
const crontabId = [{ name: 'id', description: 'Crontab id (another tenant’s or a malformed id answers 404)' }];
const definitionName = [{ name: 'name', description: 'processType of the definition' }];

export const ADMIN_API_OPERATIONS: readonly AdminApiOperation[] = [
  {
    operationId: 'openApi',
    method: 'get',
    path: '/openapi.json',
    tag: 'meta',
    summary: 'This document (the key is needed, the tenant is not)',
    tenant: false,
    responses: { '200': { description: 'OpenAPI 3.1 document', schema: 'OpenApiDocument' } },
  },
  {
    operationId: 'info',
    method: 'get',
    path: '/info',
    tag: 'meta',
    summary: 'Definition source, write capability, cron availability, supported events',
    tenant: true,
    responses: { '200': { description: 'Info', schema: 'Info' } },
  },
  {
    operationId: 'listCrontabs',
    method: 'get',
    path: '/crontabs',
    tag: 'cron',
    summary: 'ProcessCreate schedules of the tenant, newest first',
    tenant: true,
    query: paging,
    responses: { '200': { description: 'Page of crontabs', schema: 'CrontabPage' }, '503': unavailable },
  },
  {
    operationId: 'addCrontab',
    method: 'post',
    path: '/crontabs',
    tag: 'cron',
    summary: 'Add a schedule (the scheduler reloads); the definition must exist and take the args',
    tenant: true,
    body: 'CrontabInput',
    responses: {
      '201': { description: 'Created', schema: 'Crontab' },
      '409': { description: 'The tenant has a crontab of that name', schema: 'Error' },
      '503': unavailable,
    },
  },
  {
    operationId: 'getCrontab',
    method: 'get',
    path: '/crontabs/{id}',
    tag: 'cron',
    summary: 'One schedule',
    tenant: true,
    pathParameters: crontabId,
    responses: { '200': { description: 'Crontab', schema: 'Crontab' }, '404': notFound, '503': unavailable },
  },
  {
    operationId: 'updateCrontab',
    method: 'put',
    path: '/crontabs/{id}',
    tag: 'cron',
    summary: 'Edit, enable or disable a schedule (the scheduler reloads)',
    tenant: true,
    pathParameters: crontabId,
    body: 'CrontabUpdate',
    responses: {
      '200': { description: 'Updated', schema: 'Crontab' },
      '404': notFound,
      '409': { description: 'The tenant has another crontab of that name', schema: 'Error' },
      '503': unavailable,
    },
  },
  {
    operationId: 'deleteCrontab',
    method: 'delete',
    path: '/crontabs/{id}',
    tag: 'cron',
    summary: 'Delete a schedule (the scheduler reloads)',
    tenant: true,
    pathParameters: crontabId,
    responses: { '204': { description: 'Deleted' }, '404': notFound, '503': unavailable },
  },
  {
    operationId: 'trigger',
    method: 'post',
    path: '/triggers',
    tag: 'triggers',
    summary: 'ProcessCreate through the trigger ingress (source MANUAL), idempotent on the key',
    tenant: true,
    body: 'TriggerRequest',
    responses: { '200': { description: 'Dispatch result', schema: 'TriggerResult' }, '503': unavailable },
  },
  {
    operationId: 'listExecutions',
    method: 'get',
    path: '/executions',
    tag: 'triggers',
    summary: 'Trigger history of the tenant, newest first; exact filters ANDed',
    tenant: true,
    query: [Q.triggerId, Q.crontabId, Q.executionStatus, Q.executionSource, Q.startedType, ...paging],
    responses: { '200': { description: 'Page of executions', schema: 'ExecutionPage' }, '503': unavailable },
  },
  {
    operationId: 'listDefinitions',
    method: 'get',
    path: '/definitions',
    tag: 'definitions',
    summary: 'Definitions (global), by processType',
    tenant: true,
    query: paging,
    responses: { '200': { description: 'Page of definitions', schema: 'DefinitionPage' } },
  },
  {
    operationId: 'addDefinition',
    method: 'post',
    path: '/definitions',
    tag: 'definitions',
    summary: 'Add a definition (database source); 400 also for a predecessor cycle',
    tenant: true,
    body: 'DefinitionInput',
    responses: {
      '201': { description: 'Created', schema: 'ProcessDef' },
      '409': { description: 'JSON source, or a definition of that processType exists', schema: 'Error' },
    },
  },
  {
    operationId: 'getDefinition',
    method: 'get',
    path: '/definitions/{name}',
    tag: 'definitions',
    summary: 'One definition',
    tenant: true,
    pathParameters: definitionName,
    responses: {
      '200': { description: 'Definition', schema: 'ProcessDef' },
      '404': { description: 'No such definition', schema: 'Error' },
    },
  },
  {
    operationId: 'updateDefinition',
    method: 'put',
    path: '/definitions/{name}',
    tag: 'definitions',
    summary:
      "Replace a definition (database source); this instance's cache is invalidated; 400 for a name mismatch or cycle",
    tenant: true,
    pathParameters: definitionName,
    body: 'DefinitionUpdate',
    responses: {
      '200': { description: 'Saved', schema: 'ProcessDef' },
      '404': { description: 'No such definition', schema: 'Error' },
      '409': { description: 'JSON source', schema: 'Error' },
    },
  },
  {
    operationId: 'deleteDefinition',
    method: 'delete',
    path: '/definitions/{name}',
    tag: 'definitions',
    summary: 'Delete a definition nothing uses any more (database source)',
    tenant: true,
    pathParameters: definitionName,
    responses: {
      '204': { description: 'Deleted' },
      '404': { description: 'No such definition', schema: 'Error' },
      '409': {
        description:
          'Still used by crontabs, other definitions (parent or predecessor) or unfinished processes; or the JSON source',
        schema: 'Error',
      },
    },
  },
  {
    operationId: 'refreshDefinitions',
    method: 'post',
    path: '/definitions/refresh',
    tag: 'definitions',
    summary: "Clear this instance's definition cache",
    tenant: true,
    responses: { '200': { description: 'Refreshed', schema: 'Refresh' } },
  },
  {
    operationId: 'listProcesses',
    method: 'get',
    path: '/processes',
    tag: 'processes',
    summary: 'Processes of the tenant, newest first; exact filters ANDed',
    tenant: true,
    query: [Q.processType, Q.processStatus, Q.triggerId, Q.parentId, Q.predecessorId, Q.roots, Q.freeText, ...paging],
    responses: { '200': { description: 'Page of processes', schema: 'ProcessPage' } },
  },
  {
    operationId: 'getProcess',
    method: 'get',
    path: '/processes/{id}',
    tag: 'processes',
    summary: 'Input, output, errors, status and completion events of one process',
    tenant: true,
    pathParameters: [{ name: 'id', description: 'Process id (another tenant’s or a malformed id answers 404)' }],
    responses: { '200': { description: 'Process', schema: 'ProcessDetail' }, '404': notFound },
  },
  {
    operationId: 'deleteProcess',
    method: 'delete',
    path: '/processes/{id}',
    tag: 'processes',
    summary:
      'Remove a finished root process with its whole tree: children at every level, their completion events, child reports, errors, work items and the trigger records of the run, all at once',
    tenant: true,
    pathParameters: [
      { name: 'id', description: 'Id of a ROOT process (another tenant’s or a malformed id answers 404)' },
    ],
    responses: {
      '204': { description: 'Removed with its whole tree' },
      '400': {
        description: 'The id names a child process (only a root is removed, with its tree), or a bad header',
        schema: 'Error',
      },
      '404': notFound,
      '409': {
        description: 'The tree is still running (a process not finished, a work item or a command still to run)',
        schema: 'Error',
      },
    },
  },
  {
    operationId: 'trace',
    method: 'get',
    path: '/trace',
    tag: 'processes',
    summary: 'Connected execution graph; exactly one of processId and triggerId (else 400)',
    tenant: true,
    query: [Q.processId, Q.triggerId],
    responses: {
      '200': { description: 'Graph', schema: 'Trace' },
      '404': notFound,
      '413': { description: 'More than 1,000 processes or events (or a body over the limit)', schema: 'Error' },
    },
  },
  {
    operationId: 'health',
    method: 'get',
    path: '/health',
    tag: 'processes',
    summary:
      'Throughput, backlog and wait per process type of the tenant over the last hour (from the process and work-item tables; cached a few seconds)',
    tenant: true,
    responses: { '200': { description: 'Health', schema: 'Health' } },
  },
  {
    operationId: 'whoami',
    method: 'get',
    path: '/me',
    tag: 'access',
    summary:
      'The caller as the server sees it: actor, credential kind, role, tenants and the operations the role allows (any role; no tenant needed)',
    tenant: false,
    responses: { '200': { description: 'The caller', schema: 'Caller' } },
  },
  {
    operationId: 'listAudit',
    method: 'get',
    path: '/audit',
    tag: 'access',
    summary:
      'Audit trail of the tenant (changes made through this API, done, refused or failed), newest first; admin role',
    tenant: true,
    query: AUDIT_QUERY_PARAMETERS,
    responses: { '200': { description: 'Page of audit entries', schema: 'AuditPage' } },
  },
];

/** The operation of that id (a programming error when there is none). */
export function operationById(operationId: string): AdminApiOperation {
  const found = ADMIN_API_OPERATIONS.find((op) => op.operationId === operationId);
  if (!found) throw new Error(`No administration API operation '${operationId}'`);
  return found;
}
