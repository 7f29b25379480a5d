/**
 * JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as plain data, and the few builders the
 * administration API's schemas are written with. The same objects are compiled by ajv to check
 * requests and copied into the OpenAPI document, so a limit written here is enforced and
 * documented at once.
 *
 * @example
 * const crontabName = text({ maxLength: 200, pattern: NO_OUTER_BLANKS });
 * const body = object({ name: crontabName, enabled: bool }, ['name']);
 */

/** A JSON Schema object. Keywords are read by ajv and by OpenAPI tools, never by this code's types. */
export interface JsonSchema {
  readonly [keyword: string]: unknown;
}

/** `#/components/schemas/<name>`. */
export function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

export const bool: JsonSchema = { type: 'boolean' };
export const integer: JsonSchema = { type: 'integer' };
/** An ISO-8601 instant as the server writes it (`Date.toISOString()`). */
export const instant: JsonSchema = { type: 'string', format: 'date-time' };
/** Any JSON value (process input and output, completion payloads). */
export const anyJson: JsonSchema = { description: 'any JSON value' };

export interface TextOptions {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  description?: string;
}

/** A string; non-empty unless `minLength` says otherwise. */
export function text(options: TextOptions = {}): JsonSchema {
  const { minLength = 1, ...rest } = options;
  return { type: 'string', ...(minLength > 0 ? { minLength } : {}), ...rest };
}

/**
 * The same schema, also allowing `null`. Type-specific keywords (maxLength, pattern, required) do
 * not apply to null; `enum` does, so null joins it.
 */
export function orNull(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type !== 'string')
    throw new Error(`orNull() needs a schema with a single 'type', got ${JSON.stringify(schema)}`);
  const values = schema.enum;
  return { ...schema, type: [type, 'null'], ...(Array.isArray(values) ? { enum: [...values, null] } : {}) };
}

export function arrayOf(items: JsonSchema, extra: JsonSchema = {}): JsonSchema {
  return { type: 'array', items, ...extra };
}

export function enumOf(values: readonly string[], description?: string): JsonSchema {
  return { type: 'string', enum: [...values], ...(description === undefined ? {} : { description }) };
}

export interface ObjectOptions {
  /** Keys that must be present (default: every property, as for the server's own answers). */
  required?: readonly string[];
  /** Extra keywords (description, minProperties). */
  extra?: JsonSchema;
}

/** A closed object: unknown fields are refused in requests and absent from answers. */
export function object(properties: Record<string, JsonSchema>, options: ObjectOptions = {}): JsonSchema {
  const required = options.required ?? Object.keys(properties);
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required: [...required] } : {}),
    additionalProperties: false,
    ...(options.extra ?? {}),
  };
}

/**
 * An object of any keys and values (process args, a JSON Schema). Said explicitly
 * (`additionalProperties: true`): generators read a bare `type: object` as an object with no
 * properties at all.
 */
export function freeObject(description?: string): JsonSchema {
  return { type: 'object', additionalProperties: true, ...(description === undefined ? {} : { description }) };
}

/** An object whose values all follow `values` (any key). */
export function mapOf(values: JsonSchema, extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', additionalProperties: values, ...extra };
}
