/**
 * Small typed payload schemas for worker inputs and child outputs. A schema checks the fields it
 * knows and tolerates unknown ones (unknown JSON properties are tolerated, so senders may add fields).
 *
 * @example
 * const input = shape({ day: 'string', limit: 'integer?', ids: listOf('number') });
 * type Input = PayloadType<typeof input>;           // { day: string; ids: number[] } & { limit?: number }
 * input.parse({ day: '2026-01-31', ids: [1], extra: true }, 'input'); // ok, `extra` tolerated
 * input.parse({ day: 3, ids: [] }, 'input');        // WorkerPayloadError INCOMPATIBLE_FIELD_TYPE
 * input.parse({ day: 'x' }, 'input');               // WorkerPayloadError MALFORMED_PAYLOAD: 'input.ids' is required
 */
import { WorkerFailureKinds, WorkerPayloadError } from '../errors/worker-failure';

/** Anything that turns an unknown value into a `T` or throws (a {@link WorkerPayloadError} ideally). */
export interface PayloadSchema<T> {
  parse(raw: unknown, path: string): T;
  /** True for {@link optional} schemas: a field holding one may be absent. */
  readonly optional?: boolean;
}

export type PayloadType<S> = S extends PayloadSchema<infer T> ? T : never;

/** The primitive field kinds, usable in {@link shape} fields and as {@link listOf} items. */
const FIELD_KINDS = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'unknown'] as const;

export type FieldKind = (typeof FIELD_KINDS)[number];

/** A field: a kind (`'number'`), an optional kind (`'number?'`) or a nested schema. */
export type FieldSpec = FieldKind | `${FieldKind}?` | PayloadSchema<unknown>;

type KindType<K> = K extends 'string'
  ? string
  : K extends 'number' | 'integer'
    ? number
    : K extends 'boolean'
      ? boolean
      : K extends 'object'
        ? Record<string, unknown>
        : K extends 'array'
          ? unknown[]
          : unknown;

type FieldType<S> = S extends PayloadSchema<infer T> ? T : S extends `${infer K}?` ? KindType<K> : KindType<S>;
/** An optional kind (`'number?'`) or an {@link optional} schema. */
type IsOptional<S> = S extends `${string}?` ? true : S extends { readonly optional: true } ? true : false;
type OptionalKeys<S> = { [K in keyof S]: IsOptional<S[K]> extends true ? K : never }[keyof S];
type RequiredKeys<S> = Exclude<keyof S, OptionalKeys<S>>;

/** The object type described by a field map. */
export type ShapeType<S extends Record<string, FieldSpec>> = { [K in RequiredKeys<S>]: FieldType<S[K]> } & {
  [K in OptionalKeys<S>]?: FieldType<S[K]>;
};

/**
 * How a schema built here (by any copy of this package) parses a value held by a field or a list
 * item, as opposed to a whole payload: a nested object that is not one is INCOMPATIBLE_FIELD_TYPE
 * (a field of the wrong type), while a payload that is not an object is MALFORMED_PAYLOAD.
 */
const asField = Symbol.for('@fw/process-utils:asField');

/** A schema that may parse differently as a field (see {@link asField}). */
interface FieldSchema<T> extends PayloadSchema<T> {
  readonly [asField]?: (raw: unknown, path: string) => T;
}

/** An {@link optional} schema: its type says so, so a {@link shape} field holding it is optional. */
export type OptionalSchema<T> = PayloadSchema<T | undefined> & { readonly optional: true };

function isFieldKind(value: string): value is FieldKind {
  return (FIELD_KINDS as readonly string[]).includes(value);
}

/** `kind` as a {@link FieldKind}; a TypeError for an unknown one (a programming error, found when the schema is built). */
function requireKind(kind: string, where: string): FieldKind {
  if (!isFieldKind(kind))
    throw new TypeError(`unknown field kind '${kind}' for ${where} (one of ${FIELD_KINDS.join(', ')})`);
  return kind;
}

/** The kind of a field's kind spec (`'number'` or `'number?'`). */
function kindOf(spec: string, where: string): FieldKind {
  return requireKind(spec.endsWith('?') ? spec.slice(0, -1) : spec, where);
}

function kindMatches(kind: FieldKind, value: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    default:
      return true;
  }
}

