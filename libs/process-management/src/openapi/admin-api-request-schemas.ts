/**
 * What the administration API accepts: the limits it enforces and the JSON Schemas of its request
 * bodies and query parameters. The router checks every request with these schemas (ajv) before a
 * handler runs, and the OpenAPI document shows the very same objects, so a limit cannot be
 * enforced without being documented, nor documented without being enforced. Checks a schema
 * cannot state (a cron expression croner accepts, a known time zone, an existing definition, a
 * predecessor cycle) stay in the handlers and answer 400 too.
 *
 * @example
 * REQUEST_SCHEMAS.CrontabInput.required; // ['name', 'cronExpression', 'payload']
 */
import { TENANT_ID_PATTERN } from '@fw/core';
import {
  DESCRIPTION_MAX_LENGTH,
  MAX_TRIGGER_ID_LENGTH,
  NAME_MAX_LENGTH,
  NO_OUTER_BLANKS,
  processArgs,
  processDescription,
  processTypeName,
  UUID_PATTERN,
} from '@fw/process-service';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_NUMBER, MAX_PAGE_SIZE } from '../http/pagination';
import { bool, enumOf, freeObject, mapOf, object, orNull, ref, text, type JsonSchema } from './json-schema';

// Names, trigger keys, descriptions and ids follow the input policy of @fw/process-service, which
// its `/process` routes check too: what one entry point refuses, the other does.
export { DESCRIPTION_MAX_LENGTH, MAX_TRIGGER_ID_LENGTH, NAME_MAX_LENGTH, NO_OUTER_BLANKS, UUID_PATTERN };
export const CRON_EXPRESSION_MAX_LENGTH = 200;
export const TIMEZONE_MAX_LENGTH = 100;
/** Longest text filter of a list (`status`, `triggerId`, `processType`). */
export const FILTER_MAX_LENGTH = 512;

export const TENANT_PATTERN = TENANT_ID_PATTERN.source;

/** How a failed `pattern` reads in a 400 message (`'name' must not start or end with blanks`). */
export const PATTERN_MESSAGES: ReadonlyMap<string, string> = new Map([
  [NO_OUTER_BLANKS, 'must not start or end with blanks'],
  [UUID_PATTERN, 'must be a UUID'],
  [TENANT_PATTERN, 'must match [A-Za-z0-9_.-]{1,128}'],
]);

export const EXECUTION_STATUS_VALUES = ['RUNNING', 'COMPLETED', 'FAILED'] as const;
export const TRIGGER_SOURCE_VALUES = ['CRON', 'MANUAL', 'EXTERNAL'] as const;
export const PREDECESSOR_ARGS_VALUES = ['INPUT', 'OUTPUT', 'BOTH'] as const;

function name(description: string): JsonSchema {
  return text({ maxLength: NAME_MAX_LENGTH, pattern: NO_OUTER_BLANKS, description });
}

const definitionName = processTypeName('Name of a process definition');
const uuid = (description: string): JsonSchema => text({ pattern: UUID_PATTERN, description });

/**
 * The fields of a crontab write. A request field carries no `default` keyword: generators read one
 * as "always present" and would make clients send it; what the server does with an absent field
 * differs between a create (it fills UTC and enabled) and a partial update (the stored value stays),
 * so each body says it in its own descriptions.
 */
function crontabFields(absent: { timezone: string; enabled: string }): Record<string, JsonSchema> {
  return {
    name: name('Unique within the tenant'),
    cronExpression: text({
      maxLength: CRON_EXPRESSION_MAX_LENGTH,
      description: 'Six fields, seconds first (croner), e.g. "0 */5 * * * *"',
    }),
    timezone: text({
      maxLength: TIMEZONE_MAX_LENGTH,
      description: `IANA time zone, e.g. Europe/Berlin; ${absent.timezone}`,
    }),
    enabled: { ...bool, description: absent.enabled },
    payload: ref('TriggerPayloadInput'),
  };
}

const retryPolicy = object(
  {
    attempts: { type: 'integer', minimum: 1, maximum: 100, description: 'Attempts in all (1 = no retry)' },
    backoff: orNull(
      object(
        {
          baseMillis: { type: 'integer', minimum: 1, maximum: 86_400_000 },
          maxMillis: { type: 'integer', minimum: 1, maximum: 86_400_000, description: 'At least baseMillis' },
        },
        { extra: { description: 'Delay before attempt n+1: min(baseMillis · 2^(n−1), maxMillis)' } },
      ),
    ),
  },
  { required: ['attempts'] },
);

/**
 * An ISO-8601 duration of retention (P30D, PT12H, P1DT6H). The pattern has no lookahead (every
 * generator of the document's schemas can read it), so it also admits `P1DT`; that, and anything
 * under a second, is refused when the definition is read (400 naming the field).
 */
const isoDuration: JsonSchema = text({
  minLength: 3,
  maxLength: 64,
  pattern:
    '^P(\\d+(\\.\\d+)?Y)?(\\d+(\\.\\d+)?M)?(\\d+(\\.\\d+)?W)?(\\d+(\\.\\d+)?D)?(T(\\d+(\\.\\d+)?H)?(\\d+(\\.\\d+)?M)?(\\d+(\\.\\d+)?S)?)?$',
  description: 'ISO-8601 duration, e.g. P30D',
});

const historyRetention = object(
  { succeeded: orNull(isoDuration), failed: orNull(isoDuration) },
  {
    required: [],
    extra: {
      description:
        "How long a finished tree with a root of this type is kept: succeeded (PROCESSED) and failed (PROCESSED_WITH_ERRORS) runs; a field left out takes the server's or the tenant's retention",
    },
  },
);

