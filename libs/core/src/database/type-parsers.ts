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

/** A plain decimal: optional sign, digits, optional fraction. */
const DECIMAL = /^-?\d*\.?\d+$/;

export function parseNumeric(value: string): number | string {
  // Common case first (it runs for every numeric cell): at most 15 digits in all, so exact.
  const signs = (value.charCodeAt(0) === 45 ? 1 : 0) + (value.includes('.') ? 1 : 0);
  if (value.length - signs <= 15 && DECIMAL.test(value)) return Number(value);
  const digits = value.replace(/^-/, '').replace('.', '').replace(/^0+/, '');
  if (digits.length > 15 || !DECIMAL.test(value)) return value;
  return Number(value);
}
