/**
 * fast-check arbitraries generated from the JSON Schemas of the OpenAPI document: values the
 * schema admits, with (when `hostile` is set) any node replaced now and then by a hostile value,
 * unknown fields added and required ones dropped. Hints by property name steer valid values
 * towards records that exist (definition names, crontab ids), so the 2xx paths are taken too.
 *
 * @example
 * const body = schemaArbitrary(ref('CrontabInput'), { components, hostile: true, hints: { timezone: fc.constant('UTC') } });
 */
import fc from 'fast-check';
import type { JsonSchema } from '../../src';
import { hostileValue, unknownFieldName } from './hostile-values';
import type { JsonValue } from './json-value';

export type { JsonValue } from './json-value';

export interface ArbitraryOptions {
  components: Record<string, JsonSchema>;
  /** Mix hostile values, unknown fields and missing required fields into the valid ones. */
  hostile: boolean;
  /** Valid values to prefer for properties of that name. */
  hints?: Record<string, fc.Arbitrary<JsonValue>>;
}

const smallJson = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>;

function numberOf(schema: JsonSchema, key: string): number | undefined {
  const value = schema[key];
  return typeof value === 'number' ? value : undefined;
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<JsonValue> {
  const minLength = numberOf(schema, 'minLength') ?? 0;
  const maxLength = numberOf(schema, 'maxLength') ?? 60;
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : undefined;
  const lengthOk = (s: string) => [...s].length >= minLength && [...s].length <= maxLength;
  const base =
    pattern === undefined
      ? fc.string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength, 40) })
      : fc.stringMatching(new RegExp(pattern, 'u')).filter(lengthOk);
  // The longest value the schema admits, which the server must store as well.
  const longest =
    pattern === undefined || new RegExp(pattern, 'u').test('x'.repeat(maxLength))
      ? fc.constant('x'.repeat(maxLength))
      : base;
  return fc.oneof({ weight: 6, arbitrary: base }, { weight: 1, arbitrary: longest });
}

function integerArbitrary(schema: JsonSchema): fc.Arbitrary<JsonValue> {
  const min = numberOf(schema, 'minimum') ?? -1_000;
  const max = numberOf(schema, 'maximum') ?? 1_000;
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min, max: Math.min(max, min + 1_000) }) },
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
  );
}

function objectArbitrary(schema: JsonSchema, options: ArbitraryOptions, depth: number): fc.Arbitrary<JsonValue> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  if (Object.keys(properties).length === 0) {
    const values =
      typeof schema.additionalProperties === 'object'
        ? schemaArbitrary(schema.additionalProperties as JsonSchema, options, depth + 1)
        : smallJson;
    return fc.dictionary(fc.string({ maxLength: 10 }), values, { maxKeys: 4 }) as fc.Arbitrary<JsonValue>;
  }
  const model: Record<string, fc.Arbitrary<JsonValue>> = {};
  for (const [name, property] of Object.entries(properties)) {
    const hint = options.hints?.[name];
    const fromSchema = schemaArbitrary(property, options, depth + 1);
    model[name] =
      hint === undefined ? fromSchema : fc.oneof({ weight: 3, arbitrary: hint }, { weight: 1, arbitrary: fromSchema });
  }
  const minProperties = numberOf(schema, 'minProperties') ?? 0;
  const record = fc
    .record(model, { requiredKeys: [...required] })
    .filter((o) => Object.keys(o).length >= minProperties) as fc.Arbitrary<Record<string, JsonValue>>;
  if (!options.hostile) return record;
  return fc.oneof(
    { weight: 16, arbitrary: record },
    {
      weight: 1,
      arbitrary: fc.tuple(record, unknownFieldName, hostileValue).map(([o, key, value]) => withOwnField(o, key, value)),
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
  schema: JsonSchema,
  options: ArbitraryOptions,
  depth: number,
): fc.Arbitrary<JsonValue> {
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schemaArbitrary((schema.items ?? {}) as JsonSchema, options, depth + 1), { maxLength: 4 });
    default:
      return objectArbitrary(schema, options, depth);
  }
}

function validArbitrary(schema: JsonSchema, options: ArbitraryOptions, depth: number): fc.Arbitrary<JsonValue> {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = options.components[name];
    if (target === undefined) throw new Error(`No component schema '${name}'`);
    return schemaArbitrary(target, options, depth);
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const { [key]: _branches, ...rest } = schema;
    // Branches beside other keywords only add constraints (anyOf: [{ required: ['a'] }, …]): merge each into the rest.
    const merged = (b: JsonSchema): JsonSchema =>
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
    return fc.oneof(...(branches as JsonSchema[]).map((b) => schemaArbitrary(merged(b), options, depth)));
  }
  if ('const' in schema) return fc.constant(schema.const as JsonValue);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as JsonValue[]));
  const type = schema.type;
  if (Array.isArray(type)) return fc.oneof(...(type as string[]).map((t) => typedArbitrary(t, schema, options, depth)));
  if (typeof type === 'string') return typedArbitrary(type, schema, options, depth);
  return smallJson;
}

/** Values of `schema`; with `hostile`, any node may be replaced by a hostile value. */
export function schemaArbitrary(schema: JsonSchema, options: ArbitraryOptions, depth = 0): fc.Arbitrary<JsonValue> {
  const valid = validArbitrary(schema, options, depth);
  if (!options.hostile) return valid;
  return fc.oneof({ weight: 25, arbitrary: valid }, { weight: 1, arbitrary: hostileValue });
}
