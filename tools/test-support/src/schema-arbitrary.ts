/**
 * fast-check arbitraries of the values a JSON Schema (draft 2020-12, as OpenAPI 3.1 documents
 * hold them) admits: `$ref` into the document's components, `type` (one or several), `enum`,
 * `const`, `anyOf`/`oneOf`, string lengths, `pattern` and `format`, number bounds (exclusive ones
 * too), array lengths, object
 * `properties`/`required`/`additionalProperties`/`minProperties`. Only valid values are made:
 * these requests check that the server accepts what its document allows.
 *
 * Strings are drawn from printable graphemes (any script, emoji): the hosts refuse C0 control
 * characters in every field by a rule of their own, which their documents state once (the 400
 * answers) rather than in each string's schema.
 *
 * With `hostile`, the values are no longer all valid: any node may be replaced by a hostile value,
 * objects may gain an unknown field or lose a required one — the property suites check that the
 * server refuses those with a clear answer and stores nothing.
 *
 * @example
 * const body = schemaArbitrary({ $ref: '#/components/schemas/CrontabInput' }, { document, hints: {} });
 */
import fc from 'fast-check';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
type Schema = Record<string, unknown>;

export interface SchemaArbitraryOptions {
  /** The document whose `#/components/...` references are followed. */
  document: { components?: Record<string, Record<string, unknown>> };
  /**
   * Values for properties of that name that the server checks against stored records or
   * semantics a schema cannot state (an existing definition, a cron expression croner parses).
   */
  hints?: Record<string, fc.Arbitrary<JsonValue | undefined>>;
  /** Draw hinted properties from their schema too (one time in four), not only from the hint. */
  mixHints?: boolean;
  /** Mix hostile values, unknown fields and missing required fields into the valid ones. */
  hostile?: HostileValues;
}

/** What a hostile client sends instead of a valid value, and the names of fields no schema has. */
export interface HostileValues {
  value: fc.Arbitrary<JsonValue>;
  unknownFieldName: fc.Arbitrary<string>;
}

const MAX_DEPTH = 4;
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/u;
const anyJson: fc.Arbitrary<JsonValue> = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>;

function numberOf(schema: Schema, key: string): number | undefined {
  const value = schema[key];
  return typeof value === 'number' ? value : undefined;
}

/** The schema a `$ref` points to in the document. */
export function resolveRef(document: SchemaArbitraryOptions['document'], ref: string): Schema {
  const [, kind, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(ref) ?? [];
  const target = kind === undefined ? undefined : document.components?.[kind]?.[name];
  if (typeof target !== 'object' || target === null) throw new Error(`unresolved reference ${ref}`);
  return target as Schema;
}

/** Strings of the formats the documents use (a generator ignoring `format` would make values the server rightly refuses). */
const FORMATS: Record<string, fc.Arbitrary<JsonValue>> = {
  'date-time': fc
    .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  uuid: fc.uuid(),
};

function stringArbitrary(schema: Schema): fc.Arbitrary<JsonValue> {
  if (typeof schema.format === 'string') {
    const formatted = FORMATS[schema.format];
    if (formatted === undefined) throw new Error(`no values for format ${schema.format}`);
    return formatted;
  }
  const minLength = numberOf(schema, 'minLength') ?? 0;
  const maxLength = numberOf(schema, 'maxLength') ?? 80;
  const lengthOk = (s: string) => [...s].length >= minLength && [...s].length <= maxLength;
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    // fast-check cannot make strings for lookarounds: make them for the pattern without its
    // lookarounds, and keep those the whole pattern matches.
    const generated = new RegExp(schema.pattern.replace(/\(\?<?[=!](?:[^()\\]|\\.)*\)/g, ''), 'u');
    // stringMatching makes any character a class allows, controls included: keep the printable ones.
    return fc.stringMatching(generated).filter((s) => pattern.test(s) && lengthOk(s) && !CONTROL_CHARACTER.test(s));
  }
  const base = fc.string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength, 40) }).filter(lengthOk);
  const longest = fc.constant('x'.repeat(maxLength));
  return fc.oneof({ weight: 8, arbitrary: base }, { weight: 1, arbitrary: longest });
}

function integerArbitrary(schema: Schema): fc.Arbitrary<JsonValue> {
  const exclusiveMin = numberOf(schema, 'exclusiveMinimum');
  const exclusiveMax = numberOf(schema, 'exclusiveMaximum');
  const min = exclusiveMin === undefined ? (numberOf(schema, 'minimum') ?? -1_000_000) : Math.floor(exclusiveMin) + 1;
  const max = exclusiveMax === undefined ? (numberOf(schema, 'maximum') ?? 1_000_000) : Math.ceil(exclusiveMax) - 1;
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min, max }) },
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
  );
}

