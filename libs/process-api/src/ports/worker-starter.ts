/**
 * The port through which the process service launches workers.
 *
 * The manager calls {@link WorkerStarter.startWorker} *inside* the database transaction that moved
 * the process into SPLIT_PENDING, EXECUTING or AGGREGATION_PENDING, before that transaction
 * commits. A starter therefore chooses between two kinds of work:
 *
 * - durable work that must commit or roll back with the state change (a JDBC starter inserting a
 *   `fw_process_work_item` row) uses `context.transaction`;
 * - work that must only happen once the state change is visible to others (dispatching in-process,
 *   publishing to a broker) is registered with `context.afterCommit(fn)`. Callbacks run in
 *   registration order after the commit and never run when the transaction rolls back. Their
 *   failures are logged by the manager; they cannot undo the committed state change.
 *
 * A starter that throws from `startWorker` rolls the whole state change back (and the caller of
 * the event sees the error).
 *
 * @example
 * const inVm: WorkerStarter = {
 *   startWorker(worker, context) {
 *     context.afterCommit(() => workers.run(worker)); // runs once the state change is committed
 *   },
 * };
 */
import type { WorkerDto } from '../model/worker';

export interface WorkerStartContext<TTransaction = unknown> {
  /**
   * The open transaction of the state change. With `@fw/process-service` this is a Kysely
   * `Transaction` over the process tables (type `ProcessTransaction`).
   */
  transaction: TTransaction;
  /** Registers work to run after the transaction commits (never after a rollback). */
  afterCommit(callback: () => void | Promise<void>): void;
}

export interface WorkerStarter<TTransaction = unknown> {
  startWorker(worker: WorkerDto, context: WorkerStartContext<TTransaction>): void | Promise<void>;
  /**
   * For starters whose launch is a delivery over the network (a broker publish): delivers the
   * worker now, outside any transaction, and resolves only once the transport confirmed it
   * (publisher confirm); rejects otherwise. In outbox mode the process service calls this instead
   * of {@link startWorker} while the START_WORKER command is still claimed, and acknowledges the
   * command only after it resolved: a launch is never marked done without delivery, a failure is
   * retried with the outbox's backoff, and after the last attempt the command is DEAD and the
   * error is recorded on the process. Delivery is at least once (a crash between the confirm and
   * the acknowledgement delivers again), as the consumers already expect.
   */
  deliverWorker?(worker: WorkerDto): Promise<void>;
}
