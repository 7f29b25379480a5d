/**
 * One input policy at the edge of every HTTP entry point: text may not carry U+0000 or other C0
 * control characters (tab, newline and carriage return aside, which free text uses). PostgreSQL
 * cannot store U+0000 in text or jsonb at all, and the other control characters are junk that
 * cannot be seen in a list. A request with one is refused with 400 `FW400C` naming the field —
 * in a body (`args.text`, `payload.args.items[2]`), in an object key, or in a query parameter
 * (`query.triggerId`) — before any handler runs, so nothing is stored. A body nested deeper than
 * 64 levels is refused the same way (400 `FW400D`).
 *
 * @example
 * findControlCharacter({ args: { text: 'a\u0000b' } }); // { field: 'args.text', codePoint: 0 }
 */
import { CoreErrorCodes, FwError } from '../errors/fw-error';

/** C0 controls except tab (U+0009), newline (U+000A) and carriage return (U+000D). */
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's purpose
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

export interface ControlCharacterHit {
  field: string;
  codePoint: number;
}

function join(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return base === '' ? key : `${base}.${key}`;
}

/** The first forbidden control character in `value` (strings, array items, object keys and values), with its path. */
export function findControlCharacter(value: unknown, path = '', depth = 0): ControlCharacterHit | undefined {
  if (typeof value === 'string') {
    const found = FORBIDDEN.exec(value);
    return found ? { field: path || 'body', codePoint: found[0].charCodeAt(0) } : undefined;
  }
  // Deeper than any sane request: express.json and the schemas bound what reaches a handler.
  if (typeof value !== 'object' || value === null || depth > 64) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findControlCharacter(value[i], join(path, i), depth + 1);
      if (hit) return hit;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyHit = FORBIDDEN.exec(key);
    if (keyHit) return { field: join(path, key), codePoint: keyHit[0].charCodeAt(0) };
    const hit = findControlCharacter(item, join(path, key), depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

/** The 400 of a control character: `FW400C`, naming the field and the character. */
export function controlCharacterError(hit: ControlCharacterHit): FwError {
  const code = `U+${hit.codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  return new FwError({
    code: 400,
    subErrorCode: CoreErrorCodes.controlCharacter,
    description: `'${hit.field}' contains the control character ${code}, which is not allowed`,
    field: hit.field,
    params: [hit.field, code],
  });
}

/**
 * Deepest nesting of arrays and objects a request may carry. JSON.parse takes far deeper bodies,
 * but what is built from them later (JSON.stringify for a jsonb column, the database's own
 * parser) overflows its stack on them: a 500 for a client mistake. Real inputs stay far below.
 */
export const MAX_INPUT_DEPTH = 64;

/** The path of the first value nested deeper than {@link MAX_INPUT_DEPTH} levels, or undefined. */
export function findExcessiveNesting(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_INPUT_DEPTH) return path || 'body';
  const entries: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.map((item, i) => [i, item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    const hit = findExcessiveNesting(item, join(path, key), depth + 1);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** The 400 of a value nested too deep: `FW400D`, naming where the limit was passed. */
export function excessiveNestingError(field: string): FwError {
  return new FwError({
    code: 400,
    subErrorCode: CoreErrorCodes.tooDeep,
    description: `'${field}' is nested deeper than ${MAX_INPUT_DEPTH} levels of arrays and objects, which is not allowed`,
    field,
    params: [field, MAX_INPUT_DEPTH],
  });
}

/**
 * Throws {@link controlCharacterError} for the first control character of a body or of query
 * parameters, and {@link excessiveNestingError} for a body nested deeper than
 * {@link MAX_INPUT_DEPTH} levels.
 */
export function assertNoControlCharacters(body: unknown, query?: Record<string, unknown>): void {
  const inQuery = query === undefined ? undefined : findControlCharacter(query, 'query');
  const hit = inQuery ?? findControlCharacter(body);
  if (hit) throw controlCharacterError(hit);
  const tooDeep = findExcessiveNesting(body);
  if (tooDeep !== undefined) throw excessiveNestingError(tooDeep);
}
