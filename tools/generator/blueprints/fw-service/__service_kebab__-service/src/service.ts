// The {{service}} service as data (@fw/service): three operations with their JSON Schemas from
// {{serviceKebab}}-api, the interceptors they run through, and a health check on the store.
//   create  POST /{{serviceKebab}}        → 200 the new record
//   read    GET  /{{serviceKebab}}/{id}   → 200 the record; 404 {{serviceConstant}}_404 when absent
//   op1     POST /{{serviceKebab}}/op1    → 200 { id, previousQuantity, quantity }; 404; 422 {{serviceConstant}}_422
// The same definition answers HTTP (makeServiceRouter), in-process calls (registry.invoke), the
// service proxy and MCP: input and output are checked, interceptors run, in every case.
import { FwError } from '@fw/core';
import { defineService, makeAuditInterceptor, type CallContext, type Interceptor, type ServiceDefinition } from '@fw/service';
import {
  CREATE_REQUEST_SCHEMA,
  ENTITY_SCHEMA,
  GET_REQUEST_SCHEMA,
  OP1_REQUEST_SCHEMA,
  OP1_RESPONSE_SCHEMA,
  SERVICE_NAME,
  SERVICE_VERSION,
  {{serviceConstant}}_ERROR_CODES,
  type Create{{servicePascal}}Request,
  type Get{{servicePascal}}Request,
  type {{servicePascal}}Entity,
  type {{servicePascal}}Op1Request,
  type {{servicePascal}}Op1Response,
} from '{{scope}}/{{serviceKebab}}-api';
import type { {{servicePascal}}Repository } from './repository';

/** Calls without `x-fw-tenant-id` work on this tenant's records. */
export const DEFAULT_TENANT = 'default';

export interface {{servicePascal}}ServiceOptions {
  repository: {{servicePascal}}Repository;
  /**
   * Interceptors run around every operation, after the audit line is opened (so refused calls are
   * audited too){{#security}}; the host puts the bearer-JWT check here{{/security}}.
   */
  interceptors?: readonly Interceptor[];
}

function tenantOf(ctx: CallContext): string {
  return ctx.tenant ?? DEFAULT_TENANT;
}

function notFound(id: string): FwError {
  return new FwError({ code: 404, subErrorCode: {{serviceConstant}}_ERROR_CODES.notFound, description: `No {{service}} record with id '${id}'`, params: [id], field: 'id' });
}

export function make{{servicePascal}}Service(options: {{servicePascal}}ServiceOptions): ServiceDefinition {
  const { repository } = options;
  return defineService({
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    kind: 'http',
    description: '{{service}}: records with a name and a quantity that may never go below zero',
    interceptors: [makeAuditInterceptor(), ...(options.interceptors ?? [])],
    healthCheck: async () => {
      try {
        await repository.ping();
        return { healthy: true, checks: [{ name: SERVICE_NAME, healthy: true }] };
      } catch (err) {
        return { healthy: false, checks: [{ name: SERVICE_NAME, healthy: false, message: `store unreachable: ${(err as Error).message}` }] };
      }
    },
    operations: [
      {
        name: 'create',
        description: 'Creates a record; the service assigns its id',
        method: 'POST',
        path: '/{{serviceKebab}}',
        input: CREATE_REQUEST_SCHEMA,
        output: ENTITY_SCHEMA,
        handler: (input: Create{{servicePascal}}Request, ctx): Promise<{{servicePascal}}Entity> => repository.create(tenantOf(ctx), input),
      },
      {
        name: 'read',
        description: 'Reads one record by id',
        method: 'GET',
        path: '/{{serviceKebab}}/{id}',
        input: GET_REQUEST_SCHEMA,
        output: ENTITY_SCHEMA,
        handler: async (input: Get{{servicePascal}}Request, ctx): Promise<{{servicePascal}}Entity> => {
          const found = await repository.get(tenantOf(ctx), input.id);
          if (found === undefined) throw notFound(input.id);
          return found;
        },
      },
      {
        name: 'op1',
        description: 'The sample business operation: adds delta to the quantity, refusing (422) a result below zero',
        method: 'POST',
        path: '/{{serviceKebab}}/op1',
        input: OP1_REQUEST_SCHEMA,
        output: OP1_RESPONSE_SCHEMA,
        handler: async (input: {{servicePascal}}Op1Request, ctx): Promise<{{servicePascal}}Op1Response> => {
          const outcome = await repository.adjust(tenantOf(ctx), input.id, input.delta);
          if (outcome.kind === 'absent') throw notFound(input.id);
          if (outcome.kind === 'refused') {
            throw new FwError({ code: 422, subErrorCode: {{serviceConstant}}_ERROR_CODES.negativeQuantity, description: `The quantity of '${input.id}' is ${outcome.quantity}: adding ${input.delta} would make it negative`, params: [input.id, outcome.quantity, input.delta], field: 'delta' });
          }
          return { id: input.id, previousQuantity: outcome.previousQuantity, quantity: outcome.quantity };
        },
      },
    ],
  });
}
