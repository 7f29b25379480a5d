// The reference {{entity}} service: the HTTP contract an fw-service-generated `{{entityKebab}}`
// service answers (POST /{{entityKebab}}, GET /{{entityKebab}}/{id}, the response envelope, 400
// SVC400 for a bad body, 404 for an unknown id{{#security}}, 401 SVC401 without a valid bearer token{{/security}}),
// built on @fw/service with an in-memory store. It lets the integration tests run — and prove
// themselves — without the real app; point them at the real app with IT_BASE_URL or IT_APP_COMMAND.
import { randomUUID } from 'node:crypto';
import { FwError } from '@fw/core';
import { defineService, type Interceptor, type ServiceDefinition } from '@fw/service';

export interface {{entityPascal}} {
  id: string;
  name: string;
  quantity: number;
  createdAt: string;
}

export interface Create{{entityPascal}} {
  name: string;
  quantity?: number;
}

const ID = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' };
const QUANTITY = { type: 'integer', minimum: 0, maximum: 1_000_000_000 };

const ENTITY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'quantity', 'createdAt'],
  properties: { id: ID, name: { type: 'string', minLength: 1, maxLength: 200 }, quantity: QUANTITY, createdAt: { type: 'string' } },
};

export function make{{entityPascal}}Service(interceptors: readonly Interceptor[] = []): ServiceDefinition {
  // Tenant → id → record: records of one tenant are invisible to another, as in the real service.
  const store = new Map<string, Map<string, {{entityPascal}}>>();
  const records = (tenant: string | undefined) => {
    const key = tenant ?? 'default';
    let map = store.get(key);
    if (!map) store.set(key, (map = new Map()));
    return map;
  };
  return defineService({
    name: '{{entityKebab}}',
    version: '{{appVersion}}',
    kind: 'http',
    description: 'Reference {{entity}} service of the integration tests',
    interceptors,
    operations: [
      {
        name: 'create',
        description: 'Creates a record; the service assigns its id',
        method: 'POST',
        path: '/{{entityKebab}}',
        input: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 200 }, quantity: QUANTITY } },
        output: ENTITY_SCHEMA,
        handler: async (input: Create{{entityPascal}}, ctx) => {
          const record = { id: randomUUID(), name: input.name, quantity: input.quantity ?? 0, createdAt: new Date().toISOString() };
          records(ctx.tenant).set(record.id, record);
          return record;
        },
      },
      {
        name: 'read',
        description: 'Reads one record by id',
        method: 'GET',
        path: '/{{entityKebab}}/{id}',
        input: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: ID } },
        output: ENTITY_SCHEMA,
        handler: async (input: { id: string }, ctx) => {
          const found = records(ctx.tenant).get(input.id);
          if (!found) throw new FwError({ code: 404, subErrorCode: '{{entityConstant}}_404', description: `No {{entity}} record with id '${input.id}'`, params: [input.id], field: 'id' });
          return found;
        },
      },
    ],
  });
}