const concurrencyLimit = object(
  {
    perTenant: {
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000,
      description: 'RUNNING work items of this type per tenant',
    },
    global: {
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000,
      description: 'RUNNING work items of this type over all tenants',
    },
  },
  {
    required: [],
    extra: {
      minProperties: 1,
      description: 'Most work items of this type running at once, held across every worker process',
    },
  },
);

const rateLimit = object(
  {
    perSecond: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1_000_000,
      description: 'Starts per second (fractions allowed)',
    },
    scope: enumOf(['tenant', 'global']),
  },
  { extra: { description: 'Most starts per second of this type’s work items: per tenant, or over all tenants' } },
);

const definitionFields: Record<string, JsonSchema> = {
  processType: definitionName,
  leaf: { ...bool, description: 'A leaf executes directly; a non-leaf splits, waits for its children and aggregates' },
  parentProcessType: orNull(name('When set, processes of this type are created only as children of that type')),
  predecessorProcessType: orNull(name('When a process of that type completes, one of this type starts')),
  predecessorArgs: {
    ...orNull(enumOf(PREDECESSOR_ARGS_VALUES)),
    description:
      'What the successor receives as its args: the input, the output or both of the predecessor; BOTH when absent or null',
  },
  config: orNull(
    mapOf(text({ minLength: 0 }), {
      description: 'One map of strings shared by the splitter, executor and aggregator',
    }),
  ),
  inputSchema: orNull(
    freeObject('JSON Schema the args of a new process of this type must satisfy (else 400 naming the field)'),
  ),
  retry: orNull(retryPolicy),
  retention: orNull(historyRetention),
  concurrency: orNull(concurrencyLimit),
  priority: orNull({
    type: 'integer',
    minimum: 0,
    maximum: 9,
    description: 'Higher first within a tenant (5 when absent); every minute waited counts as one level',
  }),
  rateLimit: orNull(rateLimit),
};

/** Request bodies, as `components.schemas` entries. */
export const REQUEST_SCHEMAS: Record<string, JsonSchema> = {
  TriggerPayloadInput: object(
    {
      processDefName: definitionName,
      args: processArgs("The process input (any object); it must satisfy the definition's inputSchema"),
      description: processDescription('Description of the created process'),
    },
    { required: ['processDefName'] },
  ),
  TriggerRequest: object(
    {
      triggerId: orNull(
        text({
          maxLength: MAX_TRIGGER_ID_LENGTH,
          pattern: NO_OUTER_BLANKS,
          description: 'Retry key, stored as manual:<tenant>:<key> (a UUID when absent)',
        }),
      ),
      payload: ref('TriggerPayloadInput'),
    },
    { required: ['payload'] },
  ),
  CrontabInput: object(crontabFields({ timezone: 'UTC when absent', enabled: 'true when absent' }), {
    required: ['name', 'cronExpression', 'payload'],
  }),
  CrontabUpdate: object(
    crontabFields({ timezone: 'when absent the stored zone stays', enabled: 'when absent the stored value stays' }),
    {
      required: [],
      extra: {
        minProperties: 1,
        description: 'The fields to change (at least one); a field left out keeps its stored value',
      },
    },
  ),
  DefinitionInput: object(definitionFields, { required: ['processType', 'leaf'] }),
  DefinitionUpdate: object(definitionFields, {
    required: ['leaf'],
    extra: {
      description:
        'The whole definition; processType may be left out (it is the name in the path) and must equal it when given',
    },
  }),
};

/** One query parameter of an operation. */
export interface QueryParameter {
  name: string;
  description: string;
  schema: JsonSchema;
}

const filterText = (description: string): JsonSchema => text({ maxLength: FILTER_MAX_LENGTH, description });

/** Query parameters, by name. */
export const QUERY_PARAMETERS = {
  page: {
    name: 'page',
    description: '0-based page',
    schema: { type: 'integer', minimum: 0, maximum: MAX_PAGE_NUMBER, default: 0 },
  },
  size: {
    name: 'size',
    description: 'Rows per page',
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
  },
  executionStatus: { name: 'status', description: 'Execution status', schema: enumOf(EXECUTION_STATUS_VALUES) },
  executionSource: { name: 'source', description: 'Trigger source', schema: enumOf(TRIGGER_SOURCE_VALUES) },
  startedType: {
    name: 'processType',
    description: 'Definition the trigger starts (payload.processDefName)',
    schema: filterText('Definition name'),
  },
  roots: { name: 'roots', description: 'true: only processes without a parent', schema: enumOf(['true', 'false']) },
  freeText: {
    name: 'q',
    description: 'Free text: a process id, or part of the process type, description or trigger id (case-insensitive)',
    schema: filterText('Free text'),
  },
  processStatus: {
    name: 'status',
    description:
      'State id (EXECUTING, SPLIT_PENDING, SUB_PROCESSES_PENDING, AGGREGATION_PENDING, PROCESSED, PROCESSED_WITH_ERRORS)',
    schema: filterText('State id'),
  },
  triggerId: {
    name: 'triggerId',
    description: 'Stored trigger id (manual:<tenant>:<key>, cron:…)',
    schema: filterText('Stored trigger id'),
  },
  crontabId: { name: 'crontabId', description: 'Crontab id', schema: uuid('Crontab id') },
  processType: { name: 'processType', description: 'Definition name', schema: filterText('Definition name') },
  parentId: { name: 'parentId', description: 'Parent process id', schema: uuid('Process id') },
  predecessorId: { name: 'predecessorId', description: 'Predecessor process id', schema: uuid('Process id') },
  processId: { name: 'processId', description: 'Process id', schema: uuid('Process id') },
} satisfies Record<string, QueryParameter>;

/** The tenant header every call but `/openapi.json` needs. */
export const TENANT_HEADER_SCHEMA: JsonSchema = { type: 'string', pattern: TENANT_PATTERN };
