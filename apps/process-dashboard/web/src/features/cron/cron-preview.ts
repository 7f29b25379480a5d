/**
 * What a cron expression means before it is saved: in words (cronstrue) and its next five firing
 * times in the chosen IANA time zone (croner, six fields seconds first — the scheduler's own
 * parser and options).
 */
import { Cron } from 'croner';
import cronstrue from 'cronstrue';

export type CronPreview = { ok: true; words: string; next: Date[] } | { ok: false; error: string };

export function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export function previewCron(expression: string, timezone: string, count = 5, from: Date = new Date()): CronPreview {
  const normalized = expression.trim().split(/\s+/).join(' ');
  const fields = normalized === '' ? 0 : normalized.split(' ').length;
  if (fields !== 6)
    return { ok: false, error: `Six fields are needed, seconds first (e.g. "0 */5 * * * *"); this has ${fields}.` };
  if (!validTimeZone(timezone))
    return { ok: false, error: `'${timezone}' is not an IANA time zone (e.g. Europe/Berlin).` };
  try {
    const cron = new Cron(normalized, { timezone, mode: '6-part', paused: true });
    const next = cron.nextRuns(count, from);
    let words: string;
    try {
      words = cronstrue.toString(normalized, { use24HourTimeFormat: true, throwExceptionOnParseError: true });
    } catch {
      words = 'a valid schedule (no description available)';
    }
    return { ok: true, words, next };
  } catch (err) {
    return {
      ok: false,
      error: `Not a valid cron expression: ${(err as Error).message.replace(/^CronPattern:\s*/, '')}`,
    };
  }
}

/** A firing time as the wall-clock time of `timezone`. */
export function formatIn(date: Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  }).format(date);
}

/** The time zones offered by the browser (with UTC first). */
export function timeZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [];
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
}
