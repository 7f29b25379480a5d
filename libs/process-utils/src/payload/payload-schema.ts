/**
 * Small typed payload schemas for worker inputs and child outputs. A schema checks the fields it
 * knows and tolerates unknown ones (spec 2: unknown JSON properties are tolerated).
 *
 * @example
 * const input = shape({ day: 'string', limit: 'integer?' });
 * type Input = PayloadType<typeof input>;           // { day: string; limit?: number }
 * input.parse({ day: '2026-01-31', extra: true }, 'input'); // ok, `extra` tolerated
 * input.parse({ day: 3 }, 'input');                 // WorkerPayloadError INCOMPATIBLE_FIELD_TYPE
 */
import { WorkerFailureKinds, WorkerPayloadError } from '../errors/worker-failure';

/** Anything that turns an unknown value into a `T` or throws (a {@link WorkerPayloadError} ideally). */
export interface PayloadSchema<T> {
  parse(raw: unknown, path: string): T;
}

export type PayloadType<S> = S extends PayloadSchema<infer T> ? T : never;

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'unknown';

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
type OptionalKeys<S> = { [K in keyof S]: S[K] extends `${string}?` ? K : never }[keyof S];
type RequiredKeys<S> = Exclude<keyof S, OptionalKeys<S>>;

/** The object type described by a field map. */
export type ShapeType<S extends Record<string, FieldSpec>> = { [K in RequiredKeys<S>]: FieldType<S[K]> } & { [K in OptionalKeys<S>]?: FieldType<S[K]> };

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

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Checks that `raw` is a JSON object and returns it (MALFORMED_PAYLOAD otherwise). */
export function requireObject(raw: unknown, path: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new WorkerPayloadError(WorkerFailureKinds.malformedPayload, `'${path}' must be a JSON object, got ${describe(raw)}`, path);
  }
  return raw as Record<string, unknown>;
}

/**
 * A schema for a JSON object with the given known fields. A missing required field is
 * MALFORMED_PAYLOAD, a field of the wrong type INCOMPATIBLE_FIELD_TYPE; `null` counts as absent
 * for optional fields; unknown fields are kept as they are (the result is a shallow copy:
 * the raw value is never changed).
 */
export function shape<S extends Record<string, FieldSpec>>(fields: S): PayloadSchema<ShapeType<S>> {
  return {
    parse(raw, path) {
      const object = requireObject(raw, path);
      const result: Record<string, unknown> = { ...object };
      for (const [name, spec] of Object.entries(fields)) {
        const fieldPath = `${path}.${name}`;
        const value = object[name];
        if (typeof spec !== 'string') {
          result[name] = spec.parse(value, fieldPath);
          continue;
        }
        const optional = spec.endsWith('?');
        const kind = (optional ? spec.slice(0, -1) : spec) as FieldKind;
        if (value === undefined || value === null) {
          if (optional) continue;
          throw new WorkerPayloadError(WorkerFailureKinds.malformedPayload, `'${fieldPath}' is required`, fieldPath);
        }
        if (!kindMatches(kind, value)) {
          throw new WorkerPayloadError(WorkerFailureKinds.incompatibleFieldType, `'${fieldPath}' must be ${kind === 'integer' ? 'an integer' : `a ${kind}`}, got ${describe(value)}`, fieldPath);
        }
      }
      return result as ShapeType<S>;
    },
  };
}

/** A schema for a list whose items all follow `item`. */
export function listOf<T>(item: PayloadSchema<T>): PayloadSchema<T[]> {
  return {
    parse(raw, path) {
      if (!Array.isArray(raw)) throw new WorkerPayloadError(WorkerFailureKinds.incompatibleFieldType, `'${path}' must be an array, got ${describe(raw)}`, path);
      return raw.map((v, i) => item.parse(v, `${path}[${i}]`));
    },
  };
}

/** Makes a nested schema optional (undefined and null pass as undefined). */
export function optional<T>(schema: PayloadSchema<T>): PayloadSchema<T | undefined> {
  return { parse: (raw, path) => (raw === undefined || raw === null ? undefined : schema.parse(raw, path)) };
}
