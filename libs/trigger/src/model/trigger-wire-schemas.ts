/**
 * The trigger layer's records as they go over the wire, as strict JSON Schemas (draft 2020-12, the
 * dialect of OpenAPI 3.1): every field listed and required (null where it may be absent), nothing
 * else allowed. They are the single source of these shapes: the TypeScript types of
 * `trigger-model.ts` are read from them (`FromJsonSchema`), and the administration API of
 * `@fw/process-management` publishes them as `components.schemas` of its OpenAPI document and
 * checks its answers against them. A reference names another entry of this table by its
 * component name (`#/components/schemas/StoredTriggerPayload`).
 *
 * @example
 * type Crontab = FromJsonSchema<typeof TRIGGER_WIRE_SCHEMAS.Crontab, typeof TRIGGER_WIRE_SCHEMAS>;
 */

/** Where a trigger came from. */
export const TRIGGER_SOURCES = ['CRON', 'MANUAL', 'EXTERNAL'] as const;

/** Status of an accepted dispatch. COMPLETED means the dispatch returned, not that processes finished. */
export const TRIGGER_EXECUTION_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED'] as const;

/** A UUID in its text form, either case (ids of executions and crontabs). */
export const WIRE_UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const text = { type: 'string', minLength: 1 } as const;
const anyText = { type: 'string' } as const;
const nullableText = { type: ['string', 'null'] } as const;
const uuid = { type: 'string', minLength: 1, pattern: WIRE_UUID_PATTERN } as const;
const instant = { type: 'string', format: 'date-time' } as const;
const nullableInstant = { type: ['string', 'null'], format: 'date-time' } as const;
const storedPayload = { $ref: '#/components/schemas/StoredTriggerPayload' } as const;

/** Wire schemas of the trigger layer, by component name. */
export const TRIGGER_WIRE_SCHEMAS = {
  StoredTriggerPayload: {
    type: 'object',
    properties: {
      processDefName: text,
      args: { type: 'object', additionalProperties: true, description: 'The process input as stored' },
      description: anyText,
    },
    required: ['processDefName'],
    additionalProperties: false,
  },
  TriggerResult: {
    type: 'object',
    properties: {
      triggerId: text,
      eventId: text,
      logId: text,
      dispatched: { type: 'boolean' },
      duplicate: { type: 'boolean' },
    },
    required: ['triggerId', 'eventId', 'logId', 'dispatched', 'duplicate'],
    additionalProperties: false,
  },
  Execution: {
    type: 'object',
    properties: {
      id: uuid,
      triggerId: text,
      tenant: text,
      source: { type: 'string', enum: TRIGGER_SOURCES },
      scheduledTime: nullableInstant,
      receivedTime: instant,
      startTime: nullableInstant,
      finishTime: nullableInstant,
      eventName: text,
      payload: storedPayload,
      status: { type: 'string', enum: TRIGGER_EXECUTION_STATUSES },
      failureMessage: nullableText,
      cronId: { type: ['string', 'null'], minLength: 1, pattern: WIRE_UUID_PATTERN },
      processId: { type: ['string', 'null'], minLength: 1 },
      logId: text,
      eventId: text,
    },
    required: [
      'id',
      'triggerId',
      'tenant',
      'source',
      'scheduledTime',
      'receivedTime',
      'startTime',
      'finishTime',
      'eventName',
      'payload',
      'status',
      'failureMessage',
      'cronId',
      'processId',
      'logId',
      'eventId',
    ],
    additionalProperties: false,
    description: 'An accepted dispatch (fw_trigger_execution); the stack of a failed dispatch stays in the database',
  },
  Crontab: {
    type: 'object',
    properties: {
      id: uuid,
      tenant: text,
      name: text,
      cronExpression: text,
      timezone: text,
      enabled: { type: 'boolean' },
      payload: storedPayload,
      createdAt: instant,
      updatedAt: instant,
      lastFiredAt: nullableInstant,
      lastScheduledTime: nullableInstant,
    },
    required: [
      'id',
      'tenant',
      'name',
      'cronExpression',
      'timezone',
      'enabled',
      'payload',
      'createdAt',
      'updatedAt',
      'lastFiredAt',
      'lastScheduledTime',
    ],
    additionalProperties: false,
  },
} as const;
