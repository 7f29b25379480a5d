/**
 * The history sweeper: removes finished process trees whose retention has passed, on ONE instance
 * at a time. Instances sharing a database compete for a lease (`history-sweeper` in
 * `fw_scheduler_lease`, the mechanism that elects the cron scheduler's owner); only the holder
 * sweeps. A pass walks the expired roots oldest first and removes them in groups of about
 * `batchRows` processes, each group its own short transaction that skips (never waits for) a row
 * another transaction holds; a tree is never split across transactions, so a tree larger than
 * `batchRows` goes alone. After each transaction the sweeper pauses in proportion to the time it
 * took (`dutyCycle`, `sweep-pacing.ts`), so a long pass leaves the database to the work beside it.
 *
 * @example
 * const sweeper = makeHistorySweeper({
 *   store: makeHistoryRetentionStore(database),
 *   lease: makeSchedulerLease({ database, name: HISTORY_SWEEPER_LEASE, ownerId, leaseSeconds: 60 }),
 *   settings: retentionSettingsFromEnv(process.env),
 *   definitions: () => configurator.list(),
 *   dutyCycle: sweepDutyCycleFromEnv(process.env),   // removing at most a quarter of the time by default
 * });
 * sweeper.start();
 * await sweeper.stop();
 */
import { createLogger, type Logger } from '@fw/core';
import type { ProcessDef } from '@fw/process-api';
import type { ExpiredRoot, HistoryRetentionStore, SweepCursor } from './history-retention-store';
import { retentionRulesOf, type RetentionSettings } from './retention-settings';
import { DEFAULT_SWEEP_DUTY_CYCLE, pause, pauseAfterTransaction } from './sweep-pacing';
import { addRemoved, noRowsRemoved, totalRows, type RemovedRows } from './tree-removal-statements';

/** Name of the sweeper's lease row. */
export const HISTORY_SWEEPER_LEASE = 'history-sweeper';

/** The lease that elects the owner (`makeSchedulerLease` of `@fw/trigger` is one). */
export interface SweeperLease {
  /** Takes or renews the lease; true when this instance owns it now. */
  acquire(): Promise<boolean>;
  release(): Promise<void>;
  isHeld(): boolean;
}

/** The audit trail as the sweeper sees it (`makeAuditStore` is one). */
export interface SweptAuditTrail {
  purgeBefore(cutoff: Date, limit: number): Promise<number>;
}

export interface HistorySweeperOptions {
  store: HistoryRetentionStore;
  /** The administration API's audit trail, swept after the trees: entries older than `settings.auditMillis` go. */
  audit?: SweptAuditTrail;
  lease: SweeperLease;
  settings: RetentionSettings;
  /** The definitions (their `retention`), read at the start of every pass. */
  definitions: () => Promise<readonly ProcessDef[]>;
  /** Time between passes (default 60 s). A pass that found a full batch is followed by the next at once. */
  intervalMillis?: number;
  /** About how many processes one transaction removes (default 5,000). */
  batchRows?: number;
  /** Roots read per look-up (default 1,000). */
  readRoots?: number;
  /**
   * Share of the time spent in removal transactions, above 0 and at most 1 (default 0.25,
   * `PROCESS_HISTORY_SWEEP_DUTY_CYCLE` in the admin server): after a transaction of t ms the
   * sweeper pauses t × (1 − dutyCycle) / dutyCycle ms; 1 never pauses.
   */
  dutyCycle?: number;
  /** A fixed pause after each transaction, added to the duty cycle's (default 0). */
  pauseMillis?: number;
  logger?: Logger;
}

/** What one pass removed. */
export interface SweepPass {
  owner: boolean;
  roots: number;
  skipped: number;
  transactions: number;
  removed: RemovedRows;
  /** Audit entries removed. */
  auditEntries: number;
  millis: number;
  /** Of `millis`, the time spent pausing between transactions (the pacing). */
  pausedMillis: number;
}

export interface HistorySweeper {
  /** Competes for the lease every interval and sweeps while it holds it. */
  start(): void;
  /** Stops after the current transaction and releases the lease. */
  stop(): Promise<void>;
  /** One pass now (when this instance holds or wins the lease); resolves with what it removed. */
  sweepOnce(): Promise<SweepPass>;
  /** True while this instance holds the lease. */
  isOwner(): boolean;
}

