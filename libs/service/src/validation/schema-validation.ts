/**
 * Operation inputs and outputs checked against their JSON Schemas with ajv. A bad input is 400
 * `SVC400` naming the field (`body.name`, `body.items[2].qty`); every problem found is listed.
 */
import { FwError } from '@fw/core';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { JsonSchema } from '../definition/service-definition';
import { ServiceErrorCodes } from '../errors/service-errors';

// strict: false — schemas are the application's, and may carry annotations (examples, titles).
const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
const cache = new WeakMap<JsonSchema, ValidateFunction>();

/** The compiled validator of a schema (compiled once per schema object). */
export function validatorOf(schema: JsonSchema): ValidateFunction {
  let validate = cache.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    cache.set(schema, validate);
  }
  return validate;
}

function fieldOf(base: string, error: ErrorObject): string {
  let field = base;
  for (const part of error.instancePath.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    field += /^\d+$/.test(key) ? `[${key}]` : `.${key}`;
  }
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  if (error.keyword === 'required' && params.missingProperty) field += `.${params.missingProperty}`;
  if (error.keyword === 'additionalProperties' && params.additionalProperty) field += `.${params.additionalProperty}`;
  return field;
}

function sentence(field: string, error: ErrorObject): string {
  if (error.keyword === 'required') return `'${field}' is required`;
  if (error.keyword === 'additionalProperties') return `'${field}' is not an allowed field`;
  return `'${field}' ${error.message ?? 'is not valid'}`;
}

/** Checks `input`; throws 400 SVC400 with one detail per problem. */
export function assertValidInput(schema: JsonSchema | undefined, input: unknown, base: string, where: string): void {
  if (schema === undefined) return;
  const validate = validatorOf(schema);
  if (validate(input)) return;
  const errors = validate.errors ?? [];
  const details = errors.map((e) => {
    const field = fieldOf(base, e);
    return { subErrorCode: ServiceErrorCodes.invalidInput, description: sentence(field, e), params: [where], field };
  });
  const first = details[0];
  throw new FwError({
    code: 400,
    subErrorCode: ServiceErrorCodes.invalidInput,
    description: first?.description ?? `the input of ${where} is not valid`,
    params: [where],
    field: first?.field,
    details: details.slice(1),
  });
}

/** Problems of an output, as one line (empty when it matches). */
export function outputProblems(schema: JsonSchema | undefined, output: unknown): string | undefined {
  if (schema === undefined) return undefined;
  const validate = validatorOf(schema);
  if (validate(output)) return undefined;
  return (validate.errors ?? []).map((e) => sentence(fieldOf('output', e), e)).join('; ');
}
