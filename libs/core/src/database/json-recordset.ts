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
 * A column whose value every row shares (a split's parent id, tenant and creation time; a batch's
 * state and times) is not repeated in each row: it is bound once, as a parameter of the column's
 * type, and the fragment selects it for every row. In a fan-out most of a child's columns are such
 * values; sent once, they cost neither `JSON.stringify` (about 5 ns a byte in node 20) nor
 * PostgreSQL's JSON parsing and casts per row (a `timestamptz` text parsed once, not once a row).
 * Only values whose text is the same either way are shared: strings, booleans, safe integers,
 * nulls, and the valid `Date`s of time columns (any JSON value for a `jsonb` column is sent as its
 * JSON text). Objects and other numbers stay in the rows. Columns the statement joins or filters
 * on stay in the rows when named in {@link JsonRecordsetOptions.keepInRows}.
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
 * // Joined on `expected`: kept in every row, never a constant.
 * await sql`update item set payload = v.payload
 *             from ${jsonRecordset(rows, { id: 'uuid', expected: 'integer', payload: 'jsonb' }, 'v', { keepInRows: ['id', 'expected'] })}
 *            where item.id = v.id and item.version = v.expected`.execute(db);
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
export function jsonRecordset<K extends string, Kept extends K = K>(
  rows: ReadonlyArray<Partial<Record<K, unknown>>>,
  columns: Readonly<Record<K, RecordsetColumnType>>,
  alias = 'v',
  options: JsonRecordsetOptions<Kept> = {},
): RawBuilder<unknown> {
  const keptInRows = new Set<string>(options.keepInRows ?? []);
  const names = Object.keys(columns) as K[];
  for (const name of [alias, ...names])
    if (!NAME.test(name)) throw new TypeError(`jsonRecordset: '${name}' is not a plain identifier`);
  for (const name of names)
    if (!TYPES.has(columns[name]))
      throw new TypeError(`jsonRecordset: column '${name}' has an unsupported type '${String(columns[name])}'`);
  // The columns the rows' JSON carries, in order: a column's place among them is its index in a row.
  const inRows: K[] = [];
  const select = names.map((name) => {
    const type = columns[name];
    const shared = keptInRows.has(name) ? undefined : sharedValueOf(rows, name, type);
    if (shared === undefined) {
      inRows.push(name);
      return sql.raw(`${columnOf(inRows.length - 1, type)} as ${name}`);
    }
    if (shared.text === null) return sql.raw(`null::${type} as ${name}`);
    return sql`${shared.text}::${sql.raw(type)} as ${sql.raw(name)}`;
  });
  const json = JSON.stringify(valueArraysOf(rows, inRows, columns));
  return sql`(select ${sql.join(select)} from jsonb_array_elements(${json}::jsonb) as r) as ${sql.raw(alias)}`;
}

/** Options of {@link jsonRecordset}. */
export interface JsonRecordsetOptions<K extends string> {
  /**
   * Columns sent in every row even when all rows share a value: those the statement joins or
   * filters on. A shared value is a constant to the planner, so `t.version = v.expected_version`
   * becomes a filter of `t` alone and the recordset may be rescanned for every row of `t` (a
   * nested loop over the JSON: three times the cost of a batch's update, measured).
   */
  keepInRows?: readonly K[];
}

/** A value every row of a recordset holds, as the text of its parameter (`null`: SQL NULL). */
interface SharedValue {
  text: string | null;
}

/**
 * The value of column `name` when every row holds the same one and its parameter's text reads as
 * the row's JSON would (see {@link jsonRecordset}); undefined otherwise, or for fewer than two rows
 * (one row gains nothing). Absent and `null` are the same value; `Date`s are the same value when
 * their times are.
 */
function sharedValueOf<K extends string>(
  rows: ReadonlyArray<Partial<Record<K, unknown>>>,
  name: K,
  type: RecordsetColumnType,
): SharedValue | undefined {
  if (rows.length < 2) return undefined;
  const first = rows[0][name] ?? null;
  if (first instanceof Date) {
    if (type !== 'timestamptz') return undefined;
    const time = first.getTime();
    if (Number.isNaN(time)) return undefined;
    for (let i = 1; i < rows.length; i++) {
      const value = rows[i][name];
      if (value !== first && !(value instanceof Date && value.getTime() === time)) return undefined;
    }
    return { text: first.toISOString() };
  }
  if (!isShareable(first, type)) return undefined;
  for (let i = 1; i < rows.length; i++) if ((rows[i][name] ?? null) !== first) return undefined;
  if (first === null) return { text: null };
  return { text: type === 'jsonb' ? JSON.stringify(first) : String(first) };
}

/**
 * Whether a value's parameter text is what the column would read from the row's JSON: a number's
 * JSON text and PostgreSQL's text of it differ for some (`1e21`, `1e-7`), so only safe integers
 * are shared, except in a `jsonb` column, whose parameter is the JSON text itself.
 */
function isShareable(value: unknown, type: RecordsetColumnType): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return type === 'jsonb' ? Number.isFinite(value) : Number.isSafeInteger(value);
  return false;
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
