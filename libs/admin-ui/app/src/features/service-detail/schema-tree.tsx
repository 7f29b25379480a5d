/**
 * A JSON Schema as a readable tree: each property with its type, whether it is required, its
 * constraints and description; objects and arrays nest (open for the first levels). The raw JSON
 * is one click away.
 */
import { useState } from 'react';
import type { JsonSchema } from '../../api/info-types';

const CONSTRAINTS = [
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'default',
] as const;

function asSchema(value: unknown): JsonSchema | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonSchema) : undefined;
}

/** `string`, `integer | null`, `array of object`, `one of …`. */
export function typeLabel(schema: JsonSchema): string {
  const type = schema.type;
  if (Array.isArray(type)) return type.join(' | ');
  if (type === 'array') {
    const items = asSchema(schema.items);
    return items ? `array of ${typeLabel(items)}` : 'array';
  }
  if (typeof type === 'string') return type;
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const)
    if (Array.isArray(schema[key])) return `${key === 'allOf' ? 'all' : 'one'} of ${(schema[key] as unknown[]).length}`;
  if ('const' in schema) return 'constant';
  if (asSchema(schema.properties)) return 'object';
  return 'any';
}

function constraintsOf(schema: JsonSchema): string[] {
  const out: string[] = [];
  for (const key of CONSTRAINTS) if (key in schema) out.push(`${key}: ${JSON.stringify(schema[key])}`);
  if (schema.additionalProperties === false) out.push('no other fields');
  return out;
}

function children(schema: JsonSchema): Array<{ name: string; schema: JsonSchema; required: boolean }> {
  const props = asSchema(schema.properties);
  if (props) {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    return Object.entries(props).flatMap(([name, value]) => {
      const child = asSchema(value);
      return child ? [{ name, schema: child, required: required.has(name) }] : [];
    });
  }
  const items = asSchema(schema.items);
  if (schema.type === 'array' && items && (asSchema(items.properties) || items.type === 'array'))
    return [{ name: '[item]', schema: items, required: false }];
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options))
      return options.flatMap((o, i) =>
        asSchema(o) ? [{ name: `option ${i + 1}`, schema: asSchema(o) as JsonSchema, required: false }] : [],
      );
  }
  return [];
}

function SchemaNode({
  name,
  schema,
  required,
  depth,
}: {
  name: string;
  schema: JsonSchema;
  required: boolean;
  depth: number;
}) {
  const nested = children(schema);
  const constraints = constraintsOf(schema);
  const label = (
    <>
      <span className="field-name">{name}</span> <span className="field-type">{typeLabel(schema)}</span>
      {required && (
        <>
          {' '}
          <span className="field-required">required</span>
        </>
      )}
      {constraints.length > 0 && (
        <>
          {' '}
          <span className="field-constraints">{constraints.join(', ')}</span>
        </>
      )}
      {typeof schema.description === 'string' && (
        <>
          {' '}
          <span className="field-description">{schema.description}</span>
        </>
      )}
    </>
  );
  if (nested.length === 0 || depth > 8) return <li className="schema-leaf">{label}</li>;
  return (
    <li>
      <details open={depth < 2}>
        <summary>{label}</summary>
        <ul className="schema-tree">
          {nested.map((c) => (
            <SchemaNode key={c.name} {...c} depth={depth + 1} />
          ))}
        </ul>
      </details>
    </li>
  );
}

export function SchemaView({ title, schema }: { title: string; schema: JsonSchema | undefined }) {
  const [raw, setRaw] = useState(false);
  if (schema === undefined) {
    return (
      <div className="schema">
        <h4>{title}</h4>
        <p className="muted">No schema.</p>
      </div>
    );
  }
  const top = children(schema);
  return (
    <div className="schema">
      <div className="schema-head">
        <h4>{title}</h4>
        <span className="field-type">{typeLabel(schema)}</span>
        <button type="button" className="link-button" aria-pressed={raw} onClick={() => setRaw(!raw)}>
          {raw ? 'Tree' : 'Raw JSON'}
        </button>
      </div>
      {raw ? (
        <pre className="raw-json" tabIndex={0}>
          {JSON.stringify(schema, null, 2)}
        </pre>
      ) : top.length === 0 ? (
        <p className="muted">{constraintsOf(schema).join(', ') || 'Any value of this type.'}</p>
      ) : (
        <ul className="schema-tree">
          {top.map((c) => (
            <SchemaNode key={c.name} {...c} depth={0} />
          ))}
        </ul>
      )}
    </div>
  );
}
