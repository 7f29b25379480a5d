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
import { createLogger, currentTenantId, FwError, type Logger } from '@fw/core';
import {
  ProcessErrorCodes,
  ProcessEvents,
  type Process,
  type ProcessCompletedEvent,
  type ProcessConfigurator,
  type ProcessDto,
  type ProcessResponse,
  type SubProcessRequest,
  type WorkerDto,
  type WorkerStarter,
} from '@fw/process-api';
import { randomUUID } from 'node:crypto';
import { eventNotAllowed, makeProcessFlow, type ProcessFlow } from '../flow/process-flow';
import { makeProcessOutbox, type ProcessOutbox, type ProcessOutboxSettings } from '../outbox/process-outbox';
import { makeProcessRepository, type ProcessRepository } from '../repository/process-repository';
import type { ProcessDb, ProcessTransaction } from '../repository/process-tables';
import { definitionSnapshot, type DefinitionSnapshot } from './process-chaining';
import {
  makeProcessEngine,
  notFound,
  unknownType,
  type ChildReportEvent,
  type CompletionListener,
  type TxContext,
} from './process-engine';
import { isUuid, validateCompletedEvent, validateEventPayload, validateProcessDto } from './payload-validation';
import { assertInputMatches, assertRootType } from './input-validation';
import { makeEventBatchSender, type ProcessEventRequest, type ProcessEventResult } from './process-event-batch';

/** Events whose action creates children: their children are inserted before the parent is locked. */
const SPLIT_EVENTS: ReadonlySet<string> = new Set([ProcessEvents.splitPartiallyDone, ProcessEvents.splitDone]);

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
  /** Id generator (default random UUID v4). */
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
}

export interface ProcessCallOptions {
  /**
   * Tenant of the call. Create: stored as the process tenant. Other calls: a process of another
   * tenant answers 404. Default: the current request context's tenant (`x-fw-tenant-id`).
   */
  tenant?: string | null;
}

export interface CreateProcessOptions extends ProcessCallOptions {
  /** Used when the dto has no `triggerId` (for example header `x-fw-trigger-id`). */
  triggerId?: string | null;
  /**
   * Refuse a type that is only a child (`parentProcessType`) with 400 P412. The HTTP entry points
   * (`POST /process`, the administration API's triggers and crontabs) set it; in-process callers
   * (tests, tools running one step of a tree) may still create such a process on its own.
   */
  refuseChildOnlyTypes?: boolean;
}

export interface ProcessManager {
  /** ProcessCreate: creates a root process (400 `P001` without processDefName, 400 `P002` unknown type). */
  createProcess(dto: ProcessDto | unknown, options?: CreateProcessOptions): Promise<ProcessResponse>;
  /** Delivers a state-machine event (422 `P422` when not allowed, nothing changed). */
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
  const newId = options.newId ?? randomUUID;
  const flowPromise = Promise.resolve(options.flow ?? makeProcessFlow());
  flowPromise.catch(() => undefined);
  const given = options.onProcessCompleted;
  const listeners: CompletionListener[] = given === undefined ? [] : typeof given === 'function' ? [given] : [...given];
  const engine = makeProcessEngine({ repo, workerStarter: options.workerStarter, logger, newId, listeners });
  let prepared: { flow: ProcessFlow; defs: DefinitionSnapshot } | undefined;

  const scopeOf = (o: ProcessCallOptions | undefined): string | undefined =>
    o?.tenant !== undefined ? (o.tenant ?? undefined) : currentTenantId();

  /**
   * Flow and definitions for the next transaction. Definitions are read before the transaction, so a
   * database-backed source never needs a second connection while this one is held (PGlite has one).
   */
  async function prepare(): Promise<{ flow: ProcessFlow; defs: DefinitionSnapshot }> {
    prepared = { flow: await flowPromise, defs: definitionSnapshot(await options.configurator.list()) };
    return prepared;
  }

  const outbox: ProcessOutbox | undefined = options.outbox?.enabled
    ? makeProcessOutbox({
        db: options.db,
        settings: options.outbox,
        logger,
        engine,
        repo,
        prepare: async () => {
          await prepare();
        },
        ...(options.workerStarter.deliverWorker === undefined
          ? {}
          : { deliverWorker: (worker: WorkerDto) => engine.deliverWorkerNow(options.db, worker) }),
        contextOf: (ctx) => {
          if (!prepared) throw new Error('process outbox: handler ran before prepare()');
          return {
            trx: ctx.trx,
            now: clock(),
            defs: prepared.defs,
            flow: prepared.flow,
            afterCommit: ctx.afterCommit,
            commands: [],
          };
        },
      })
    : undefined;

