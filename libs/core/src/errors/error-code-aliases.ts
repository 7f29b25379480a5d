/**
 * Error codes renamed so that no code reads like an HTTP status it is not answered with
 * (`P405` was a 400, `P423` a 409, `T410` a 409). For one release every renamed code keeps its
 * old spelling as an alias: an error carrying a new code also carries the old one as
 * `legacyCode` (in the envelope too), and {@link canonicalErrorCode} reads an old code as its new
 * one, for clients that compare codes received from a server of the previous release.
 *
 * @example
 * canonicalErrorCode('P423'); // 'P011'
 * legacyErrorCodeOf('P011'); // 'P423'
 */

/** New code → old code, for every code renamed in this release (process `P`, trigger `T`). */
export const ERROR_CODE_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  P004: 'P404',
  P005: 'P405',
  P006: 'P409',
  P007: 'P410',
  P008: 'P411',
  P009: 'P412',
  P010: 'P422',
  P011: 'P423',
  P012: 'P500',
  T001: 'T400',
  T002: 'T404',
  T003: 'T409',
  T004: 'T410',
});

const NEW_BY_OLD: ReadonlyMap<string, string> = new Map(
  Object.entries(ERROR_CODE_ALIASES).map(([current, old]) => [old, current]),
);

/** The old spelling of a renamed code, or undefined when the code was not renamed. */
export function legacyErrorCodeOf(code: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(ERROR_CODE_ALIASES, code) ? ERROR_CODE_ALIASES[code] : undefined;
}

/** The current code for `code`: its new spelling when `code` is an old one, else `code` itself. */
export function canonicalErrorCode(code: string): string {
  return NEW_BY_OLD.get(code) ?? code;
}
