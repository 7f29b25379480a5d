/**
 * What the administration API answers, as strict JSON Schemas: every field the server writes is
 * listed and required (null where it may be absent), nothing else is allowed. The integration
 * tests validate every answer they receive against these schemas through the OpenAPI document,
 * so a field added to an answer without its schema fails CI. They are also the only source of the
 * answers' TypeScript types (`admin-api-wire-types.ts` reads them with `FromJsonSchema`): the
 * builders keep their literal types, so no annotation may widen a schema to `JsonSchema` here.
 * The trigger layer's records (executions, crontabs, their payload, a trigger's answer) are
 * `@fw/trigger`'s own wire schemas, which it derives its types from.
 */
import { TRIGGER_WIRE_SCHEMAS } from '@fw/trigger';
import { ERROR_ENVELOPE_SCHEMA } from '@fw/core';
import { MAX_PAGE_SIZE } from '../http/pagination';
import { PREDECESSOR_ARGS_VALUES, UUID_PATTERN } from './admin-api-request-schemas';
import {
  anyJson,
  arrayOf,
  bool,
  enumOf,
  freeObject,
  instant,
  integer,
  mapOf,
  object,
  orNull,
  ref,
  text,
  type JsonSchema,
} from './json-schema';

const str = text();
const anyText = text({ minLength: 0 });
const uuid = text({ pattern: UUID_PATTERN });
const count = { type: 'integer', minimum: 0 } as const;
const percent = { type: 'integer', minimum: 0, maximum: 100 } as const;
const seconds = { type: 'number', minimum: 0 } as const;

function pageFields<const Item extends string>(item: Item) {
  return {
    content: arrayOf(ref(item), { maxItems: MAX_PAGE_SIZE }),
    totalElements: count,
    page: count,
    size: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE } as const,
    totalPages: count,
  };
}

function pageOf<const Item extends string>(item: Item) {
  return object(pageFields(item), { extra: { description: `One page of ${item}s` } });
}

/** A page whose total may be the planner's estimate (above the exact-count limit). */
function estimatedPageOf<const Item extends string>(item: Item) {
  return object(
    {
      ...pageFields(item),
      totalElementsEstimated: {
        const: true,
        description:
          'Present when totalElements is an estimate (the list is larger than the exact-count limit): show it as "about N"',
      },
    },
    {
      required: ['content', 'totalElements', 'page', 'size', 'totalPages'],
      extra: { description: `One page of ${item}s` },
    },
  );
}

const processFields = {
  id: uuid,
  processType: str,
  leaf: bool,
  parentId: orNull(uuid),
  predecessorId: orNull(uuid),
  triggerId: orNull(str),
  tenant: orNull(str),
  state: object({ flowId: str, stateId: str }),
  splitCompleted: bool,
  numSubProcesses: count,
  numCompletedSubProcesses: count,
  completedPercent: percent,
  input: anyJson,
  output: anyJson,
  errors: arrayOf(ref('ProcessError')),
  description: orNull(anyText),
  createdTime: instant,
  lastModifiedTime: instant,
  stateEntryTime: instant,
  version: count,
};

const traceNodeBase = <const Kind extends string, const Data extends JsonSchema>(kind: Kind, data: Data) =>
  object(
    { id: str, kind: { const: kind }, label: str, status: orNull(str), time: orNull(instant), data },
    { extra: { description: `A ${kind} node` } },
  );

