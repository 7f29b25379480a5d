/**
 * Re-reads the enabled crontabs into the schedule table, one read at a time: a reload called
 * while another runs starts after it. A reload resolves only once firings that started before
 * it are finished, since they may belong to a crontab it removed or changed.
 */
import type { Logger } from '@fw/core';
import type { CrontabStore } from '../repository/crontab-store';
import type { ScheduleTable } from './cron-schedule-table';
import type { CronWakeLoop } from './cron-wake-loop';

export interface CronReloaderDeps {
  crontabs: Pick<CrontabStore, 'listEnabled'>;
  table: Pick<ScheduleTable, 'replace'>;
  wakeLoop: Pick<CronWakeLoop, 'plan' | 'settled'>;
  logger: Pick<Logger, 'warn'>;
}

export interface CronReloader {
  /** Re-reads the crontabs (after any reload in flight) and re-plans the wake timer. */
  reload(): Promise<void>;
  /** Starts a reload without waiting for it, unless one started this way is still pending; failures are logged. */
  reloadInBackground(): void;
  /** The reload started last (resolved when none ran). */
  current(): Promise<void>;
}

export function makeCronReloader(deps: CronReloaderDeps): CronReloader {
  let reloading: Promise<void> = Promise.resolve();
  let reloadQueued = false;

  async function readCrontabs(): Promise<void> {
    const tabs = await deps.crontabs.listEnabled();
    deps.table.replace(tabs, new Date());
    // A firing that started before the swap may belong to a removed or edited crontab: wait for it.
    await deps.wakeLoop.settled();
    deps.wakeLoop.plan();
  }

  function reload(): Promise<void> {
    const next = reloading.catch(() => undefined).then(readCrontabs);
    reloading = next;
    return next;
  }

  return {
    reload,
    reloadInBackground() {
      if (reloadQueued) return;
      reloadQueued = true;
      reload()
        .catch((err: unknown) => deps.logger.warn({ err }, 'cron scheduler could not re-read the crontabs'))
        .finally(() => {
          reloadQueued = false;
        });
    },
    current: () => reloading,
  };
}
