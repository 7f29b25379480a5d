/**
 * Checks `/process` request bodies against the schemas of the OpenAPI description
 * (openapi/process-api-schemas.ts) before the manager runs, so what the document shows is what is
 * enforced. A failure is 400 naming the field: `P001` for a missing create `processDefName`,
 * `P003` for anything else, as the manager's own checks answer.
 *
 * @example
 * checkProcessBody('ProcessCreateRequest', req.body);  // throws FwError 400 P001 when processDefName is missing
 */
import { FwError, schemaErrorField, schemaErrorSentence } from '@fw/core';
import { ProcessErrorCodes } from '@fw/process-api';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { PROCESS_API_SCHEMAS } from '../openapi/process-api-schemas';
import { INPUT_PATTERN_MESSAGES, storedTriggerId } from '../openapi/process-input-policy';

const COMPONENTS_ID = 'urn:fw:process-api';
const ajv = new Ajv2020({ allErrors: false, strict: true, strictRequired: false, allowUnionTypes: true });
ajv.addKeyword('components');
ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
ajv.addSchema({ $id: COMPONENTS_ID, components: { schemas: PROCESS_API_SCHEMAS } });
const validators = new Map<string, ValidateFunction>();

function validatorOf(schema: string): ValidateFunction {
  let validate = validators.get(schema);
  if (validate === undefined) {
    validate = ajv.compile({ $ref: `${COMPONENTS_ID}#/components/schemas/${schema}` });
    validators.set(schema, validate);
  }
  return validate;
}

/** Throws the manager's 400 for the first problem of `body` against component `schema`; an absent or null body counts as `{}`. */
export function checkProcessBody(schema: string, body: unknown): void {
  const value = body === undefined || body === null ? {} : body;
  const validate = validatorOf(schema);
  if (validate(value)) return;
  const error = validate.errors?.[0];
  if (error === undefined) return;
  const field = schemaErrorField('', error);
  const missingName =
    schema === 'ProcessCreateRequest' &&
    field === 'processDefName' &&
    (error.keyword !== 'type' || (value as { processDefName?: unknown }).processDefName === null);
  if (missingName)
    throw new FwError({
      code: 400,
      subErrorCode: ProcessErrorCodes.processDefNameMissing,
      description: "'processDefName' is required",
      field,
    });
  throw new FwError({
    code: 400,
    subErrorCode: ProcessErrorCodes.invalidPayload,
    description: schemaErrorSentence(field, error, INPUT_PATTERN_MESSAGES),
    field,
    params: [field],
  });
}

const triggerHeaderValidator = ajv.compile(storedTriggerId('x-fw-trigger-id'));

/** Throws 400 P003 naming the header when `x-fw-trigger-id` breaks the rules of a body's `triggerId` (absent: nothing to check). */
export function checkTriggerHeader(header: string, value: string | undefined): void {
  if (value === undefined || triggerHeaderValidator(value)) return;
  const error = triggerHeaderValidator.errors?.[0];
  if (error === undefined) return;
  throw new FwError({
    code: 400,
    subErrorCode: ProcessErrorCodes.invalidPayload,
    description: schemaErrorSentence(header, error, INPUT_PATTERN_MESSAGES),
    field: header,
    params: [header],
  });
}
