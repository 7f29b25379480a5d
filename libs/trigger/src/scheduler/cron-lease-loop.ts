/**
 * The cron scheduler's lease loop: competes for (or renews) the lease every `renewMillis` and
 * reports ownership changes. A failed renewal is logged and the lease is judged by its local
 * expiry, so a short database outage does not drop ownership at once.
 */
import type { Logger } from '@fw/core';
import type { SchedulerLease } from './scheduler-lease';

export interface CronLeaseLoopDeps {
  lease: Pick<SchedulerLease, 'acquire' | 'isHeld'>;
  ownerId: string;
  renewMillis: number;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** False once the scheduler stops: no result is acted on and no further round is planned. */
  isRunning(): boolean;
  /** Called when this instance has just become the owner (before {@link onHeld}). */
  onOwnershipGained(): void;
  /** Called after each round in which this instance holds the lease. */
  onHeld(): void;
  /** Called after each round in which it does not. */
  onNotHeld(): void;
}

export interface CronLeaseLoop {
  /** One round of competing for the lease, now; resolves when its result has been acted on. */
  compete(): Promise<void>;
  /** Plans the next rounds, one every `renewMillis`, while running. */
  scheduleRenewals(): void;
  /** Clears the planned round; {@link current} is the round still in flight, if any. */
  cancel(): void;
  /** The round started last (resolved when none ran). */
  current(): Promise<void>;
  /** True when the last round found this instance the owner. */
  owned(): boolean;
  /** Forgets ownership (on stop); returns whether this instance was the owner. */
  disown(): boolean;
}

export function makeCronLeaseLoop(deps: CronLeaseLoopDeps): CronLeaseLoop {
  const { lease, logger, ownerId } = deps;
  let owned = false;
  let leaseTimer: NodeJS.Timeout | undefined;
  let leaseTask: Promise<void> = Promise.resolve();

  async function competeForLease(): Promise<void> {
    let held: boolean;
    try {
      held = await lease.acquire();
    } catch (err) {
      logger.warn({ err, ownerId }, 'cron scheduler lease could not be renewed');
      held = lease.isHeld();
    }
    if (!deps.isRunning()) return;
    if (held && !owned) {
      logger.info({ ownerId }, 'cron scheduler: this instance is now the owner');
      deps.onOwnershipGained();
    } else if (!held && owned) {
      logger.info({ ownerId }, 'cron scheduler: ownership lost');
    }
    owned = held;
    if (held) deps.onHeld();
    else deps.onNotHeld();
  }

  function scheduleRenewals(): void {
    if (!deps.isRunning()) return;
    leaseTimer = setTimeout(() => {
      leaseTask = competeForLease().finally(scheduleRenewals);
    }, deps.renewMillis);
    leaseTimer.unref();
  }

  return {
    compete() {
      leaseTask = competeForLease();
      return leaseTask;
    },
    scheduleRenewals,
    cancel() {
      if (leaseTimer) clearTimeout(leaseTimer);
      leaseTimer = undefined;
    },
    current: () => leaseTask,
    owned: () => owned,
    disown() {
      const wasOwner = owned;
      owned = false;
      return wasOwner;
    },
  };
}
