/**
 * Names and status values inlined into the SQL text of a leased queue: validated (a plain
 * identifier, optionally `schema.name`; a status of letters, digits, `_` and `-`) and quoted, so
 * that only values travel as parameters and a status literal matches the partial indexes.
 */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const STATUS = /^[A-Za-z0-9_-]+$/;

/** `name` double-quoted (each part of `schema.name`); throws `TypeError` for anything else. */
export function quote(name: string, what: string): string {
  const parts = name.split('.');
  if (parts.length > 2 || !parts.every((p) => IDENTIFIER.test(p)))
    throw new TypeError(`leased queue: ${what} '${name}' is not a plain SQL identifier`);
  return parts.map((p) => `"${p}"`).join('.');
}

/** `value` as a SQL string literal; throws `TypeError` unless it is a plain word. */
export function literal(value: string, what: string): string {
  if (!STATUS.test(value))
    throw new TypeError(`leased queue: status ${what} '${value}' may only use letters, digits, '_' and '-'`);
  return `'${value}'`;
}
