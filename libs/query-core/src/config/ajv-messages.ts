import type { ErrorObject } from 'ajv';

/** Converts an ajv instance path (`/query/datasources/t1`) to a dotted key path (`query.datasources.t1`). */
export function keyPath(instancePath: string, prefix = ''): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let out = prefix;
  for (const part of parts) {
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

const TYPE_NAMES: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function integerRange(schema: { type?: unknown; minimum?: unknown; maximum?: unknown }): string | undefined {
  if (schema.type !== 'integer') return undefined;
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  if (min !== undefined && max !== undefined) return `an integer from ${min} to ${max}`;
  if (min !== undefined) return `an integer ≥ ${min}`;
  if (max !== undefined) return `an integer ≤ ${max}`;
  return undefined;
}

/** One readable problem derived from an ajv error: the key path it concerns and a sentence. */
export interface SchemaProblem {
  path: string;
  message: string;
  /** The schema keyword that failed (`type`, `additionalProperties`, `minimum`, ...). */
  keyword: string;
}

/**
 * Translates ajv errors into `{ path, message }` pairs with dotted paths, for example
 * `query.datasources.t1.maximumPoolSize must be an integer ≥ 1`.
 */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined, prefix = ''): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors ?? []) {
    const propertyName = (error as { propertyName?: string }).propertyName;
    const base = keyPath(error.instancePath, prefix);
    const path = propertyName === undefined ? base : join(base, propertyName);
    const params = error.params as Record<string, unknown>;
    const parent = (error.parentSchema ?? {}) as { type?: unknown; minimum?: unknown; maximum?: unknown };
    const range = integerRange(parent);
    let target = path;
    let message: string;
    switch (error.keyword) {
      case 'additionalProperties':
        target = join(path, String(params.additionalProperty));
        message = `${target} is not a known property`;
        break;
      case 'required':
        target = join(path, String(params.missingProperty));
        message = `${target} is required`;
        break;
      case 'type': {
        const types = String(params.type).split(',');
        message = `${path || 'the value'} must be ${range ?? types.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}`;
        break;
      }
      case 'minimum':
        message = `${path} must be ${range ?? `≥ ${String(params.limit)}`}`;
        break;
      case 'maximum':
        message = `${path} must be ${range ?? `≤ ${String(params.limit)}`}`;
        break;
      case 'minLength':
        message = `${path} must not be empty`;
        break;
      case 'maxLength':
        message = `${path} must be at most ${String(params.limit)} characters`;
        break;
      case 'pattern':
        message = `${path} must match ${String(params.pattern)}`;
        break;
      case 'enum':
        message = `${path} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
        break;
      case 'propertyNames':
        continue; // reported by the nested error on the property name
      default:
        message = `${path || 'the value'} ${error.message ?? 'is invalid'}`;
    }
    // "must be an integer" + "must be ≥ 1" on one key read better merged.
    const key = `${target}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path: target, message, keyword: error.keyword });
  }
  return out;
}