function numberArbitrary(schema: Schema): fc.Arbitrary<JsonValue> {
  const exclusiveMin = numberOf(schema, 'exclusiveMinimum');
  const exclusiveMax = numberOf(schema, 'exclusiveMaximum');
  const min = exclusiveMin ?? numberOf(schema, 'minimum') ?? -1e9;
  const max = exclusiveMax ?? numberOf(schema, 'maximum') ?? 1e9;
  return fc.double({
    min,
    max,
    minExcluded: exclusiveMin !== undefined,
    maxExcluded: exclusiveMax !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

function objectArbitrary(schema: Schema, options: SchemaArbitraryOptions, depth: number): fc.Arbitrary<JsonValue> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const additional = schema.additionalProperties;
  if (Object.keys(properties).length === 0) {
    if (additional === false) return fc.constant({});
    const values =
      typeof additional === 'object' && additional !== null
        ? schemaArbitrary(additional as Schema, options, depth + 1)
        : anyJson;
    return fc.dictionary(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }), values, {
      maxKeys: 4,
    }) as fc.Arbitrary<JsonValue>;
  }
  const model: Record<string, fc.Arbitrary<JsonValue | undefined>> = {};
  for (const [name, property] of Object.entries(properties))
    model[name] = propertyArbitrary(name, property, options, depth);
  const minProperties = numberOf(schema, 'minProperties') ?? 0;
  // A hint may say "leave it out" (undefined): such keys are dropped.
  const present = (o: Record<string, JsonValue | undefined>): Record<string, JsonValue> =>
    Object.fromEntries(Object.entries(o).filter((e): e is [string, JsonValue] => e[1] !== undefined));
  const record = fc
    .record(model, { requiredKeys: required.filter((r) => r in properties) })
    .map(present)
    .filter((o) => Object.keys(o).length >= minProperties);
  return options.hostile === undefined ? record : spoiledRecord(record, required, options.hostile);
}

function propertyArbitrary(
  name: string,
  property: Schema,
  options: SchemaArbitraryOptions,
  depth: number,
): fc.Arbitrary<JsonValue | undefined> {
  const hint = options.hints?.[name];
  if (hint === undefined) return schemaArbitrary(property, options, depth + 1);
  if (!options.mixHints) return hint;
  return fc.oneof(
    { weight: 3, arbitrary: hint },
    { weight: 1, arbitrary: schemaArbitrary(property, options, depth + 1) },
  );
}

/** Now and then an unknown field more, or a required one less. */
function spoiledRecord(
  record: fc.Arbitrary<Record<string, JsonValue>>,
  required: string[],
  hostile: HostileValues,
): fc.Arbitrary<JsonValue> {
  return fc.oneof(
    { weight: 16, arbitrary: record },
    {
      weight: 1,
      arbitrary: fc
        .tuple(record, hostile.unknownFieldName, hostile.value)
        .map(([o, key, value]) => withOwnField(o, key, value)),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(record, fc.constantFrom(...required, 'none')).map(([o, key]) => withoutField(o, key)),
    },
  );
}

/** A copy with `key` as an own enumerable field, even `__proto__` (so JSON.stringify writes it). */
function withOwnField(o: Record<string, JsonValue>, key: string, value: JsonValue): JsonValue {
  const copy: Record<string, JsonValue> = { ...o };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function withoutField(o: Record<string, JsonValue>, key: string): JsonValue {
  const copy: Record<string, JsonValue> = { ...o };
  delete copy[key];
  return copy;
}

function typedArbitrary(
  type: string,
  schema: Schema,
  options: SchemaArbitraryOptions,
  depth: number,
): fc.Arbitrary<JsonValue> {
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items =
        depth >= MAX_DEPTH ? fc.constant(null) : schemaArbitrary((schema.items ?? {}) as Schema, options, depth + 1);
      return fc.array(items, {
        minLength: numberOf(schema, 'minItems') ?? 0,
        maxLength: Math.min(numberOf(schema, 'maxItems') ?? 4, 4),
      });
    }
    case 'object':
      return objectArbitrary(schema, options, depth);
    default:
      throw new Error(`no values for type ${type}`);
  }
}

/** Values `schema` admits; with `hostile`, any node may also be replaced by a hostile value. */
export function schemaArbitrary(schema: Schema, options: SchemaArbitraryOptions, depth = 0): fc.Arbitrary<JsonValue> {
  const valid = validArbitrary(schema, options, depth);
  if (options.hostile === undefined) return valid;
  return fc.oneof({ weight: 25, arbitrary: valid }, { weight: 1, arbitrary: options.hostile.value });
}

function validArbitrary(schema: Schema, options: SchemaArbitraryOptions, depth: number): fc.Arbitrary<JsonValue> {
  if (typeof schema.$ref === 'string')
    return schemaArbitrary(resolveRef(options.document, schema.$ref), options, depth);
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const { [key]: _branches, ...rest } = schema;
    // Branches beside other keywords add constraints to them (anyOf: [{ required: ['a'] }, …]): merge each in.
    const merged = (b: Schema): Schema =>
      Object.keys(rest).length === 0
        ? b
        : {
            ...rest,
            ...b,
            required: [
              ...((rest.required as string[] | undefined) ?? []),
              ...((b.required as string[] | undefined) ?? []),
            ],
          };
    return fc.oneof(...(branches as Schema[]).map((b) => schemaArbitrary(merged(b), options, depth)));
  }
  if ('const' in schema) return fc.constant(schema.const as JsonValue);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as JsonValue[]));
  const type = schema.type;
  if (Array.isArray(type)) return fc.oneof(...(type as string[]).map((t) => typedArbitrary(t, schema, options, depth)));
  if (typeof type === 'string') return typedArbitrary(type, schema, options, depth);
  return anyJson;
}
