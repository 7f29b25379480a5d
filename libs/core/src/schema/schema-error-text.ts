/**
 * Failures of a JSON Schema validator (ajv's error objects, or anything of the same shape) as one
 * sentence naming the field, the way every fw entry point answers a 400:
 * `'payload.processDefName' must not start or end with blanks`, `'query.size' must be at most 100`.
 * Plain functions over the error's shape, so packages share the wording without sharing a
 * validator instance.
 *
 * @example
 * const field = schemaErrorField('', error);        // 'payload.args'
 * const text = schemaErrorSentence(field, error);   // "'payload.args' must be an object or null"
 */

/** The parts of a validator error (ajv's ErrorObject) the sentence is made of. */
export interface SchemaErrorLike {
  keyword: string;
  /** JSON Pointer of the value, `''` for the root. */
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

function join(base: string, key: string): string {
  if (/^\d+$/.test(key)) return `${base}[${key}]`;
  return base === '' ? key : `${base}.${key}`;
}

/** The field an error is about: `payload.args`, `query.size`, `items[2]`; `body` for the root itself. */
export function schemaErrorField(base: string, error: SchemaErrorLike): string {
  let field = base;
  for (const part of error.instancePath.split('/').slice(1))
    field = join(field, part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const { missingProperty, additionalProperty } = error.params;
  if (error.keyword === 'required' && typeof missingProperty === 'string') field = join(field, missingProperty);
  if (error.keyword === 'additionalProperties' && typeof additionalProperty === 'string')
    field = join(field, additionalProperty);
  return field === '' ? 'body' : field;
}

const TYPE_PHRASES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function typePhrase(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => TYPE_PHRASES[String(t)] ?? String(t)).join(' or ');
}

function valuesPhrase(values: unknown): string {
  const list = Array.isArray(values) ? values : [];
  const named = list
    .filter((v) => v !== null)
    .map(String)
    .join(', ');
  return list.includes(null) ? `${named} (or null)` : named;
}

/**
 * One sentence for one error. `patternMessages` words a failed `pattern` by the pattern's source
 * (`'^\\S(?:[\\s\\S]*\\S)?$'` → `must not start or end with blanks`), else the pattern is shown.
 */
export function schemaErrorSentence(
  field: string,
  error: SchemaErrorLike,
  patternMessages: ReadonlyMap<string, string> = new Map(),
): string {
  const { limit, type, pattern, allowedValues, allowedValue } = error.params;
  switch (error.keyword) {
    case 'required':
      return `'${field}' is required`;
    case 'additionalProperties':
      return `'${field}' is not an allowed field`;
    case 'type':
      return `'${field}' must be ${typePhrase(type)}`;
    case 'minLength':
      return limit === 1 ? `'${field}' must not be empty` : `'${field}' must be at least ${String(limit)} characters`;
    case 'maxLength':
      return `'${field}' must be at most ${String(limit)} characters`;
    case 'minimum':
      return `'${field}' must be at least ${String(limit)}`;
    case 'maximum':
      return `'${field}' must be at most ${String(limit)}`;
    case 'pattern':
      return `'${field}' ${patternMessages.get(String(pattern)) ?? `must match ${String(pattern)}`}`;
    case 'enum':
      return `'${field}' must be one of ${valuesPhrase(allowedValues)}`;
    case 'const':
      return `'${field}' must be ${JSON.stringify(allowedValue)}`;
    case 'minProperties':
      return `'${field}' must name at least ${String(limit)} field(s)`;
    default:
      return `'${field}' ${error.message ?? 'is not valid'}`;
  }
}
