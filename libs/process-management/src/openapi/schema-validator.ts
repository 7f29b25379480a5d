/**
 * ajv (draft 2020-12, OpenAPI 3.1's dialect) set up for the schemas of an OpenAPI document:
 * `components` registered under an id so `#/components/schemas/X` references resolve, the
 * `date-time` and `uuid` formats known, and failures turned into one sentence naming the field
 * (`'payload.processDefName' must not start or end with blanks`).
 *
 * @example
 * const schemas = makeComponentValidators({ schemas: ADMIN_API_SCHEMAS });
 * const problem = schemas.check('CrontabInput', body, '');   // undefined, or the sentence
 */
import { schemaErrorField, schemaErrorSentence } from '@fw/core';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { PATTERN_MESSAGES } from './admin-api-request-schemas';
import type { JsonSchema } from './json-schema';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

let documents = 0;

/** A strict ajv that knows the OpenAPI keywords found outside schemas and the formats used here. */
export function makeSchemaAjv(allErrors: boolean): Ajv2020 {
  const ajv = new Ajv2020({ allErrors, strict: true, allowUnionTypes: true });
  ajv.addKeyword('components');
  ajv.addFormat('date-time', (value: string) => ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value)));
  ajv.addFormat('uuid', UUID);
  return ajv;
}

/** Registers `components` and returns the id that `#/components/...` references resolve against. */
export function addComponents(ajv: Ajv2020, components: { schemas: Record<string, JsonSchema> }): string {
  documents += 1;
  const id = `urn:fw:openapi-components:${documents}`;
  ajv.addSchema({ $id: id, components: { schemas: components.schemas } });
  return id;
}

/** `#/components/schemas/X` → `<id>#/components/schemas/X`, so a schema compiled on its own resolves them. */
export function anchorReferences(schema: unknown, id: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => anchorReferences(item, id));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? `${id}${value}`
        : anchorReferences(value, id);
  }
  return out;
}

/** The field an error is about: `payload.args`, `query.size`, `body` for the body itself. */
export function fieldOf(base: string, error: ErrorObject): string {
  return schemaErrorField(base, error);
}

/** One sentence for one ajv error, patterns worded by {@link PATTERN_MESSAGES}. */
export function sentenceOf(field: string, error: ErrorObject): string {
  return schemaErrorSentence(field, error, PATTERN_MESSAGES);
}

/** Validators of the component schemas of one document. */
export interface ComponentValidators {
  /** The first problem of `value` against component `name`, as a sentence; undefined when it is valid. */
  check(name: string, value: unknown, base: string): string | undefined;
  /** The first problem of `value` against `schema` (which may reference the components). */
  checkSchema(schema: JsonSchema, value: unknown, base: string): string | undefined;
}

/** Compiles lazily and caches per schema object; stops at the first error (requests need one sentence). */
export function makeComponentValidators(components: { schemas: Record<string, JsonSchema> }): ComponentValidators {
  const ajv = makeSchemaAjv(false);
  const id = addComponents(ajv, components);
  const byName = new Map<string, ValidateFunction>();
  const bySchema = new WeakMap<JsonSchema, ValidateFunction>();
  const firstProblem = (validate: ValidateFunction, value: unknown, base: string): string | undefined => {
    if (validate(value)) return undefined;
    const error = validate.errors?.[0];
    return error === undefined ? `'${base || 'body'}' is not valid` : sentenceOf(fieldOf(base, error), error);
  };
  return {
    check(name, value, base) {
      let validate = byName.get(name);
      if (validate === undefined) {
        validate = ajv.compile({ $ref: `${id}#/components/schemas/${name}` });
        byName.set(name, validate);
      }
      return firstProblem(validate, value, base);
    },
    checkSchema(schema, value, base) {
      let validate = bySchema.get(schema);
      if (validate === undefined) {
        validate = ajv.compile(anchorReferences(schema, id) as JsonSchema);
        bySchema.set(schema, validate);
      }
      return firstProblem(validate, value, base);
    },
  };
}
