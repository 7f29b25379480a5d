/**
 * Up-front input validation: a process definition may carry `inputSchema`, a JSON Schema that the
 * `args` of every new process of that type must satisfy. Creating a root (`createProcess`,
 * `/process`, triggers, cron) or children (a split) with args that break it is refused at once
 * with 400 `P003` naming the field, and nothing is stored — instead of failing in a worker later.
 *
 * @example
 * const def = { processType: 'import', leaf: true, inputSchema: { type: 'object', required: ['day'], properties: { day: { type: 'string' } } } };
 * assertInputMatches(def, { day: 3 }, 'args'); // FwError 400 P003: 'args.day' must be a string
 */
import { ConfigError, FwError } from '@fw/core';
import { ProcessErrorCodes, type Process, type ProcessDef } from '@fw/process-api';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';

// strict: false — schemas are the application's data and may carry annotations ajv does not know.
const ajv = new Ajv({ allErrors: false, strict: false, allowUnionTypes: true });
/** Compiled validators by the schema's JSON text (definitions are copied per call, so identity does not hold). */
const compiled = new Map<string, ValidateFunction>();

function validatorOf(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

/**
 * Checks a definition's `inputSchema` when it is read (a source file, a database row, an admin
 * write): it must be a JSON object that ajv compiles.
 * @throws ConfigError naming `where`.
 */
export function checkInputSchema(schema: unknown, where: string): Record<string, unknown> | null {
  if (schema === undefined || schema === null) return null;
  if (typeof schema !== 'object' || Array.isArray(schema))
    throw new ConfigError(`${where}: 'inputSchema' must be a JSON Schema object`);
  try {
    validatorOf(schema);
  } catch (err) {
    throw new ConfigError(`${where}: 'inputSchema' is not a valid JSON Schema: ${(err as Error).message}`);
  }
  return schema as Record<string, unknown>;
}

/** `/numbers/0` under `args` → `args.numbers[0]`. */
function fieldOf(base: string, error: ErrorObject): string {
  let field = base;
  for (const part of error.instancePath.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    field += /^\d+$/.test(key) ? `[${key}]` : `.${key}`;
  }
  if (error.keyword === 'required')
    field += `.${String((error.params as { missingProperty: string }).missingProperty)}`;
  if (error.keyword === 'additionalProperties')
    field += `.${String((error.params as { additionalProperty: string }).additionalProperty)}`;
  return field;
}

function describe(field: string, error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return `'${field}' is required`;
    case 'additionalProperties':
      return `'${field}' is not an allowed field`;
    case 'type': {
      const type = String((error.params as { type: string }).type);
      return `'${field}' must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
    }
    default:
      return `'${field}' ${error.message ?? 'is not valid'}`;
  }
}

/**
 * Validates `input` against `def.inputSchema` (nothing to do without one).
 * @throws FwError 400 `P003` with the field (`args.day`, `subProcesses[2].args.day`).
 */
export function assertInputMatches(
  def: Pick<ProcessDef, 'processType' | 'inputSchema'>,
  input: unknown,
  field: string,
): void {
  if (!def.inputSchema) return;
  const validate = validatorOf(def.inputSchema);
  if (validate(input ?? null)) return;
  const error = (validate.errors ?? [])[0];
  if (error === undefined) return;
  const where = fieldOf(field, error);
  const description = `${describe(where, error)} (input schema of process type '${def.processType}')`;
  throw new FwError({
    code: 400,
    subErrorCode: ProcessErrorCodes.invalidPayload,
    description,
    field: where,
    params: [def.processType],
  });
}

/**
 * A definition with `parentProcessType` describes children only: creating one as a root (a create
 * call, a trigger, a crontab) is refused with 400 `P009`.
 */
export function assertRootType(
  def: Pick<ProcessDef, 'processType' | 'parentProcessType'>,
  field = 'processDefName',
): void {
  if (!def.parentProcessType) return;
  throw new FwError({
    code: 400,
    subErrorCode: ProcessErrorCodes.childOnlyType,
    description: `Process type '${def.processType}' is created only as a child of '${def.parentProcessType}', not as a root process`,
    params: [def.processType, def.parentProcessType],
    field,
  });
}

/**
 * Refuses a child whose definition names a parent type other than the splitting process's type:
 * `parentProcessType` declares where a type may appear in a tree, so a splitter that creates it
 * elsewhere is a bug to surface at once, before anything of its split is written. A definition
 * without `parentProcessType` accepts any parent.
 */
export function checkParentType(childDef: ProcessDef, parent: Process, requestIndex: number): void {
  const expected = childDef.parentProcessType;
  // One map lookup already done by the caller and one comparison here: splits of thousands of
  // children pay nothing else (the field name is only built on refusal).
  if (expected === undefined || expected === null || expected === parent.processType) return;
  throw new FwError({
    code: 400,
    subErrorCode: ProcessErrorCodes.parentTypeMismatch,
    description: `Process type '${childDef.processType}' must be a child of '${expected}', not of '${parent.processType}'`,
    params: [childDef.processType, expected, parent.processType],
    field: `subProcesses[${requestIndex}].processType`,
  });
}
