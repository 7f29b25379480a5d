/** Services of the tests: an HTTP service with every binding shape, a headless one, interceptors that record. */
import { FwError } from '@fw/core';
import { defineService, type Interceptor, type ServiceDefinition } from '@fw/service';

export const calls: string[] = [];

export function recording(name: string, options: { shortCircuit?: unknown; fail?: string } = {}): Interceptor {
  return {
    name,
    async intercept(call, next) {
      calls.push(`${name}:before`);
      if (options.fail) throw new FwError({ code: 403, subErrorCode: 'TEST403', description: options.fail });
      if (options.shortCircuit !== undefined) return options.shortCircuit;
      const result = await next();
      calls.push(`${name}:after`);
      return result;
    },
  };
}

const ticket = {
  type: 'object',
  required: ['id', 'title'],
  properties: { id: { type: 'integer' }, title: { type: 'string' }, tenant: { type: ['string', 'null'] } },
};

export function ticketService(
  extra: { interceptors?: Interceptor[]; healthy?: () => boolean; brokenOutput?: boolean } = {},
): ServiceDefinition {
  const tickets = new Map<number, { id: number; title: string; tenant: string | null }>();
  return defineService({
    name: 'tickets',
    version: '1.2.0',
    description: 'Support tickets',
    interceptors: extra.interceptors ?? [recording('service-level')],
    healthCheck: extra.healthy ? async () => ({ healthy: (extra.healthy as () => boolean)() }) : undefined,
    operations: [
      {
        name: 'create',
        description: 'Opens a ticket',
        method: 'POST',
        path: '/tickets',
        input: {
          type: 'object',
          required: ['title'],
          additionalProperties: false,
          properties: {
            title: { type: 'string', minLength: 1 },
            priority: { type: 'integer', minimum: 1, maximum: 5 },
          },
        },
        output: ticket,
        interceptors: [recording('operation-level')],
        handler: async (input: { title: string }, ctx) => {
          const created = { id: tickets.size + 1, title: input.title, tenant: ctx.tenant ?? null };
          tickets.set(created.id, created);
          return extra.brokenOutput ? { id: 'not-a-number' } : created;
        },
      },
      {
        name: 'get',
        method: 'GET',
        path: '/tickets/{id}',
        input: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'integer' }, verbose: { type: 'boolean' } },
        },
        output: ticket,
        handler: async (input: { id: number }) => {
          const found = tickets.get(input.id);
          if (!found) throw new FwError({ code: 404, subErrorCode: 'TICKET404', description: `No ticket ${input.id}` });
          return found;
        },
      },
      {
        name: 'explode',
        method: 'POST',
        path: '/tickets/explode',
        handler: async () => {
          throw new Error('secret internal detail');
        },
      },
      { name: 'count', description: 'in-process only', handler: async () => ({ count: tickets.size }) },
    ],
  });
}

export const echoService = defineService({
  name: 'echo',
  version: '0.1.0',
  operations: [
    {
      name: 'echo',
      input: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
      handler: async (input: { text: string }) => input,
    },
  ],
});
