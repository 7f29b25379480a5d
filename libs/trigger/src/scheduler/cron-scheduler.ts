/**
 * The cron scheduler: fires the enabled crontabs of every tenant through the trigger service, on
 * ONE instance at a time. Instances sharing a database compete for the lease row
 * `fw_scheduler_lease('cron-scheduler')` (see {@link makeSchedulerLease}); the owner renews it
 * every `renewIntervalMillis` and re-reads the crontabs each time, and only the owner fires.
 * When the owner stops (its lease is released) or dies (its lease expires after `leaseSeconds`),
 * another instance takes over at its next renewal attempt.
 *
 * Each firing is a CRON trigger with the deterministic trigger id
 * `cron:<crontabId>:<scheduled ISO time>`, so a schedule fired twice (for example around an
 * owner change) is deduplicated by the trigger log. The execution records the crontab id and the
 * scheduled time. Runs missed while no instance owned the lease, or while the event loop was
 * blocked, are not caught up: a late run fires once, then the schedule continues from now.
 *
 * Call `reload()` after every crontab change on this instance: disabled or edited crontabs take
 * effect when it resolves (a firing of the old version still running is awaited).
 *
 * @example
 * const scheduler = makeCronScheduler({ database, crontabs, triggerService, ownerId: os.hostname() });
 * await scheduler.start();
 * await crontabs.update(id, 't1', { enabled: false });
 * await scheduler.reload();
 * await scheduler.stop();
 */
import { createLogger, type Database, type Logger } from '@fw/core';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { CrontabStore } from '../repository/crontab-store';
import type { TriggerService } from '../service/trigger-service';
import { makeCronFirer } from './cron-firer';
import { makeCronLeaseLoop } from './cron-lease-loop';
import { makeCronReloader } from './cron-reloader';
import { makeScheduleTable, type ScheduledRun } from './cron-schedule-table';
import { makeCronWakeLoop } from './cron-wake-loop';
import { makeSchedulerLease } from './scheduler-lease';

export type { ScheduledRun } from './cron-schedule-table';

/** Name of the scheduler's lease row. */
export const CRON_SCHEDULER_LEASE = 'cron-scheduler';
export const DEFAULT_LEASE_SECONDS = 30;

export interface CronSchedulerOptions {
  database: Pick<Database, 'db'>;
  crontabs: CrontabStore;
  triggerService: Pick<TriggerService, 'trigger'>;
  /** This instance's identity in the lease (see {@link defaultSchedulerOwnerId}). */
  ownerId: string;
  /** How long an owner's lease lasts without renewal. Default 30. */
  leaseSeconds?: number;
  /** How often the lease is renewed (or competed for) and an owner re-reads crontabs. Default a third of the lease. */
  renewIntervalMillis?: number;
  /** Lease row name. Default {@link CRON_SCHEDULER_LEASE}. */
  leaseName?: string;
  logger?: Logger;
}

export interface CronScheduler {
  readonly ownerId: string;
  /** Competes for the lease, reads the crontabs and starts the timers. */
  start(): Promise<void>;
  /**
   * Stops firing and renewing. By default the lease is released so another instance takes over
   * at once; `releaseLease: false` leaves it to expire (as a crashed owner would).
   */
  stop(options?: { releaseLease?: boolean }): Promise<void>;
  /** Re-reads the enabled crontabs; call after every change. */
  reload(): Promise<void>;
  /** True while this instance holds the lease and runs. */
  isOwner(): boolean;
  /** The enabled crontabs and their next runs, soonest first. */
  nextRuns(): ScheduledRun[];
}

/** `<host>:<pid>:<random>`: unique per process start. */
export function defaultSchedulerOwnerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * Makes a scheduler from its parts: the schedule table, the firer, the wake timer, the reloader
 * and the lease loop (one file each beside this one).
 */
export function makeCronScheduler(options: CronSchedulerOptions): CronScheduler {
  const logger = options.logger ?? createLogger({ name: 'cron-scheduler' });
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const renewMillis = options.renewIntervalMillis ?? Math.max(100, Math.floor((leaseSeconds * 1000) / 3));
  if (renewMillis >= leaseSeconds * 1000)
    throw new Error('cron scheduler: renewIntervalMillis must be shorter than the lease');
  const lease = makeSchedulerLease({
    database: options.database,
    name: options.leaseName ?? CRON_SCHEDULER_LEASE,
    ownerId: options.ownerId,
    leaseSeconds,
  });
  let running = false;
  const isActive = (): boolean => running && lease.isHeld();

  const table = makeScheduleTable(logger);
  const fire = makeCronFirer({
    triggerService: options.triggerService,
    crontabs: options.crontabs,
    logger,
    mayFire: (entry) => table.isCurrent(entry) && isActive(),
  });
  const wakeLoop = makeCronWakeLoop({ table, fire, isActive });
  const reloader = makeCronReloader({ crontabs: options.crontabs, table, wakeLoop, logger });
  const leaseLoop = makeCronLeaseLoop({
    lease,
    ownerId: options.ownerId,
    renewMillis,
    logger,
    isRunning: () => running,
    onOwnershipGained: () => table.clear(), // plan every schedule from now, not from when it was last read
    onHeld: () => reloader.reloadInBackground(),
    onNotHeld: () => wakeLoop.plan(),
  });

  return {
    ownerId: options.ownerId,
    async start() {
      if (running) return;
      running = true;
      await leaseLoop.compete();
      await reloader.reload();
      leaseLoop.scheduleRenewals();
    },
    async stop(stopOptions = {}) {
      if (!running) return;
      running = false;
      leaseLoop.cancel();
      wakeLoop.cancel();
      await leaseLoop.current().catch(() => undefined);
      await reloader.current().catch(() => undefined);
      await wakeLoop.settled();
      const wasOwner = leaseLoop.disown();
      if (wasOwner && stopOptions.releaseLease !== false) {
        await lease
          .release()
          .catch((err: unknown) => logger.warn({ err }, 'cron scheduler lease could not be released'));
      }
    },
    reload: () => reloader.reload(),
    isOwner: isActive,
    nextRuns: (): ScheduledRun[] => table.nextRuns(),
  };
}
