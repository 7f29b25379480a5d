/**
 * The timer that wakes the cron scheduler at the earliest planned run, fires every run due then,
 * and plans the next wake once they are done. A single sleep lasts at most
 * {@link MAX_SLEEP_MILLIS}, after which the loop re-plans (the clock may have jumped). A late run
 * fires once, then its schedule continues from now: missed runs are not caught up.
 */
import type { ScheduleTable } from './cron-schedule-table';
import type { FireCronRun } from './cron-firer';

/** Longest single timer sleep; the loop re-plans after it. */
export const MAX_SLEEP_MILLIS = 60_000;

export interface CronWakeLoopDeps {
  table: Pick<ScheduleTable, 'takeDue' | 'earliestMillis'>;
  fire: FireCronRun;
  /** False while the scheduler is stopped or does not hold the lease: then nothing is planned or fired. */
  isActive(): boolean;
}

export interface CronWakeLoop {
  /** (Re-)plans the next wake from the table, or clears it when inactive or nothing is planned. */
  plan(): void;
  /** Clears the timer (firings already started go on; see {@link settled}). */
  cancel(): void;
  /** Resolves when every firing started so far has finished. */
  settled(): Promise<void>;
}

export function makeCronWakeLoop(deps: CronWakeLoopDeps): CronWakeLoop {
  let wakeTimer: NodeJS.Timeout | undefined;
  let firing: Promise<void> = Promise.resolve();

  function onWake(): void {
    wakeTimer = undefined;
    if (!deps.isActive()) return;
    const due = deps.table.takeDue(new Date()).map(({ entry, scheduledTime }) => deps.fire(entry, scheduledTime));
    const batch = Promise.all(due).then(() => undefined);
    firing = firing.then(() => batch);
    void batch.then(plan);
  }

  function plan(): void {
    if (wakeTimer) clearTimeout(wakeTimer);
    wakeTimer = undefined;
    if (!deps.isActive()) return;
    const earliest = deps.table.earliestMillis();
    if (earliest === undefined) return;
    const delay = Math.min(MAX_SLEEP_MILLIS, Math.max(0, earliest - Date.now()));
    wakeTimer = setTimeout(onWake, delay);
    wakeTimer.unref();
  }

  return {
    plan,
    cancel() {
      if (wakeTimer) clearTimeout(wakeTimer);
      wakeTimer = undefined;
    },
    settled: () => firing,
  };
}
