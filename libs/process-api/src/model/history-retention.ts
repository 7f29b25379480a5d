/**
 * Retention of finished process trees as a definition declares it: `retention: { succeeded, failed }`,
 * ISO-8601 durations. A tree is removed as a whole (root, every level, its events, reports, work
 * items and trigger records) once its root has been finished that long; a running tree never.
 *
 * @example
 * const def: ProcessDef = { processType: 'import', leaf: false, retention: { succeeded: 'P7D', failed: 'P30D' } };
 * isoDurationMillis('P1DT12H'); // 129_600_000
 * isoDurationMillis('soon');    // undefined
 */

/** A definition's own retention; a field left out takes the server's (or tenant's) value. */
export interface HistoryRetention {
  /** How long a PROCESSED tree is kept, e.g. `P7D`. */
  succeeded?: string | null;
  /** How long a PROCESSED_WITH_ERRORS tree is kept, e.g. `P90D`. */
  failed?: string | null;
}

const DAY = 86_400_000;
const DURATION =
  /^P(?!$)(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?=\d)(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/**
 * An ISO-8601 duration (`PnYnMnWnDTnHnMnS`) in whole milliseconds, or undefined when `text` is not
 * one. A year counts 365 days and a month 30: retention needs no calendar.
 */
export function isoDurationMillis(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const [y, mo, w, d, h, mi, s] = match.slice(1).map((v) => (v === undefined ? 0 : Number(v)));
  return Math.round(y * 365 * DAY + mo * 30 * DAY + w * 7 * DAY + d * DAY + h * 3_600_000 + mi * 60_000 + s * 1000);
}
