/**
 * Checks the JSON args of a ProcessCreate before it is sent: valid JSON, an object, and — when the
 * definition has an input schema — its required fields present with the declared JSON types (the
 * API checks the whole schema; this catches the common mistakes at once).
 */
import type { ProcessDef } from '../../api/types';

export type ArgsCheck = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(expected: unknown, actual: string): boolean {
  const list = Array.isArray(expected) ? expected : [expected];
  return list.some((t) => t === actual || (t === 'number' && actual === 'integer'));
}

export function checkArgs(text: string, def: ProcessDef | undefined): ArgsCheck {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `Not valid JSON: ${(err as Error).message}` };
  }
  if (jsonType(value) !== 'object')
    return { ok: false, error: `The args must be a JSON object, got ${jsonType(value)}` };
  const args = value as Record<string, unknown>;
  const schema = def?.inputSchema;
  if (schema && typeof schema === 'object') {
    const required = Array.isArray(schema.required)
      ? (schema.required as unknown[]).filter((r): r is string => typeof r === 'string')
      : [];
    const missing = required.filter((name) => !(name in args));
    if (missing.length > 0)
      return {
        ok: false,
        error: `Missing required field${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')} (input schema of ${def.processType})`,
      };
    const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
    for (const [name, prop] of Object.entries(properties)) {
      if (name in args && prop && prop.type !== undefined && !typeMatches(prop.type, jsonType(args[name]))) {
        return { ok: false, error: `'${name}' must be ${String(prop.type)}, got ${jsonType(args[name])}` };
      }
    }
  }
  return { ok: true, value: args };
}

/** A sample args object from the input schema (one placeholder per property). */
export function sampleArgs(def: ProcessDef | undefined): string {
  const properties = (def?.inputSchema?.properties ?? {}) as Record<string, { type?: unknown }>;
  const sample: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(properties)) {
    const t = Array.isArray(prop?.type) ? prop.type[0] : prop?.type;
    sample[name] =
      t === 'number' || t === 'integer' ? 0 : t === 'boolean' ? false : t === 'array' ? [] : t === 'object' ? {} : '';
  }
  return JSON.stringify(sample, null, 2);
}

/** A random key for an idempotent trigger (kept in the form so a retry can reuse it). */
export function newTriggerKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = c.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Which form field an API error message names. */
export function fieldOfMessage(field: string | undefined): 'definition' | 'args' | 'key' | undefined {
  if (!field) return undefined;
  if (field.startsWith('payload.args')) return 'args';
  if (field.startsWith('payload.processDefName') || field === 'processDefName') return 'definition';
  if (field === 'triggerId') return 'key';
  return undefined;
}