/** Groups roots so that each group holds about `budget` processes (at least one root each). */
export function groupRoots(roots: readonly ExpiredRoot[], budget: number): string[][] {
  const groups: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const root of roots) {
    const rows = 1 + root.children;
    if (current.length > 0 && size + rows > budget) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(root.id);
    size += rows;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** What a pass needs besides its options: the stop signal and the lease's renewal. */
interface PassControl {
  signal: AbortSignal;
  /** Renews the lease when due; false when this instance no longer owns it. */
  keepLease(): Promise<boolean>;
}

/**
 * Removes `roots` in groups of about `batchRows` processes, one transaction each, adding to `pass`;
 * after each, the pause of the duty cycle (cut short by a stop).
 */
async function sweepGroups(
  options: HistorySweeperOptions,
  pass: SweepPass,
  roots: ExpiredRoot[],
  control: PassControl,
): Promise<void> {
  const dutyCycle = options.dutyCycle ?? DEFAULT_SWEEP_DUTY_CYCLE;
  for (const group of groupRoots(roots, options.batchRows ?? 5_000)) {
    if (control.signal.aborted || !(await control.keepLease())) return;
    const started = performance.now();
    const outcome = await options.store.removeRoots(group);
    addRemoved(pass.removed, outcome.removed);
    pass.roots += outcome.roots;
    pass.skipped += outcome.skipped;
    pass.transactions += 1;
    const paused = performance.now();
    await pause(pauseAfterTransaction(paused - started, dutyCycle) + (options.pauseMillis ?? 0), control.signal);
    pass.pausedMillis += performance.now() - paused;
  }
}

/** One pass: take or renew the lease, then walk the expired roots oldest first until none is left. */
async function sweepPass(
  options: HistorySweeperOptions,
  intervalMillis: number,
  signal: AbortSignal,
): Promise<SweepPass> {
  const { store, lease } = options;
  const readRoots = options.readRoots ?? 1_000;
  const started = performance.now();
  const result: SweepPass = {
    owner: false,
    roots: 0,
    skipped: 0,
    transactions: 0,
    removed: noRowsRemoved(),
    auditEntries: 0,
    millis: 0,
    pausedMillis: 0,
  };
  result.owner = await lease.acquire();
  if (!result.owner) return result;
  const rules = retentionRulesOf(options.settings, await options.definitions());
  let renewedAt = Date.now();
  const control: PassControl = {
    signal,
    // Renewed well within the lease (pauses included), so a long pass is never swept by a second owner as well.
    async keepLease() {
      if (Date.now() - renewedAt <= intervalMillis / 3 && lease.isHeld()) return true;
      renewedAt = Date.now();
      return lease.acquire();
    },
  };
  let cursor: SweepCursor | undefined;
  while (!signal.aborted && (await control.keepLease())) {
    const roots = await store.expiredRoots(rules, cursor, readRoots);
    if (roots.length === 0) break;
    await sweepGroups(options, result, roots, control);
    const last = roots[roots.length - 1];
    cursor = { createdTime: last.createdTime, id: last.id };
    if (roots.length < readRoots) break;
  }
  result.auditEntries = await sweepAudit(options, readRoots, () => signal.aborted);
  result.millis = performance.now() - started;
  return result;
}

/** Removes the audit entries older than the audit retention, `batch` per statement; how many went. */
async function sweepAudit(options: HistorySweeperOptions, batch: number, stopped: () => boolean): Promise<number> {
  const { audit, settings, lease } = options;
  if (!audit) return 0;
  const cutoff = new Date(Date.now() - (settings.auditMillis ?? settings.failedMillis));
  let removed = 0;
  while (!stopped() && lease.isHeld()) {
    const n = await audit.purgeBefore(cutoff, batch);
    removed += n;
    if (n < batch) break;
  }
  return removed;
}

export function makeHistorySweeper(options: HistorySweeperOptions): HistorySweeper {
  const { lease } = options;
  const logger = options.logger ?? createLogger({ name: 'history-sweeper' });
  const intervalMillis = options.intervalMillis ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<SweepPass> | undefined;
  const stopping = new AbortController();
  const stopped = () => stopping.signal.aborted;

  async function pass(): Promise<SweepPass> {
    const result = await sweepPass(options, intervalMillis, stopping.signal);
    if (result.roots > 0 || result.auditEntries > 0) {
      logger.info(
        {
          roots: result.roots,
          rows: totalRows(result.removed),
          skipped: result.skipped,
          auditEntries: result.auditEntries,
          millis: Math.round(result.millis),
          pausedMillis: Math.round(result.pausedMillis),
        },
        'history sweep removed finished trees',
      );
    }
    return result;
  }

  function schedule(delay: number): void {
    if (stopped()) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = pass();
      running
        .catch((err: unknown) => {
          logger.warn({ err }, 'history sweep failed; retried at the next interval');
        })
        .finally(() => {
          running = undefined;
          schedule(intervalMillis);
        });
    }, delay);
    timer.unref?.();
  }

  return {
    start() {
      if (timer === undefined && running === undefined) schedule(0);
    },
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => undefined);
      await lease.release().catch((err: unknown) => logger.warn({ err }, 'history sweeper: lease not released'));
    },
    sweepOnce() {
      if (running) return running;
      const current = pass();
      running = current;
      return current.finally(() => {
        if (running === current) running = undefined;
      });
    },
    isOwner: () => lease.isHeld(),
  };
}
