/**
 * Many rows as ONE JSON parameter, for set-based statements (`insert … select … from <recordset>`,
 * `update … from <recordset>`): each row travels as a JSON array of its columns' values, and the
 * fragment is the subquery `(select (r->>0)::uuid as id, … from jsonb_array_elements($1::jsonb) as r)
 * as v`. That is cheaper for the client than one array parameter per column: `JSON.stringify` of the
 * rows runs natively, where pg's array literals escape every element in JavaScript — and a JSON value
 * (a payload, an output) travels as itself instead of as text escaped once for JSON and again for
 * the array. A `jsonb` column takes the nested value as it is; a JSON `null` (or an absent key) is
 * SQL NULL.
 *
 * Arrays, not objects: PostgreSQL parses the parameter into `jsonb`, and for objects that means
 * lexing every row's keys and sorting them, row by row, before each field is looked up by name.
 * 1,024 rows of twelve columns as objects (415 kB) took PostgreSQL 12.7 ms a statement; as arrays
 * (286 kB) 6.0 ms, with `JSON.stringify` 0.3 ms slower. In a fan-out four such rows are written for
 * every leaf. `jsonb`, not `json`: `json_to_recordset` hashed every row's fields and parsed the text
 * of each `jsonb` column a second time (6 % more of PostgreSQL's CPU in a fan-out).
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
 * `(select … from jsonb_array_elements(<rows as JSON arrays>::jsonb) as r) as <alias>`, whose columns
 * are `columns`, in their order. Column names and the alias are code, not input: they must be plain
 * lower-case identifiers (checked, as they are spliced into the statement); the rows are one bound
 * parameter. Keys of a row that are not columns are ignored.
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
  const select = names.map((name, i) => `${columnOf(i, columns[name])} as ${name}`).join(', ');
  const json = JSON.stringify(valueArraysOf(rows, names, columns));
  return sql`(select ${sql.raw(select)} from jsonb_array_elements(${json}::jsonb) as r) as ${sql.raw(alias)}`;
}

/**
 * The expression of the value at `index` of a row `r`: `jsonb` as it is (a JSON `null` is SQL NULL,
 * as for the other types), `text` as the element's text, the others cast from it.
 */
function columnOf(index: number, type: RecordsetColumnType): string {
  if (type === 'jsonb') return `nullif(r->${index}, 'null'::jsonb)`;
  if (type === 'text') return `(r->>${index})`;
  return `(r->>${index})::${type}`;
}

/**
 * Each row as the array of its columns' values (absent: `null`). The `Date` of a time column is
 * written as its ISO text (what `JSON.stringify` would write for it) here: one `Date` in the rows
 * (its `toJSON`) sends V8's `JSON.stringify` off its fast path for the whole text (512 rows of two
 * ids, a boolean and a time took 0.93 µs a row with `Date`s and 0.27 µs without). The rows of one
 * batch usually share one `Date`, converted once.
 */
function valueArraysOf<K extends string>(
  rows: ReadonlyArray<Partial<Record<K, unknown>>>,
  names: readonly K[],
  columns: Readonly<Record<K, RecordsetColumnType>>,
): unknown[][] {
  const isTime = names.map((name) => columns[name] === 'timestamptz');
  let lastDate: Date | undefined;
  let lastText: string | null = null;
  // An invalid Date is written as JSON writes it (null: SQL NULL), not thrown as toISOString would.
  const textOf = (date: Date) => {
    if (date !== lastDate) {
      lastDate = date;
      lastText = Number.isNaN(date.getTime()) ? null : date.toISOString();
    }
    return lastText;
  };
  const arrays: unknown[][] = new Array<unknown[]>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const values: unknown[] = new Array<unknown>(names.length);
    for (let c = 0; c < names.length; c++) {
      const value = row[names[c]];
      values[c] = value === undefined ? null : isTime[c] && value instanceof Date ? textOf(value) : value;
    }
    arrays[i] = values;
  }
  return arrays;
}
