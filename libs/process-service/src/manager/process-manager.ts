/**
 * The process manager: creates processes, delivers events, creates children, signals parents,
 * completes processes and chains successors. Each call runs in ONE database transaction that
 * holds the process row (`for update`); everything the call causes (children, parent counting,
 * completion event, successors, worker launches through the WorkerStarter) commits with it or
 * not at all.
 *
 * @example
 * const manager = makeProcessManager({ db: processDb(database), configurator, workerStarter });
 * const { mutatedEntity } = await manager.createProcess({ processDefName: 'import', args: { day: 1 } });
 * await manager.sendEvent(mutatedEntity.id, 'doneSuccessfully', { output: { rows: 10 } });
 */
import { createLogger, currentTenantId, timeOrderedUuid, type Logger } from '@fw/core';
import type {
  Process,
  ProcessCompletedEvent,
  ProcessConfigurator,
  ProcessDto,
  SubProcessResult,
  ProcessResponse,
  WorkerDto,
  WorkerStarter,
} from '@fw/process-api';
import type { FwMetrics } from '@fw/telemetry';
import { makeProcessFlow, type ProcessFlow } from '../flow/process-flow';
import { makeProcessOutbox, type ProcessOutbox, type ProcessOutboxSettings } from '../outbox/process-outbox';
import { makeProcessRepository, type ProcessRepository } from '../repository/process-repository';
import type { ProcessDb, ProcessTransaction } from '../repository/process-tables';
import { readAheadChildResultPages } from '../repository/child-result-reader';
import { makeProcessEngine, type CompletionListener, type ProcessEngine } from './process-engine';
import { validateCompletedEvent } from './payload-validation';
import { createRootProcess } from './process-creator';
import { makeEventBatchSender, type ProcessEventRequest, type ProcessEventResult } from './process-event-batch';
import { ProcessEventSender } from './process-event-sender';
import { loadProcess } from './process-loader';
import { ProcessTransactionRunner } from './process-transaction-runner';
import type { CreateProcessOptions, ProcessCallOptions } from './process-call-options';

export type { CreateProcessOptions, ProcessCallOptions } from './process-call-options';

export interface ProcessManagerOptions {
  db: ProcessDb;
  configurator: ProcessConfigurator;
  /** Called inside the transaction of every state change that enters a worker state. */
  workerStarter: WorkerStarter<ProcessTransaction>;
  /** Default: {@link makeProcessFlow}() (the shipped flow file). */
  flow?: ProcessFlow | Promise<ProcessFlow>;
  logger?: Logger;
  /** Clock (default `new Date()`). */
  clock?: () => Date;
  /**
   * Id generator of processes and completion events. Default `timeOrderedUuid` of `@fw/core`
   * (UUID version 7: a run's rows share the newest pages of the tables' key indexes).
   */
  newId?: () => string;
  /**
   * In-process ProcessCompleted subscribers, called best-effort after the commit (with the outbox:
   * after the commit of the completion command). More can be added with `manager.onProcessCompleted`.
   */
  onProcessCompleted?: CompletionListener | readonly CompletionListener[];
  /**
   * `fw.process.outbox.*`: with `enabled: true` every state change writes the commands it causes
   * (worker launches, parent signals, completion delivery) to `fw_process_outbox` in its own
   * transaction, and a dispatcher (on this instance when `runDispatcher`) drains them. Default:
   * disabled (everything inline, in one transaction). See `@fw/process-outbox`.
   */
  outbox?: ProcessOutboxSettings;
  /**
   * Where the engine records `fw_processes_created_total`, `fw_processes_finished_total` and
   * `fw_process_duration_seconds`, after each commit (`makeFwMetrics()` of `@fw/telemetry`).
   * Absent: nothing is recorded.
   */
  metrics?: FwMetrics;
}

export interface ProcessManager {
  /** ProcessCreate: creates a root process (400 `P001` without processDefName, 400 `P002` unknown type). */
  createProcess(dto: ProcessDto | unknown, options?: CreateProcessOptions): Promise<ProcessResponse>;
  /** Delivers a state-machine event (422 `P010` when not allowed, nothing changed). */
  sendEvent(id: string, eventId: string, payload?: unknown, options?: ProcessCallOptions): Promise<ProcessResponse>;
  /**
   * Delivers many events (to many processes) in one transaction with set-based statements; each
   * result is what `sendEvent` would have answered or thrown for that event, in the given order.
   * Meant for workers reporting a batch of steps (`doneSuccessfully` of many leaves); events that
   * create or count children, and several events for one process, fall back to `sendEvent`.
   */
  sendEvents(events: readonly ProcessEventRequest[]): Promise<ProcessEventResult[]>;
  getProcess(id: string, options?: ProcessCallOptions): Promise<ProcessResponse>;
  /** The process followed by its children (every descendant when `recursive`). */
  getProcessTree(id: string, options?: ProcessCallOptions & { recursive?: boolean }): Promise<Process[]>;
  /**
   * The results of the terminal direct children of `id` in creation order, a page of `pageSize`
   * (default 5000, at most) at a time, each page one short read: what an aggregator of a large
   * split folds without holding every child at once. The next two pages are read, on two
   * connections of the pool, while the caller handles the current one (three pages in memory at
   * most). Reads the process database directly (no tenant check: for workers running the
   * process's own message).
   *
   * @example
   * for await (const page of manager.childResultPages(rootId)) count += page.length;
   */
  childResultPages(id: string, pageSize?: number): AsyncIterable<SubProcessResult[]>;
  /** ProcessCompleted ingress: starts the successors of the completed type; returns those created now. */
  processCompleted(event: ProcessCompletedEvent | unknown): Promise<Process[]>;
  /** The flow in use (loaded on first use). */
  flow(): Promise<ProcessFlow>;
  /** Adds a ProcessCompleted subscriber (best-effort, after commit); returns a function that removes it. */
  onProcessCompleted(listener: CompletionListener): () => void;
  /** The outbox when `fw.process.outbox.enabled`, else undefined. */
  readonly outbox: ProcessOutbox | undefined;
  /** Stops this instance's outbox dispatcher (if any), waiting for running commands. */
  close(): Promise<void>;
}

