/**
 * Many rows as ONE JSON parameter: `json_to_recordset($1::json) as v(col type, …)`. For set-based
 * statements (`insert … select … from <recordset>`, `update … from <recordset>`) this is cheaper
 * for the client than one array parameter per column: `JSON.stringify` of the rows runs natively,
 * where pg's array literals escape every element in JavaScript — and a JSON value (a payload, an
 * output) travels as itself instead of as text escaped once for JSON and again for the array. A
 * `jsonb` column takes the nested value as it is; a JSON `null` (or an absent key) is SQL NULL.
 *
 * @example
 * const rows = items.map((i) => ({ id: i.id, payload: i.payload, run_at: i.runAt }));
 * await sql`insert into item (id, payload, run_at)
 *           select id, payload, run_at from ${jsonRecordset(rows, { id: 'uuid', payload: 'jsonb', run_at: 'timestamptz' })}`.execute(db);
 */
import { sql, type RawBuilder } from 'kysely';

/** The column types a recordset may declare (the ones fw's set-based statements use). */
export type RecordsetColumnType = 'uuid' | 'text' | 'jsonb' | 'integer' | 'bigint' | 'boolean' | 'timestamptz';

const TYPES: ReadonlySet<string> = new Set<RecordsetColumnType>([
  'uuid',
  'text',
  'jsonb',
  'integer',
  'bigint',
  'boolean',
  'timestamptz',
]);
const NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * `json_to_recordset(<rows as JSON>::json) as <alias>(<columns>)`. Column names and the alias are
 * code, not input: they must be plain lower-case identifiers (checked, as they are spliced into the
 * statement); the rows are one bound parameter. Keys of a row that are not columns are ignored.
 */
export function jsonRecordset<K extends string>(
  rows: ReadonlyArray<Partial<Record<K, unknown>>>,
  columns: Readonly<Record<K, RecordsetColumnType>>,
  alias = 'v',
): RawBuilder<unknown> {
  const names = Object.keys(columns) as K[];
  for (const name of [alias, ...names])
    if (!NAME.test(name)) throw new TypeError(`jsonRecordset: '${name}' is not a plain identifier`);
  for (const name of names)
    if (!TYPES.has(columns[name]))
      throw new TypeError(`jsonRecordset: column '${name}' has an unsupported type '${String(columns[name])}'`);
  const definition = names.map((name) => `${name} ${columns[name]}`).join(', ');
  return sql`json_to_recordset(${JSON.stringify(rows)}::json) as ${sql.raw(`${alias}(${definition})`)}`;
}
