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
import { Cron } from 'croner';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { cronTriggerId, type Crontab } from '../model/trigger-model';
import type { CrontabStore } from '../repository/crontab-store';
import type { TriggerService } from '../service/trigger-service';
import { makeSchedulerLease, type SchedulerLease } from './scheduler-lease';

/** Name of the scheduler's lease row. */
export const CRON_SCHEDULER_LEASE = 'cron-scheduler';
export const DEFAULT_LEASE_SECONDS = 30;
/** Longest single timer sleep; the loop re-plans after it. */
const MAX_SLEEP_MILLIS = 60_000;

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

interface Entry {
  crontab: Crontab;
  cron: Cron;
  key: string;
  next: Date | null;
}

/** `<host>:<pid>:<random>`: unique per process start. */
export function defaultSchedulerOwnerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

const keyOf = (c: Crontab): string => `${c.cronExpression}|${c.timezone}|${c.updatedAt}`;

export function makeCronScheduler(options: CronSchedulerOptions): CronScheduler {
  const logger = options.logger ?? createLogger({ name: 'cron-scheduler' });
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const renewMillis = options.renewIntervalMillis ?? Math.max(100, Math.floor((leaseSeconds * 1000) / 3));
  if (renewMillis >= leaseSeconds * 1000)
    throw new Error('cron scheduler: renewIntervalMillis must be shorter than the lease');
  const lease: SchedulerLease = makeSchedulerLease({
    database: options.database,
    name: options.leaseName ?? CRON_SCHEDULER_LEASE,
    ownerId: options.ownerId,
    leaseSeconds,
  });

  let entries = new Map<string, Entry>();
  let running = false;
  let owned = false;
  let leaseTimer: NodeJS.Timeout | undefined;
  let wakeTimer: NodeJS.Timeout | undefined;
  let leaseTask: Promise<void> = Promise.resolve();
  let firing: Promise<void> = Promise.resolve();
  let reloading: Promise<void> = Promise.resolve();
  let reloadQueued = false;

  function entryOf(crontab: Crontab, now: Date): Entry | undefined {
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

  async function readCrontabs(): Promise<void> {
    const tabs = await options.crontabs.listEnabled();
    const now = new Date();
    const fresh = new Map<string, Entry>();
    for (const tab of tabs) {
      const existing = entries.get(tab.id);
      const entry = existing && existing.key === keyOf(tab) ? existing : entryOf(tab, now);
      if (entry) fresh.set(tab.id, entry);
    }
    entries = fresh;
    // A firing that started before the swap may belong to a removed or edited crontab: wait for it.
    await firing;
    planWake();
  }

  function reload(): Promise<void> {
    const next = reloading.catch(() => undefined).then(readCrontabs);
    reloading = next;
    return next;
  }

  async function fire(entry: Entry, scheduledTime: Date): Promise<void> {
    const { crontab } = entry;
    if (entries.get(crontab.id) !== entry || !running || !lease.isHeld()) return;
    try {
      const result = await options.triggerService.trigger({
        source: 'CRON',
        triggerId: cronTriggerId(crontab.id, scheduledTime),
        tenant: crontab.tenant,
        payload: crontab.payload,
        scheduledTime,
        cronId: crontab.id,
      });
      if (!result.duplicate) await options.crontabs.markFired(crontab.id, new Date(), scheduledTime);
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
  }

  function onWake(): void {
    wakeTimer = undefined;
    if (!running || !lease.isHeld()) return;
    const now = new Date();
    const due: Array<Promise<void>> = [];
    for (const entry of entries.values()) {
      if (entry.next === null || entry.next.getTime() > now.getTime()) continue;
      const scheduledTime = entry.next;
      entry.next = entry.cron.nextRun(now);
      due.push(fire(entry, scheduledTime));
    }
    const batch = Promise.all(due).then(() => undefined);
    firing = firing.then(() => batch);
    void batch.then(planWake);
  }

  function planWake(): void {
    if (wakeTimer) clearTimeout(wakeTimer);
    wakeTimer = undefined;
    if (!running || !lease.isHeld()) return;
    let earliest = Number.POSITIVE_INFINITY;
    for (const entry of entries.values()) if (entry.next !== null) earliest = Math.min(earliest, entry.next.getTime());
    if (earliest === Number.POSITIVE_INFINITY) return;
    const delay = Math.min(MAX_SLEEP_MILLIS, Math.max(0, earliest - Date.now()));
    wakeTimer = setTimeout(onWake, delay);
    wakeTimer.unref();
  }

  async function competeForLease(): Promise<void> {
    let held: boolean;
    try {
      held = await lease.acquire();
    } catch (err) {
      logger.warn({ err, ownerId: options.ownerId }, 'cron scheduler lease could not be renewed');
      held = lease.isHeld();
    }
    if (!running) return;
    if (held && !owned) {
      logger.info({ ownerId: options.ownerId }, 'cron scheduler: this instance is now the owner');
      entries = new Map(); // plan every schedule from now, not from when it was last read
    } else if (!held && owned) {
      logger.info({ ownerId: options.ownerId }, 'cron scheduler: ownership lost');
    }
    owned = held;
    if (held) backgroundReload();
    else planWake();
  }

  /** Re-reads without holding up the lease renewal (a reload waits for running firings). */
  function backgroundReload(): void {
    if (reloadQueued) return;
    reloadQueued = true;
    reload()
      .catch((err: unknown) => logger.warn({ err }, 'cron scheduler could not re-read the crontabs'))
      .finally(() => {
        reloadQueued = false;
      });
  }

  function scheduleLeaseTick(): void {
    if (!running) return;
    leaseTimer = setTimeout(() => {
      leaseTask = competeForLease().finally(scheduleLeaseTick);
    }, renewMillis);
    leaseTimer.unref();
  }

  return {
    ownerId: options.ownerId,
    async start() {
      if (running) return;
      running = true;
      leaseTask = competeForLease();
      await leaseTask;
      await reload();
      scheduleLeaseTick();
    },
    async stop(stopOptions = {}) {
      if (!running) return;
      running = false;
      if (leaseTimer) clearTimeout(leaseTimer);
      if (wakeTimer) clearTimeout(wakeTimer);
      leaseTimer = wakeTimer = undefined;
      await leaseTask.catch(() => undefined);
      await reloading.catch(() => undefined);
      await firing;
      const wasOwner = owned;
      owned = false;
      if (wasOwner && stopOptions.releaseLease !== false) {
        await lease
          .release()
          .catch((err: unknown) => logger.warn({ err }, 'cron scheduler lease could not be released'));
      }
    },
    reload,
    isOwner: () => running && lease.isHeld(),
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