/** Answer bodies, as `components.schemas` entries. */
export const RESPONSE_SCHEMAS = {
  Error: {
    ...ERROR_ENVELOPE_SCHEMA,
    description:
      'Every error of the administration API: the framework error envelope; message (the same text as description) says what is wrong; never a stack trace',
  },
  Info: object({
    definitionSource: enumOf(['json', 'database']),
    definitionsWritable: bool,
    cronAvailable: bool,
    supportedEvents: arrayOf(enumOf(['ProcessCreate'])),
  }),
  TriggerResult: TRIGGER_WIRE_SCHEMAS.TriggerResult,
  StoredTriggerPayload: TRIGGER_WIRE_SCHEMAS.StoredTriggerPayload,
  Execution: TRIGGER_WIRE_SCHEMAS.Execution,
  Crontab: TRIGGER_WIRE_SCHEMAS.Crontab,
  ProcessDef: object(
    {
      processType: str,
      leaf: bool,
      parentProcessType: orNull(str),
      predecessorProcessType: orNull(str),
      predecessorArgs: enumOf(PREDECESSOR_ARGS_VALUES),
      config: mapOf({ type: 'string' }),
      inputSchema: orNull(freeObject('JSON Schema of the args')),
      retry: orNull(
        object(
          { attempts: integer, backoff: object({ baseMillis: integer, maxMillis: integer }) },
          { required: ['attempts'] },
        ),
      ),
      retention: object(
        { succeeded: str, failed: str },
        {
          required: [],
          extra: { description: "The definition's own retention (ISO-8601 durations), when it sets one" },
        },
      ),
      concurrency: object(
        { perTenant: integer, global: integer },
        { required: [], extra: { description: 'Most RUNNING work items per tenant and/or in all, when set' } },
      ),
      priority: integer,
      rateLimit: object(
        { perSecond: { type: 'number' }, scope: enumOf(['tenant', 'global']) },
        { extra: { description: 'Most starts per second, per tenant or in all, when set' } },
      ),
    },
    {
      required: [
        'processType',
        'leaf',
        'parentProcessType',
        'predecessorProcessType',
        'predecessorArgs',
        'config',
        'inputSchema',
        'retry',
      ],
    },
  ),
  ProcessSummary: object({
    id: uuid,
    processType: str,
    leaf: bool,
    status: str,
    parentId: orNull(uuid),
    predecessorId: orNull(uuid),
    triggerId: orNull(str),
    tenant: orNull(str),
    completedPercent: percent,
    numSubProcesses: count,
    numCompletedSubProcesses: count,
    description: orNull(anyText),
    createdTime: instant,
    lastModifiedTime: instant,
    stateEntryTime: instant,
  }),
  ProcessError: object(
    {
      processId: uuid,
      timeOfCompletion: instant,
      errors: arrayOf(anyText),
      exceptionMessage: orNull(anyText),
      stackTrace: orNull(anyText),
    },
    { extra: { description: 'A failure a worker reported (its own message and stack)' } },
  ),
  CompletionEvent: object({
    id: uuid,
    processId: uuid,
    processType: str,
    state: str,
    successful: bool,
    triggerId: orNull(str),
    generatedTime: instant,
    payload: anyJson,
  }),
  ProcessDetail: object(
    { ...processFields, status: str, completionEvents: arrayOf(ref('CompletionEvent')) },
    { extra: { description: 'The process as stored, plus its status and completion events' } },
  ),
  TraceNode: {
    oneOf: [
      traceNodeBase(
        'TRIGGER',
        object({ triggerId: str, executions: count, latestExecution: ref('Execution') }, { required: ['triggerId'] }),
      ),
      traceNodeBase(
        'PROCESS',
        object({
          processType: str,
          leaf: bool,
          parentId: orNull(uuid),
          predecessorId: orNull(uuid),
          triggerId: orNull(str),
          completedPercent: percent,
          numSubProcesses: count,
          numCompletedSubProcesses: count,
          lastModifiedTime: instant,
        }),
      ),
      traceNodeBase('COMPLETION', object({ processId: uuid, processType: str, successful: bool })),
    ],
  },
  TraceEdge: object({
    source: str,
    target: str,
    kind: enumOf(['PROCESS_CREATE', 'SUBPROCESS', 'EMITS', 'SUCCESSOR', 'LEGACY_SUCCESSOR']),
  }),
  Trace: object({ nodes: arrayOf(ref('TraceNode')), edges: arrayOf(ref('TraceEdge')) }),
  Refresh: object({ refreshed: { const: true }, definitions: count }),
  HealthBucket: object(
    { start: instant, succeeded: count, failed: count },
    { extra: { description: 'Processes finished in the five minutes from start, by outcome' } },
  ),
  HealthBacklog: object(
    { workerType: str, pending: count, running: count, dead: count },
    { extra: { description: 'Work items of one worker type now, by status' } },
  ),
  HealthRow: object(
    {
      processType: str,
      succeeded: count,
      failed: count,
      throughput: arrayOf(ref('HealthBucket'), { maxItems: 12 }),
      backlog: arrayOf(ref('HealthBacklog')),
      oldestDueSeconds: orNull(seconds),
      waitP50Seconds: orNull(seconds),
      waitP95Seconds: orNull(seconds),
      waitSamples: count,
    },
    {
      extra: {
        description:
          'One process type: processes finished in the last hour (in all and per 5-minute bucket, oldest first), work items pending, running and dead now by worker type, how long the oldest due pending item has waited, and the due-to-claim wait of the work items finished in the last hour (p50/p95 over waitSamples items)',
      },
    },
  ),
  Health: object(
    {
      tenant: str,
      generatedAt: instant,
      windowSeconds: count,
      bucketSeconds: count,
      processTypes: arrayOf(ref('HealthRow')),
    },
    { extra: { description: 'Health of the tenant over the last hour, from the process and work-item tables' } },
  ),
  CrontabPage: pageOf('Crontab'),
  ExecutionPage: pageOf('Execution'),
  DefinitionPage: pageOf('ProcessDef'),
  ProcessPage: estimatedPageOf('ProcessSummary'),
  OpenApiDocument: {
    type: 'object',
    properties: { openapi: { const: '3.1.0' }, info: freeObject(), paths: freeObject(), components: freeObject() },
    required: ['openapi', 'info', 'paths', 'components'],
    description: 'This document (OpenAPI 3.1)',
  },
} satisfies Record<string, JsonSchema>;
