/**
 * Value parsing shared by both drivers so PostgreSQL and PGlite return the same JavaScript values:
 * `int8` and `numeric` become numbers when that is exact, otherwise stay strings (JSON cannot
 * carry a BigInt, and silently rounding money is worse than a string).
 */
export const INT8_OID = 20;
export const NUMERIC_OID = 1700;

export function parseInt8(value: string): number | string {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

export function parseNumeric(value: string): number | string {
  const digits = value.replace(/^-/, '').replace('.', '').replace(/^0+/, '');
  if (digits.length > 15 || !/^-?\d*\.?\d+$/.test(value)) return value;
  return Number(value);
}
