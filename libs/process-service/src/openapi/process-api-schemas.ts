/**
 * The `/process` endpoints as JSON Schemas (draft 2020-12, OpenAPI 3.1): the request bodies the
 * router checks before the manager runs (unknown fields are tolerated, as the manager always
 * did; known fields must have their type), and the strict answers inside the framework envelope.
 * A host's OpenAPI document shows these very objects (see process-api-operations.ts).
 *
 * @example
 * PROCESS_API_SCHEMAS.ProcessCreateRequest.required; // ['processDefName']
 */
import { ERROR_ENVELOPE_SCHEMA, successEnvelopeSchema } from '@fw/core';
import {
  processArgs,
  processDescription,
  processTypeName,
  storedTriggerId,
  UUID_PATTERN,
} from './process-input-policy';

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const uuid: Schema = { type: 'string', pattern: UUID_PATTERN };
const text: Schema = { type: 'string' };
const textOrNull: Schema = { type: ['string', 'null'] };
const instant: Schema = { type: 'string', format: 'date-time' };
const count: Schema = { type: 'integer', minimum: 0 };
const anyJson: Schema = { description: 'any JSON value' };

/** A request object: the named fields checked, others tolerated. */
function request(properties: Record<string, Schema>, required: string[], description: string): Schema {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), description };
}

/** An answer object: every field listed and required, nothing else. */
function answer(properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema {
  return { type: 'object', properties, required, additionalProperties: false };
}

const errorFields: Record<string, Schema> = {
  errors: { type: ['array', 'null'], items: text },
  exceptionMessage: textOrNull,
  stackTrace: textOrNull,
};

const REQUESTS: Record<string, Schema> = {
  ProcessCreateRequest: request(
    {
      processDefName: processTypeName('The definition to start'),
      args: processArgs('The input of the process (any object); it must satisfy the definition’s inputSchema'),
      triggerId: storedTriggerId('Trigger correlation (else header x-fw-trigger-id)'),
      description: processDescription('Description of the process'),
    },
    ['processDefName'],
    'ProcessCreate; args become the input and must satisfy the definition’s inputSchema',
  ),
  ProcessCompletedRequest: {
    ...request(
      {
        processId: uuid,
        processType: processTypeName('The completed type'),
        processDefName: processTypeName('The completed type, when processType is absent'),
        tenantId: textOrNull,
        triggerId: storedTriggerId('The trigger of the completed process'),
        description: processDescription('The description of the completed process'),
        state: textOrNull,
        input: anyJson,
        output: anyJson,
        successful: { type: 'boolean' },
      },
      ['processId'],
      'A ProcessCompletedEvent: the successors of its type are started',
    ),
    anyOf: [{ required: ['processType'] }, { required: ['processDefName'] }],
  },
  SubProcessRequest: request(
    {
      processType: processTypeName('Definition of the child'),
      childId: { type: ['string', 'null'], pattern: UUID_PATTERN },
      leaf: { type: ['boolean', 'null'] },
      args: anyJson,
    },
    ['processType'],
    'One child of a split',
  ),
  SplitPayload: request(
    { subProcesses: { type: ['array', 'null'], items: ref('SubProcessRequest') } },
    [],
    'splitPartiallyDone, splitDone',
  ),
  OutputPayload: request({ output: anyJson }, [], 'doneSuccessfully, aggregationDone'),
  ErrorPayload: request(errorFields, [], 'doneWithErrors, splitDoneWithErrors, aggregationDoneWithErrors'),
  SubProcessDonePayload: request({ childId: uuid, output: anyJson }, ['childId'], 'subProcessDoneSuccessfully'),
  SubProcessErrorPayload: request({ childId: uuid, ...errorFields }, ['childId'], 'subProcessDoneWithErrors'),
  StatusUpdatePayload: request(
    { percentComplete: { type: 'number', minimum: 0, maximum: 100 } },
    ['percentComplete'],
    'statusUpdate',
  ),
};

/** The payload schema of each event (an event not listed answers 422 P005 in the manager). */
export const EVENT_PAYLOAD_SCHEMAS: Readonly<Record<string, string>> = {
  splitPartiallyDone: 'SplitPayload',
  splitDone: 'SplitPayload',
  doneSuccessfully: 'OutputPayload',
  aggregationDone: 'OutputPayload',
  doneWithErrors: 'ErrorPayload',
  splitDoneWithErrors: 'ErrorPayload',
  aggregationDoneWithErrors: 'ErrorPayload',
  subProcessDoneSuccessfully: 'SubProcessDonePayload',
  subProcessDoneWithErrors: 'SubProcessErrorPayload',
  statusUpdate: 'StatusUpdatePayload',
};

const ANSWERS: Record<string, Schema> = {
  ProcessErrorRecord: answer({
    processId: uuid,
    timeOfCompletion: instant,
    errors: { type: 'array', items: text },
    exceptionMessage: textOrNull,
    stackTrace: textOrNull,
  }),
  Process: answer({
    id: uuid,
    processType: text,
    leaf: { type: 'boolean' },
    parentId: { type: ['string', 'null'], pattern: UUID_PATTERN },
    predecessorId: { type: ['string', 'null'], pattern: UUID_PATTERN },
    triggerId: textOrNull,
    tenant: textOrNull,
    state: answer({ flowId: text, stateId: text }),
    splitCompleted: { type: 'boolean' },
    numSubProcesses: count,
    numCompletedSubProcesses: count,
    completedPercent: { type: 'number', minimum: 0, maximum: 100 },
    input: anyJson,
    output: anyJson,
    errors: { type: 'array', items: ref('ProcessErrorRecord') },
    description: textOrNull,
    createdTime: instant,
    lastModifiedTime: instant,
    stateEntryTime: instant,
    version: count,
  }),
  AllowedAction: answer({
    allowedAction: text,
    stateId: text,
    metadata: { type: 'object', additionalProperties: text },
  }),
  ProcessResponse: answer({
    mutatedEntity: ref('Process'),
    allowedActionsAndMetadata: { type: 'array', items: ref('AllowedAction') },
  }),
  ProcessResponseEnvelope: successEnvelopeSchema(ref('ProcessResponse')),
  ProcessListEnvelope: successEnvelopeSchema({ type: 'array', items: ref('Process') }),
  ErrorEnvelope: ERROR_ENVELOPE_SCHEMA,
};

/** Every component schema of the `/process` endpoints. */
export const PROCESS_API_SCHEMAS: Readonly<Record<string, Schema>> = { ...REQUESTS, ...ANSWERS };
