/**
 * The services the admin server composes, registered in its `@fw/service` registry so that
 * `/info`, `/service-info/{svc}`, `/health-check/{svc}` and `/openapi.json` describe them
 * (see libs/service/README.md#service-registry-delegate-and-proxy):
 *
 * - `process` (kind `process`): the `/process` endpoints, served by the router of
 *   `@fw/process-service` behind the key, described by that router's own schemas (plus the key's
 *   401); its health check runs `select 1` on the process database;
 *
 * so the host's `/openapi.json` is built from the schemas the routes validate with.
 * - `process-management` (kind `process`): the administration API, one operation per path of its
 *   own OpenAPI document, each with its exchange as that document shows it;
 * - `support-ticket` (kind `workflow`, dev profile only): the example workflow service of
 *   `@fw/workflow` on the process database, behind the key like every other route.
 */
import type { Database, Logger } from '@fw/core';
import { buildOpenApiDocument as buildManagementDocument } from '@fw/process-management';
import { PROCESS_API_OPERATIONS, PROCESS_API_SCHEMAS, UUID_PATTERN, type ProcessManager } from '@fw/process-service';
import {
  defineService,
  ENVELOPE_METHOD_NOT_ALLOWED,
  type HttpMethod,
  type OpenApiObject,
  type OperationDefinition,
  type OperationOpenApi,
  type ServiceDefinition,
} from '@fw/service';
import {
  defineWorkflowService,
  makeDatabaseWorkflowStore,
  SUPPORT_TICKET_FLOW,
  SUPPORT_TICKET_SCHEMA,
} from '@fw/workflow';
import type { AdminProfile } from '../config/admin-config';

/** The name of the process database's probe. */
export const PROCESS_DATABASE_CHECK = 'process-database';

/**
 * How long the probe waits for the database. A pool that cannot get a connection fails only after
 * its own connect timeout (10 s), longer than a typical orchestrator's probe: answer first.
 */
export const DATABASE_PROBE_TIMEOUT_MILLIS = 3_000;

export interface AdminServicesOptions {
  version: string;
  profile: AdminProfile;
  database: Database;
  manager: ProcessManager;
  exampleWorkers: boolean;
  isSchedulerOwner: () => boolean;
  logger: Logger;
}

