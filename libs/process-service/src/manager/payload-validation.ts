/**
 * Checks request bodies and event payloads before they reach the flow. Unknown properties are
 * tolerated; wrong types of known fields are refused with 400 `P003` naming the field.
 */
import { FwError } from '@fw/core';
import {
  ProcessErrorCodes,
  ProcessEvents,
  type ErrorPayload,
  type ProcessCompletedEvent,
  type ProcessDto,
  type SubProcessRequest,
} from '@fw/process-api';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

type Raw = Record<string, unknown>;

function invalid(field: string, description: string): FwError {
  return new FwError({
    code: 400,
    subErrorCode: ProcessErrorCodes.invalidPayload,
    description,
    field,
    params: [field],
  });
}

function asObject(value: unknown, field: string): Raw {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid(field, `'${field}' must be a JSON object`);
  return value as Raw;
}

function optionalString(raw: Raw, key: string, field: string): string | null {
  const v = raw[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw invalid(field, `'${field}' must be a string`);
  return v;
}

function stringList(raw: Raw, key: string, field: string): string[] {
  const v = raw[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw invalid(field, `'${field}' must be a list of strings`);
  return v as string[];
}

function requiredUuid(raw: Raw, key: string): string {
  const v = raw[key];
  if (!isUuid(v)) throw invalid(key, `'${key}' must be a UUID`);
  return v;
}

function errorPayload(raw: Raw): ErrorPayload {
  return {
    errors: stringList(raw, 'errors', 'errors'),
    exceptionMessage: optionalString(raw, 'exceptionMessage', 'exceptionMessage'),
    stackTrace: optionalString(raw, 'stackTrace', 'stackTrace'),
  };
}

function subProcesses(raw: Raw): SubProcessRequest[] {
  const list = raw.subProcesses;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw invalid('subProcesses', "'subProcesses' must be a list");
  return list.map((item, i) => {
    const field = `subProcesses[${i}]`;
    const r = asObject(item, field);
    const processType = r.processType;
    if (typeof processType !== 'string' || processType.trim() === '')
      throw invalid(`${field}.processType`, `'${field}.processType' must be a non-empty string`);
    if (r.childId !== undefined && r.childId !== null && !isUuid(r.childId))
      throw invalid(`${field}.childId`, `'${field}.childId' must be a UUID`);
    if (r.leaf !== undefined && r.leaf !== null && typeof r.leaf !== 'boolean')
      throw invalid(`${field}.leaf`, `'${field}.leaf' must be true or false`);
    return {
      processType,
      ...(isUuid(r.childId) ? { childId: r.childId.toLowerCase() } : {}),
      ...(r.args === undefined ? {} : { args: r.args }),
      ...(typeof r.leaf === 'boolean' ? { leaf: r.leaf } : {}),
    };
  });
}

/**
 * Returns the typed payload of `eventId` (a new object: the caller's body is never kept).
 *
 * @example
 * validateEventPayload('statusUpdate', { percentComplete: 40 }); // { percentComplete: 40 }
 */
export function validateEventPayload(eventId: string, body: unknown): object {
  const raw = asObject(body, 'payload');
  switch (eventId) {
    case ProcessEvents.splitPartiallyDone:
    case ProcessEvents.splitDone:
      return { subProcesses: subProcesses(raw) };
    case ProcessEvents.doneSuccessfully:
    case ProcessEvents.aggregationDone:
      return { output: raw.output === undefined ? null : raw.output };
    case ProcessEvents.doneWithErrors:
    case ProcessEvents.splitDoneWithErrors:
    case ProcessEvents.aggregationDoneWithErrors:
      return errorPayload(raw);
    case ProcessEvents.subProcessDoneSuccessfully:
      return {
        childId: requiredUuid(raw, 'childId').toLowerCase(),
        output: raw.output === undefined ? null : raw.output,
      };
    case ProcessEvents.subProcessDoneWithErrors:
      return { childId: requiredUuid(raw, 'childId').toLowerCase(), ...errorPayload(raw) };
    case ProcessEvents.statusUpdate: {
      const p = raw.percentComplete;
      if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 100)
        throw invalid('percentComplete', "'percentComplete' must be a number from 0 to 100");
      return { percentComplete: p };
    }
    default:
      return raw;
  }
}

/** Validates a create payload; a missing `processDefName` is 400 `P001`. */
export function validateProcessDto(body: unknown): ProcessDto {
  const raw = asObject(body, 'body');
  const name = raw.processDefName;
  if (name === undefined || name === null || (typeof name === 'string' && name.trim() === '')) {
    throw new FwError({
      code: 400,
      subErrorCode: ProcessErrorCodes.processDefNameMissing,
      description: "'processDefName' is required",
      field: 'processDefName',
    });
  }
  if (typeof name !== 'string') throw invalid('processDefName', "'processDefName' must be a string");
  return {
    processDefName: name,
    args: raw.args === undefined ? null : raw.args,
    triggerId: optionalString(raw, 'triggerId', 'triggerId'),
    description: optionalString(raw, 'description', 'description'),
  };
}

/** Validates a completion event given to the chaining ingress. */
export function validateCompletedEvent(body: unknown): ProcessCompletedEvent {
  const raw = asObject(body, 'body');
  const processId = requiredUuid(raw, 'processId').toLowerCase();
  const processType = raw.processType ?? raw.processDefName;
  if (typeof processType !== 'string' || processType.trim() === '')
    throw invalid('processType', "'processType' must be a non-empty string");
  const state = optionalString(raw, 'state', 'state') ?? '';
  if (raw.successful !== undefined && typeof raw.successful !== 'boolean')
    throw invalid('successful', "'successful' must be true or false");
  return {
    processDefName: processType,
    args: raw.input === undefined ? null : raw.input,
    processId,
    processType,
    tenantId: optionalString(raw, 'tenantId', 'tenantId'),
    triggerId: optionalString(raw, 'triggerId', 'triggerId'),
    description: optionalString(raw, 'description', 'description'),
    state,
    input: raw.input === undefined ? null : raw.input,
    output: raw.output === undefined ? null : raw.output,
    successful: typeof raw.successful === 'boolean' ? raw.successful : state === 'PROCESSED',
  };
}
