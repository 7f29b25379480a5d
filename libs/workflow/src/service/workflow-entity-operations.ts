/**
 * The entity operations of a workflow service and their HTTP bindings: `create` (`POST /{svc}`),
 * `get` (`GET /{svc}/{id}`) and `event` (`PATCH /{svc}/{id}/{eventId}`, the body is the payload).
 */
import type { OperationDefinition, JsonSchema } from '@fw/service';
import type { WorkflowEntities } from './workflow-entities';
import { ID_SCHEMA, NAME_SCHEMA } from './workflow-schemas';

export interface WorkflowEntityOperationsDeps {
  /** The service's name (its path). */
  name: string;
  entities: WorkflowEntities;
  /** JSON Schema of the create body. */
  entity: JsonSchema;
}

/** The operations `create`, `get` and `event`. */
export function workflowEntityOperations(
  deps: WorkflowEntityOperationsDeps,
): ReadonlyArray<OperationDefinition<never, unknown>> {
  const { name, entities } = deps;
  const base = `/${name}`;

  return [
    {
      name: 'create',
      method: 'POST',
      path: base,
      description: `Creates a ${name} in the initial state`,
      input: deps.entity,
      handler: async (input: Record<string, unknown>, ctx) => entities.create(input, ctx.tenant),
    },
    {
      name: 'get',
      method: 'GET',
      path: `${base}/{id}`,
      description: `Reads a ${name}`,
      input: { type: 'object', required: ['id'], properties: { id: ID_SCHEMA } },
      handler: async (input: { id: string }) => entities.get(input.id),
    },
    {
      name: 'event',
      method: 'PATCH',
      path: `${base}/{id}/{eventId}`,
      description: 'Sends an event (the body is its payload)',
      input: { type: 'object', required: ['id', 'eventId'], properties: { id: ID_SCHEMA, eventId: NAME_SCHEMA } },
      handler: async (input: Record<string, unknown> & { id: string; eventId: string }, ctx) => {
        const { id, eventId, ...payload } = input;
        return entities.sendEvent(id, eventId, payload, ctx.tenant);
      },
    },
  ];
}
