/**
 * Fires one planned cron run as a CRON trigger with the deterministic trigger id
 * `cron:<crontabId>:<scheduled ISO time>`, and records the firing on the crontab unless the
 * trigger log reports it as a duplicate. Failures are logged, never thrown: one failing crontab
 * must not stop the others.
 */
import type { Logger } from '@fw/core';
import { cronTriggerId } from '../model/trigger-model';
import type { CrontabStore } from '../repository/crontab-store';
import type { TriggerService } from '../service/trigger-service';
import type { ScheduleEntry } from './cron-schedule-table';

export interface CronFirerDeps {
  triggerService: Pick<TriggerService, 'trigger'>;
  crontabs: Pick<CrontabStore, 'markFired'>;
  logger: Pick<Logger, 'debug' | 'error'>;
  /** False when the run must not fire any more (its crontab changed, or this instance stopped or lost the lease). */
  mayFire(entry: ScheduleEntry): boolean;
}

/** Fires `entry`'s run planned for `scheduledTime`; resolves when it is recorded (or has failed). */
export type FireCronRun = (entry: ScheduleEntry, scheduledTime: Date) => Promise<void>;

export function makeCronFirer(deps: CronFirerDeps): FireCronRun {
  const { logger } = deps;
  return async function fire(entry, scheduledTime) {
    const { crontab } = entry;
    if (!deps.mayFire(entry)) return;
    try {
      const result = await deps.triggerService.trigger({
        source: 'CRON',
        triggerId: cronTriggerId(crontab.id, scheduledTime),
        tenant: crontab.tenant,
        payload: crontab.payload,
        scheduledTime,
        cronId: crontab.id,
      });
      if (!result.duplicate) await deps.crontabs.markFired(crontab.id, new Date(), scheduledTime);
      logger.debug(
        {
          crontabId: crontab.id,
          tenant: crontab.tenant,
          scheduledTime,
          status: result.status,
          duplicate: result.duplicate,
        },
        'crontab fired',
      );
    } catch (err) {
      logger.error({ err, crontabId: crontab.id, tenant: crontab.tenant, scheduledTime }, 'crontab firing failed');
    }
  };
}