/** `a string`, `an integer`, `an object`, `an array`, … */
function withArticle(word: string): string {
  return `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
}

/** What a value is, for messages: `null`, `undefined`, `an array`, `an object`, `a string`, … */
function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return withArticle(typeof value);
}

function isAbsent(value: unknown): value is null | undefined {
  return value === undefined || value === null;
}

/** INCOMPATIBLE_FIELD_TYPE unless `value` is of `kind`: `'input.n' must be a number, got a string`. */
function checkKind(kind: FieldKind, value: unknown, path: string): void {
  if (!kindMatches(kind, value)) {
    throw new WorkerPayloadError(
      WorkerFailureKinds.incompatibleFieldType,
      `'${path}' must be ${withArticle(kind)}, got ${describe(value)}`,
      path,
    );
  }
}

/** MALFORMED_PAYLOAD for a missing required field: `'input.n' is required`. */
function required(path: string): WorkerPayloadError {
  return new WorkerPayloadError(WorkerFailureKinds.malformedPayload, `'${path}' is required`, path);
}

/** Parses the value of a field or a list item with `schema` (its field form when it has one). */
function parseField<T>(schema: PayloadSchema<T>, raw: unknown, path: string): T {
  const asFieldOf = (schema as FieldSchema<T>)[asField];
  return asFieldOf ? asFieldOf(raw, path) : schema.parse(raw, path);
}

/** Checks that `raw` is a JSON object and returns it (MALFORMED_PAYLOAD otherwise). */
export function requireObject(raw: unknown, path: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new WorkerPayloadError(
      WorkerFailureKinds.malformedPayload,
      `'${path}' must be a JSON object, got ${describe(raw)}`,
      path,
    );
  }
  return raw as Record<string, unknown>;
}

/** Checks a field declared with a kind spec (`'number'`, `'number?'`); the value is kept as it is. */
function checkKindField(spec: string, value: unknown, path: string): void {
  if (isAbsent(value)) {
    if (spec.endsWith('?')) return;
    throw required(path);
  }
  checkKind(kindOf(spec, `'${path}'`), value, path);
}

/** Parses a field declared with a nested schema; absent is MALFORMED_PAYLOAD unless the schema is {@link optional}. */
function parseSchemaField(schema: PayloadSchema<unknown>, value: unknown, path: string): unknown {
  if (isAbsent(value) && !schema.optional) throw required(path);
  return parseField(schema, value, path);
}

/** Checks the known fields of `object`; returns a shallow copy holding the parsed nested values. */
function parseFields(
  fields: Record<string, FieldSpec>,
  object: Record<string, unknown>,
  path: string,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...object };
  for (const [name, spec] of Object.entries(fields)) {
    const fieldPath = `${path}.${name}`;
    if (typeof spec === 'string') checkKindField(spec, object[name], fieldPath);
    else result[name] = parseSchemaField(spec, object[name], fieldPath);
  }
  return result;
}

/** A TypeError, when a shape is built, for a field declared with an unknown kind. */
function checkKindSpecs(fields: Record<string, FieldSpec>): void {
  for (const [name, spec] of Object.entries(fields)) {
    if (typeof spec === 'string') kindOf(spec, `field '${name}'`);
  }
}

/**
 * A schema for a JSON object with the given known fields. A missing required field (undefined or
 * null) is MALFORMED_PAYLOAD for every field kind, nested schemas included; a present field of the
 * wrong type is INCOMPATIBLE_FIELD_TYPE (a nested object too); `null` counts as absent for optional
 * fields; unknown fields are kept as they are (the result is a shallow copy: the raw value is
 * never changed). The payload itself not being an object is MALFORMED_PAYLOAD.
 */
export function shape<S extends Record<string, FieldSpec>>(fields: S): PayloadSchema<ShapeType<S>> {
  checkKindSpecs(fields);
  const schema: FieldSchema<ShapeType<S>> = {
    parse: (raw, path) => parseFields(fields, requireObject(raw, path), path) as ShapeType<S>,
    [asField]: (raw, path) => {
      checkKind('object', raw, path);
      return parseFields(fields, raw as Record<string, unknown>, path) as ShapeType<S>;
    },
  };
  return schema;
}

/** Parses a list item of a primitive kind: checked, kept as it is. */
function kindItem(kind: FieldKind): (value: unknown, path: string) => unknown {
  return (value, path) => {
    checkKind(kind, value, path);
    return value;
  };
}

/**
 * A schema for a list whose items all follow `item`: a field kind for a list of primitives
 * (`listOf('number')` is `number[]`, `listOf('string')` is `string[]`) or a nested schema
 * (`listOf(shape({...}))`). Each item is checked; a bad one is INCOMPATIBLE_FIELD_TYPE named by its
 * index: `'input.numbers[2]' must be a number, got a string`. A value that is not a list is
 * INCOMPATIBLE_FIELD_TYPE: `'input.numbers' must be an array, got an object`.
 */
export function listOf<K extends FieldKind>(item: K): PayloadSchema<KindType<K>[]>;
export function listOf<T>(item: PayloadSchema<T>): PayloadSchema<T[]>;
export function listOf<T>(item: PayloadSchema<T> | FieldKind): PayloadSchema<unknown[]> {
  const parseItem =
    typeof item === 'string'
      ? kindItem(requireKind(item, 'listOf'))
      : (value: unknown, path: string): unknown => parseField(item, value, path);
  return {
    parse(raw, path) {
      checkKind('array', raw, path);
      return (raw as unknown[]).map((value, i) => parseItem(value, `${path}[${i}]`));
    },
  };
}

/** Makes a nested schema optional (undefined and null pass as undefined); a {@link shape} field holding it is optional. */
export function optional<T>(schema: PayloadSchema<T>): OptionalSchema<T> {
  const optionalSchema: FieldSchema<T | undefined> & { readonly optional: true } = {
    optional: true,
    parse: (raw, path) => (isAbsent(raw) ? undefined : schema.parse(raw, path)),
    [asField]: (raw, path) => (isAbsent(raw) ? undefined : parseField(schema, raw, path)),
  };
  return optionalSchema;
}