  /** Runs `fn` in one transaction; after-commit callbacks run in order once it committed. */
  async function inTransaction<T>(fn: (ctx: TxContext) => Promise<T>): Promise<T> {
    const { flow, defs } = await prepare();
    const callbacks: Array<() => void | Promise<void>> = [];
    const result = await options.db.transaction().execute(async (trx) => {
      const ctx: TxContext = {
        trx,
        now: clock(),
        defs,
        flow,
        afterCommit: (cb) => callbacks.push(cb),
        ...(outbox ? { commands: [] } : {}),
      };
      const value = await fn(ctx);
      if (outbox) await outbox.flush(ctx);
      return value;
    });
    for (const cb of callbacks) {
      try {
        // Awaited only when it returned a promise: most callbacks are plain functions.
        const done = cb();
        if (typeof (done as PromiseLike<void> | undefined)?.then === 'function') await done;
      } catch (err) {
        logger.error({ err }, 'after-commit callback failed (the state change is committed)');
      }
    }
    return result;
  }

  const response = (flow: ProcessFlow, process: Process): ProcessResponse => ({
    mutatedEntity: process,
    allowedActionsAndMetadata: flow.allowedActions(process.state),
  });

  async function load(
    db: ProcessDb,
    id: string,
    o: ProcessCallOptions | undefined,
    forUpdate: boolean,
  ): Promise<Process> {
    if (!isUuid(id)) throw notFound(id);
    const process = await repo.findById(db, id.toLowerCase(), { forUpdate });
    const scope = scopeOf(o);
    if (!process || (scope !== undefined && process.tenant !== scope)) throw notFound(id);
    return process;
  }

  /**
   * The first half of a split event: the parent read without a lock and, when its state accepts
   * the event, the children and their work items inserted (`engine.insertChildrenEarly`), so the
   * parent is locked only for the short rest of the transaction. Returns the payload, validated
   * once, which the event must then carry (the action recognises its children by it).
   */
  async function splitBeforeLock(
    ctx: TxContext,
    flow: ProcessFlow,
    id: string,
    eventId: string,
    body: unknown,
    o: ProcessCallOptions | undefined,
  ): Promise<{ payload: object } | undefined> {
    const parent = await load(ctx.trx, id, o, false);
    if (!flow.isAllowed(parent.state, eventId)) return undefined;
    const payload = validateEventPayload(eventId, body) as { subProcesses: readonly SubProcessRequest[] };
    await engine.insertChildrenEarly(ctx, parent, payload.subProcesses);
    return { payload };
  }

  const manager: ProcessManager = {
    async createProcess(body, o = {}) {
      const dto = validateProcessDto(body);
      const tenant = o.tenant !== undefined ? o.tenant : (currentTenantId() ?? null);
      const process = await inTransaction(async (ctx) => {
        const def = ctx.defs.get(dto.processDefName);
        if (!def) throw unknownType(dto.processDefName, 'processDefName');
        if (o.refuseChildOnlyTypes) assertRootType(def);
        assertInputMatches(def, dto.args, 'args');
        const p = engine.newProcess(ctx, def, {
          input: dto.args,
          tenant,
          triggerId: dto.triggerId ?? o.triggerId ?? null,
          description: dto.description,
        });
        await engine.startProcesses(ctx, [p]);
        return p;
      });
      return response(await flowPromise, process);
    },

    async sendEvent(id, eventId, body, o) {
      const flow = await flowPromise;
      const process = await inTransaction(async (ctx) => {
        const early = SPLIT_EVENTS.has(eventId) ? await splitBeforeLock(ctx, flow, id, eventId, body, o) : undefined;
        const isChildReport =
          eventId === ProcessEvents.subProcessDoneSuccessfully || eventId === ProcessEvents.subProcessDoneWithErrors;
        // A child report locks the parent itself, after its report row (see engine.reportChildren).
        const current = await load(ctx.trx, id, o, !isChildReport);
        if (!flow.knownEvents().has(eventId)) {
          throw new FwError({
            code: 422,
            subErrorCode: ProcessErrorCodes.unknownEvent,
            description: `Unknown event '${eventId}'`,
            params: [eventId],
          });
        }
        if (!isChildReport && !flow.isAllowed(current.state, eventId)) throw eventNotAllowed(current.state, eventId);
        const payload = early?.payload ?? validateEventPayload(eventId, body);
        if (isChildReport)
          return (
            (await engine.reportChildren(ctx, current.id, [{ eventId, payload } as ChildReportEvent], true)) ?? current
          );
        await engine.applyEvents(ctx, current, [{ eventId, payload }]);
        return current;
      });
      return response(flow, process);
    },

    sendEvents: (events) => sendEvents(events),

    async getProcess(id, o) {
      const flow = await flowPromise;
      return response(flow, await load(options.db, id, o, false));
    },

    async getProcessTree(id, o = {}) {
      const root = await load(options.db, id, o, false);
      return (await repo.findWithChildren(options.db, root.id, o.recursive === true)) ?? [root];
    },

    async processCompleted(body) {
      const completed = validateCompletedEvent(body);
      // An event without tenant takes the caller's (header x-fw-tenant-id), so successors keep one.
      if (completed.tenantId === null) completed.tenantId = currentTenantId() ?? null;
      return inTransaction((ctx) => engine.chain(ctx, completed));
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

    async close() {
      await outbox?.stop();
    },
  };
  const sendEvents = makeEventBatchSender({
    engine,
    flow: () => flowPromise,
    inTransaction,
    sendEvent: (id, eventId, payload, o) => manager.sendEvent(id, eventId, payload, o),
  });
  return manager;
}
