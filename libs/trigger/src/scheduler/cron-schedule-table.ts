/**
 * The cron scheduler's table of planned runs: one entry per enabled crontab with its parsed
 * expression and next run. An entry is kept across re-reads while its crontab's expression, time
 * zone and `updatedAt` are unchanged, so a re-read does not move a run that is already planned.
 */
import type { Logger } from '@fw/core';
import { Cron } from 'croner';
import type { Crontab } from '../model/trigger-model';

/** One enabled crontab and its next planned run. */
export interface ScheduledRun {
  crontabId: string;
  tenant: string;
  name: string;
  cronExpression: string;
  timezone: string;
  /** ISO-8601, or null when the expression has no future run. */
  nextRun: string | null;
}

/** A crontab as planned: its parsed expression and next run (null when none is left). */
export interface ScheduleEntry {
  readonly crontab: Crontab;
  readonly cron: Cron;
  /** What the entry was parsed from; a crontab with another key is parsed again. */
  readonly key: string;
  next: Date | null;
}

/** A run that is due: the entry and the time it was planned for. */
export interface DueRun {
  entry: ScheduleEntry;
  scheduledTime: Date;
}

export interface ScheduleTable {
  /** Replaces the entries by the given crontabs, keeping unchanged ones with their planned runs. */
  replace(crontabs: readonly Crontab[], now: Date): void;
  /** Forgets every entry, so the next `replace` plans every schedule from its `now`. */
  clear(): void;
  /** True while `entry` is the table's current entry of its crontab (not removed or edited). */
  isCurrent(entry: ScheduleEntry): boolean;
  /** The runs due at `now`; each of their entries moves on to its next run after `now`. */
  takeDue(now: Date): DueRun[];
  /** Time of the earliest planned run in epoch milliseconds, or undefined when none is planned. */
  earliestMillis(): number | undefined;
  /** The entries and their next runs, soonest first. */
  nextRuns(): ScheduledRun[];
}

const keyOf = (c: Crontab): string => `${c.cronExpression}|${c.timezone}|${c.updatedAt}`;

/** Makes an empty table; crontabs whose expression or time zone cannot be parsed are logged and left out. */
export function makeScheduleTable(logger: Pick<Logger, 'error'>): ScheduleTable {
  let entries = new Map<string, ScheduleEntry>();

  function entryOf(crontab: Crontab, now: Date): ScheduleEntry | undefined {
    try {
      const cron = new Cron(crontab.cronExpression, { timezone: crontab.timezone, mode: '6-part', paused: true });
      return { crontab, cron, key: keyOf(crontab), next: cron.nextRun(now) };
    } catch (err) {
      logger.error(
        { err, crontabId: crontab.id, tenant: crontab.tenant },
        'crontab has an invalid expression or time zone; not scheduled',
      );
      return undefined;
    }
  }

  return {
    replace(crontabs, now) {
      const fresh = new Map<string, ScheduleEntry>();
      for (const tab of crontabs) {
        const existing = entries.get(tab.id);
        const entry = existing && existing.key === keyOf(tab) ? existing : entryOf(tab, now);
        if (entry) fresh.set(tab.id, entry);
      }
      entries = fresh;
    },
    clear() {
      entries = new Map();
    },
    isCurrent: (entry) => entries.get(entry.crontab.id) === entry,
    takeDue(now) {
      const due: DueRun[] = [];
      for (const entry of entries.values()) {
        if (entry.next === null || entry.next.getTime() > now.getTime()) continue;
        due.push({ entry, scheduledTime: entry.next });
        entry.next = entry.cron.nextRun(now);
      }
      return due;
    },
    earliestMillis() {
      let earliest = Number.POSITIVE_INFINITY;
      for (const entry of entries.values())
        if (entry.next !== null) earliest = Math.min(earliest, entry.next.getTime());
      return earliest === Number.POSITIVE_INFINITY ? undefined : earliest;
    },
    nextRuns() {
      return [...entries.values()]
        .map((e) => ({
          crontabId: e.crontab.id,
          tenant: e.crontab.tenant,
          name: e.crontab.name,
          cronExpression: e.crontab.cronExpression,
          timezone: e.crontab.timezone,
          nextRun: e.next === null ? null : e.next.toISOString(),
        }))
        .sort((a, b) => (a.nextRun ?? '~').localeCompare(b.nextRun ?? '~'));
    },
  };
}