/** Makes the manager. Nothing is read until the first call (the outbox dispatcher, when enabled and run here, starts polling at once). */
export function makeProcessManager(options: ProcessManagerOptions): ProcessManager {
  const repo: ProcessRepository = makeProcessRepository();
  const logger = options.logger ?? createLogger({ name: 'process-service' });
  const clock = options.clock ?? (() => new Date());
  const newId = options.newId ?? timeOrderedUuid;
  const flowPromise = Promise.resolve(options.flow ?? makeProcessFlow());
  flowPromise.catch(() => undefined);
  const given = options.onProcessCompleted;
  const listeners: CompletionListener[] = given === undefined ? [] : typeof given === 'function' ? [given] : [...given];
  const engine = makeProcessEngine({
    repo,
    workerStarter: options.workerStarter,
    logger,
    newId,
    listeners,
    metrics: options.metrics,
  });
  const transactions = new ProcessTransactionRunner({
    db: options.db,
    configurator: options.configurator,
    flow: flowPromise,
    clock,
    logger,
  });
  const outbox = options.outbox?.enabled
    ? makeManagerOutbox(options, { logger, engine, repo, transactions })
    : undefined;
  transactions.outbox = outbox;
  const events = new ProcessEventSender({ repo, engine, transactions, flow: flowPromise });

  const response = (flow: ProcessFlow, process: Process): ProcessResponse => ({
    mutatedEntity: process,
    allowedActionsAndMetadata: flow.allowedActions(process.state),
  });

  const manager: ProcessManager = {
    async createProcess(body, o = {}) {
      const process = await createRootProcess({ engine, transactions }, body, o);
      return response(await flowPromise, process);
    },
    sendEvent: async (id, eventId, body, o) => response(await flowPromise, await events.send(id, eventId, body, o)),
    sendEvents: (requests) => sendEvents(requests),
    getProcess: async (id, o) => response(await flowPromise, await loadProcess(repo, options.db, id, o, false)),
    async getProcessTree(id, o = {}) {
      const root = await loadProcess(repo, options.db, id, o, false);
      return (await repo.findWithChildren(options.db, root.id, o.recursive === true)) ?? [root];
    },
    childResultPages(id, pageSize = 5000) {
      const limit = Math.max(1, Math.floor(pageSize));
      return readAheadChildResultPages(options.db, id, limit);
    },
    async processCompleted(body) {
      const completed = validateCompletedEvent(body);
      // An event without tenant takes the caller's (header x-fw-tenant-id), so successors keep one.
      if (completed.tenantId === null) completed.tenantId = currentTenantId() ?? null;
      return transactions.run((ctx) => engine.chain(ctx, completed));
    },
    flow: () => flowPromise,
    onProcessCompleted(listener) {
      listeners.push(listener);
      return () => {
        const i = listeners.indexOf(listener);
        if (i >= 0) listeners.splice(i, 1);
      };
    },
    outbox,
    close: async () => {
      await outbox?.stop();
    },
  };
  const sendEvents = makeEventBatchSender({
    engine,
    flow: () => flowPromise,
    inTransaction: (fn) => transactions.run(fn),
    sendEvent: (id, eventId, payload, o) => manager.sendEvent(id, eventId, payload, o),
  });
  return manager;
}

/** The outbox of `fw.process.outbox.enabled`, its handlers reading definitions as the manager's calls do. */
function makeManagerOutbox(
  options: ProcessManagerOptions,
  parts: { logger: Logger; engine: ProcessEngine; repo: ProcessRepository; transactions: ProcessTransactionRunner },
): ProcessOutbox {
  const { engine, transactions } = parts;
  const deliver = options.workerStarter.deliverWorker;
  return makeProcessOutbox({
    db: options.db,
    settings: options.outbox ?? {},
    logger: parts.logger,
    engine,
    repo: parts.repo,
    prepare: async () => {
      await transactions.prepare();
    },
    ...(deliver === undefined
      ? {}
      : { deliverWorker: (worker: WorkerDto) => engine.deliverWorkerNow(options.db, worker) }),
    contextOf: (ctx) => transactions.outboxContext(ctx),
  });
}
