/**
 * The JDBC WorkerStarter (the database-table launch mode). `startWorker` inserts one row into
 * `fw_process_work_item` with the caller's transaction, so the item commits or rolls back with the
 * state change that launched it; the item's id is derived from its idempotency key, so
 * `on conflict (id) do nothing` makes a replayed state change enqueue nothing. Optionally it sends a NOTIFY (transactional: delivered only on commit)
 * and wakes local runners after the commit, for low latency; polling remains the guarantee.
 *
 * @example
 * const starter = makeWorkItemStarter();
 * const manager = makeProcessManager({ db: processDb(database), configurator, workerStarter: starter });
 * const runner = makeWorkItemRunner({ database, handler: (worker) => batchService.run(worker) });
 * starter.onEnqueued(() => runner.wake());
 */
import type { WorkerDto, WorkerStartContext, WorkerStarter } from '@fw/process-api';
import { sql, type Kysely } from 'kysely';
import { makeWorkItemRepository } from '../repository/work-item-repository';
import type { WorkItemTables } from '../schema/work-item-tables';

/** Default NOTIFY channel. */
export const WORK_ITEM_CHANNEL = 'fw_process_work_item';

export interface WorkItemStarterOptions {
  /** Attempts before an item is DEAD, stored on each item (default 5, as the outbox). */
  maxAttempts?: number;
  /** Send `pg_notify(channel, processId)` inside the transaction (default false). */
  notify?: boolean;
  /** NOTIFY channel (default {@link WORK_ITEM_CHANNEL}). */
  channel?: string;
}

export interface WorkItemStarter extends WorkerStarter<unknown> {
  /**
   * Enqueues many workers with ONE multi-row insert in the caller's transaction (the process
   * service uses it when it launches many workers at once, e.g. the children of a split).
   */
  startWorkers(workers: readonly WorkerDto[], context: WorkerStartContext<unknown>): Promise<void>;
  /** Always true: the starter writes only with the caller's transaction. */
  readonly transactional: true;
  /**
   * Registers a callback run after the commit of each transaction that enqueued a new item (for
   * example `() => runner.wake()`). Returns a function that removes it.
   */
  onEnqueued(listener: () => void): () => void;
}

/** The transaction as given by the process manager: a Kysely transaction over any tables. */
function asWorkItemDb(transaction: unknown): Kysely<WorkItemTables> {
  const trx = transaction as Partial<Kysely<WorkItemTables>> | null;
  if (trx === null || typeof trx !== 'object' || typeof trx.insertInto !== 'function') {
    throw new TypeError(
      'the JDBC starter needs context.transaction to be a Kysely transaction (as given by @fw/process-service)',
    );
  }
  return trx as Kysely<WorkItemTables>;
}

/** Makes the starter. It holds no connection: every insert uses the caller's transaction. */
export function makeWorkItemStarter(options: WorkItemStarterOptions = {}): WorkItemStarter {
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 5));
  const channel = options.channel ?? WORK_ITEM_CHANNEL;
  const repo = makeWorkItemRepository();
  const listeners = new Set<() => void>();

  return {
    // Every write goes through the caller's transaction, so the process service may launch inline
    // even with its outbox (a START_WORKER command would only perform this same insert later).
    transactional: true,
    async startWorker(worker: WorkerDto, context) {
      const db = asWorkItemDb(context.transaction);
      const inserted = await repo.enqueue(db, worker, { maxAttempts });
      if (!inserted) return;
      if (options.notify) await sql`select pg_notify(${channel}, ${worker.processId})`.execute(db);
      if (listeners.size > 0) {
        context.afterCommit(() => {
          for (const listener of listeners) listener();
        });
      }
    },
    async startWorkers(workers: readonly WorkerDto[], context: WorkerStartContext<unknown>) {
      if (workers.length === 0) return;
      const db = asWorkItemDb(context.transaction);
      const inserted = await repo.enqueueMany(db, workers, { maxAttempts });
      if (inserted === 0) return;
      // One notification per transaction is enough: every listener claims in batches.
      if (options.notify) await sql`select pg_notify(${channel}, ${workers[0].processId})`.execute(db);
      if (listeners.size > 0) {
        context.afterCommit(() => {
          for (const listener of listeners) listener();
        });
      }
    },
    onEnqueued(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