/** `select 1` on the process database within the time limit; why it failed is logged, not answered (it names hosts and users). */
async function probeDatabase(database: Database, logger: Logger): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const tooSlow = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${DATABASE_PROBE_TIMEOUT_MILLIS} ms`)),
      DATABASE_PROBE_TIMEOUT_MILLIS,
    );
  });
  try {
    await Promise.race([database.withSession((session) => session.query('select 1 as ok')), tooSlow]);
    return true;
  } catch (err) {
    logger.warn({ err, database: database.displayUrl }, 'health check: the process database does not answer');
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** The input of `create` for in-process calls and `/mcp`: the very schema the `/process` route checks. */
const PROCESS_INPUT = PROCESS_API_SCHEMAS.ProcessCreateRequest;
const ID = { type: 'string', pattern: UUID_PATTERN };

const MANAGEMENT_DOCUMENT = buildManagementDocument();

/** The key every operation of this host sits behind, as the security scheme `/openapi.json` names. */
export const MANAGEMENT_KEY_GUARD: Record<string, OpenApiObject> = {
  ...MANAGEMENT_DOCUMENT.components.securitySchemes,
};

/**
 * The HTTP exchange of a `/process` operation as the process router describes it, plus what this
 * host adds in front of the router: the key (401 envelope, PM401).
 */
function processExchange(name: string): OperationOpenApi {
  const described = PROCESS_API_OPERATIONS.find((op) => op.name === name);
  if (described === undefined) throw new Error(`@fw/process-service describes no operation '${name}'`);
  const envelope = (description: string): OpenApiObject => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  });
  return {
    ...described.openapi,
    responses: {
      ...described.openapi.responses,
      '401': envelope('Missing or refused credential: X-Process-Management-Key or Authorization: Bearer <JWT> (PM401)'),
      // These routes are neither per tenant nor per operation: only a credential that is admin over every tenant passes.
      '403': envelope('The credential is not admin over every tenant (PM403)'),
      '429': envelope(
        'Too many refused credentials from this address; try again after the Retry-After seconds (PM429)',
      ),
    },
    security: MANAGEMENT_DOCUMENT.security,
    methodNotAllowed: ENVELOPE_METHOD_NOT_ALLOWED,
  };
}

function processService(options: AdminServicesOptions): ServiceDefinition {
  const { manager, database, logger } = options;
  return defineService({
    name: 'process',
    version: options.version,
    kind: 'process',
    description: 'Process manager: /process routes (framework envelope, key required)',
    httpBinding: 'host',
    details: () => ({
      profile: options.profile,
      definitionSource: 'database',
      outbox: true,
      workerStarter: 'jdbc-work-items',
      exampleWorkers: options.exampleWorkers,
    }),
    healthCheck: async () => {
      const healthy = await probeDatabase(database, logger);
      return { healthy, checks: [{ name: PROCESS_DATABASE_CHECK, healthy }] };
    },
    openApiComponents: {
      schemas: { ...PROCESS_API_SCHEMAS },
      securitySchemes: MANAGEMENT_DOCUMENT.components.securitySchemes,
    },
    operations: [
      {
        name: 'create',
        description: 'ProcessCreate: starts a root process',
        method: 'POST',
        path: '/process',
        input: PROCESS_INPUT,
        openapi: processExchange('create'),
        handler: (input: object, ctx) => manager.createProcess(input, { tenant: ctx.tenant ?? null }),
      },
      {
        name: 'get',
        description: 'A process with its allowed actions',
        method: 'GET',
        path: '/process/{id}',
        openapi: processExchange('get'),
        input: { type: 'object', required: ['id'], properties: { id: ID } },
        handler: (input: { id: string }, ctx) => manager.getProcess(input.id, { tenant: ctx.tenant ?? null }),
      },
      {
        name: 'event',
        description: 'Sends a state-machine event (the body is its payload)',
        method: 'PATCH',
        path: '/process/{id}/{eventID}',
        openapi: processExchange('event'),
        input: { type: 'object', required: ['id', 'eventID'], properties: { id: ID, eventID: { type: 'string' } } },
        handler: (input: Record<string, unknown> & { id: string; eventID: string }, ctx) => {
          const { id, eventID, ...payload } = input;
          return manager.sendEvent(id, eventID, payload, { tenant: ctx.tenant ?? null });
        },
      },
      {
        name: 'children',
        description: 'The process and its children (recursive=true: every descendant)',
        method: 'GET',
        path: '/processChildren/{id}',
        openapi: processExchange('children'),
        input: { type: 'object', required: ['id'], properties: { id: ID, recursive: { type: 'boolean' } } },
        handler: (input: { id: string; recursive?: boolean }, ctx) =>
          manager.getProcessTree(input.id, { tenant: ctx.tenant ?? null, recursive: input.recursive === true }),
      },
      {
        name: 'completed',
        description: 'ProcessCompleted ingress: starts the successors of the completed type',
        method: 'POST',
        path: '/process/completed',
        openapi: processExchange('completed'),
        handler: (input: unknown) => manager.processCompleted(input),
      },
    ],
  });
}

/**
 * One operation per path and method of the administration API's own OpenAPI document, each with
 * its exchange exactly as that document shows it (its components come along with the service).
 */
function managementOperations(): OperationDefinition[] {
  const operations: OperationDefinition[] = [];
  for (const [path, item] of Object.entries(MANAGEMENT_DOCUMENT.paths)) {
    for (const method of ['get', 'post', 'put', 'delete'] as const) {
      const op = item[method];
      if (op === undefined) continue;
      const openapi: OperationOpenApi = {
        ...(op.parameters ? { parameters: op.parameters } : {}),
        ...(op.requestBody ? { requestBody: op.requestBody } : {}),
        responses: op.responses,
        security: MANAGEMENT_DOCUMENT.security,
        ...(item['x-fw-method-not-allowed'] ? { methodNotAllowed: item['x-fw-method-not-allowed'] } : {}),
      };
      operations.push({
        name: op.operationId,
        description: op.summary,
        method: method.toUpperCase() as HttpMethod,
        path,
        openapi,
      });
    }
  }
  return operations;
}

function managementService(options: AdminServicesOptions): ServiceDefinition {
  return defineService({
    name: 'process-management',
    version: options.version,
    kind: 'process',
    description:
      'Administration API under /process-management/api (key required; full schemas in /process-management/api/openapi.json)',
    httpBinding: 'host',
    details: () => ({ cronAvailable: true, schedulerOwner: options.isSchedulerOwner() }),
    openApiComponents: MANAGEMENT_DOCUMENT.components,
    operations: managementOperations(),
  });
}

/** The services of this admin server, in the order `/info` lists them. */
export function makeAdminServices(options: AdminServicesOptions): ServiceDefinition[] {
  const services = [processService(options), managementService(options)];
  if (options.profile === 'dev') {
    services.push(
      defineWorkflowService({
        name: 'support-ticket',
        version: options.version,
        description: 'Example workflow service (dev profile): OPENED, ASSIGNED, RESOLVED, CLOSED',
        flows: [SUPPORT_TICKET_FLOW],
        entity: SUPPORT_TICKET_SCHEMA,
        store: makeDatabaseWorkflowStore(options.database),
      }),
    );
  }
  return services;
}
