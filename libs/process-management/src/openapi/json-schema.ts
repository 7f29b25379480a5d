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
export function ref<const Name extends string>(name: Name): { $ref: `#/components/schemas/${Name}` } {
  return { $ref: `#/components/schemas/${name}` };
}

// The builders keep their literal result types (`type: 'boolean'`, the properties of an object,
// its required keys): `FromJsonSchema` of @fw/core reads the TypeScript type of a wire shape from
// them, so the schema is the only place a shape is written.

export const bool = { type: 'boolean' } as const;
export const integer = { type: 'integer' } as const;
/** An ISO-8601 instant as the server writes it (`Date.toISOString()`). */
export const instant = { type: 'string', format: 'date-time' } as const;
/** Any JSON value (process input and output, completion payloads). */
export const anyJson = { description: 'any JSON value' } as const;

// A type alias, not an interface: the result of text() must stay assignable to JsonSchema.
export type TextOptions = {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  description?: string;
};

/** A string; non-empty unless `minLength` says otherwise. */
export function text(options: TextOptions = {}): { type: 'string' } & TextOptions {
  const { minLength = 1, ...rest } = options;
  return { type: 'string', ...(minLength > 0 ? { minLength } : {}), ...rest };
}

/** The type of {@link orNull}'s result: `type` becomes `[type, 'null']`, an `enum` takes null. */
export type OrNull<S extends { type: string }> = {
  [K in keyof S]: K extends 'type'
    ? [S['type'], 'null']
    : K extends 'enum'
      ? Array<S[K] extends ReadonlyArray<infer V> ? V | null : never>
      : S[K];
};

/**
 * The same schema, also allowing `null`. Type-specific keywords (maxLength, pattern, required) do
 * not apply to null; `enum` does, so null joins it.
 */
export function orNull<const S extends { type: string }>(schema: S): OrNull<S>;
export function orNull(schema: JsonSchema): JsonSchema;
export function orNull(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type !== 'string')
    throw new Error(`orNull() needs a schema with a single 'type', got ${JSON.stringify(schema)}`);
  const values = schema.enum;
  return {
    ...schema,
    type: [type, 'null'],
    ...(Array.isArray(values) ? { enum: [...values, null] } : {}),
  };
}

export function arrayOf<const Items extends JsonSchema>(
  items: Items,
  extra: JsonSchema = {},
): { type: 'array'; items: Items } {
  return { type: 'array', items, ...extra };
}

export function enumOf<const Value extends string>(
  values: readonly Value[],
  description?: string,
): { type: 'string'; enum: Value[] } {
  return { type: 'string', enum: [...values], ...(description === undefined ? {} : { description }) };
}

export interface ObjectOptions<Required extends readonly string[] | undefined = readonly string[] | undefined> {
  /** Keys that must be present (default: every property, as for the server's own answers). */
  required?: Required;
  /** Extra keywords (description, minProperties). */
  extra?: JsonSchema;
}

/** The type of {@link object}'s result. */
export type ClosedObject<Properties, Required extends readonly string[] | undefined> = {
  type: 'object';
  properties: Properties;
  required: Required extends readonly string[] ? Required : Array<keyof Properties & string>;
  additionalProperties: false;
};

/** A closed object: unknown fields are refused in requests and absent from answers. */
export function object<
  const Properties extends Record<string, JsonSchema>,
  const Required extends readonly (keyof Properties & string)[] | undefined = undefined,
>(properties: Properties, options: ObjectOptions<Required> = {}): ClosedObject<Properties, Required> {
  const required = options.required ?? Object.keys(properties);
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required: [...required] } : {}),
    additionalProperties: false,
    ...(options.extra ?? {}),
  } as ClosedObject<Properties, Required>;
}

/**
 * An object of any keys and values (process args, a JSON Schema). Said explicitly
 * (`additionalProperties: true`): generators read a bare `type: object` as an object with no
 * properties at all.
 */
export function freeObject(description?: string): { type: 'object'; additionalProperties: true } {
  return { type: 'object', additionalProperties: true, ...(description === undefined ? {} : { description }) };
}

/** An object whose values all follow `values` (any key). */
export function mapOf<const Values extends JsonSchema>(
  values: Values,
  extra: JsonSchema = {},
): { type: 'object'; additionalProperties: Values } {
  return { type: 'object', additionalProperties: values, ...extra };
}
