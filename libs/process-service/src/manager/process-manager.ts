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
  PROCESS_FLOW_ID,
  ProcessErrorCodes,
  ProcessEvents,
  ProcessStates,
  WorkerType,
  type Process,
  type ProcessCompletedEvent,
  type ProcessConfigurator,
  type ProcessDef,
  type ProcessDto,
  type ProcessResponse,
  type SubProcessRequest,
  type WorkerDto,
  type WorkerStarter,
} from '@fw/process-api';
import { randomUUID } from 'node:crypto';
import type { ProcessStep } from '../flow/process-flow-actions';
import { eventNotAllowed, makeProcessFlow, type ProcessFlow } from '../flow/process-flow';
import { makeProcessRepository, type ProcessRepository } from '../repository/process-repository';
import type { ProcessDb, ProcessTransaction } from '../repository/process-tables';
import { completedEventOf, definitionSnapshot, successorInput, type DefinitionSnapshot } from './process-chaining';
import { isUuid, validateCompletedEvent, validateEventPayload, validateProcessDto } from './payload-validation';

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
  /** In-process ProcessCompleted subscriber, called best-effort after the commit. */
  onProcessCompleted?: (event: ProcessCompletedEvent) => void | Promise<void>;
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
}

export interface ProcessManager {
  /** ProcessCreate: creates a root process (400 `P001` without processDefName, 400 `P002` unknown type). */
  createProcess(dto: ProcessDto | unknown, options?: CreateProcessOptions): Promise<ProcessResponse>;
  /** Delivers a state-machine event (422 `P422` when not allowed, nothing changed). */
  sendEvent(id: string, eventId: string, payload?: unknown, options?: ProcessCallOptions): Promise<ProcessResponse>;
  getProcess(id: string, options?: ProcessCallOptions): Promise<ProcessResponse>;
  /** The process followed by its children (every descendant when `recursive`). */
  getProcessTree(id: string, options?: ProcessCallOptions & { recursive?: boolean }): Promise<Process[]>;
  /** ProcessCompleted ingress: starts the successors of the completed type; returns those created now. */
  processCompleted(event: ProcessCompletedEvent | unknown): Promise<Process[]>;
  /** The flow in use (loaded on first use). */
  flow(): Promise<ProcessFlow>;
}

interface TxContext {
  trx: ProcessTransaction;
  now: Date;
  defs: DefinitionSnapshot;
  flow: ProcessFlow;
  afterCommit(callback: () => void | Promise<void>): void;
}

interface NewProcessInit {
  id?: string;
  input: unknown;
  tenant: string | null;
  triggerId: string | null;
  parentId?: string | null;
  predecessorId?: string | null;
  description?: string | null;
  leaf?: boolean;
}

function notFound(id: string): FwError {
  return new FwError({ code: 404, subErrorCode: ProcessErrorCodes.processNotFound, description: `Process ${id} not found`, params: [id] });
}

function unknownType(processType: string, field: string): FwError {
  return new FwError({ code: 400, subErrorCode: ProcessErrorCodes.unknownProcessType, description: `No process definition named '${processType}'`, params: [processType], field });
}

/** Makes the manager. Nothing is read until the first call. */
export function makeProcessManager(options: ProcessManagerOptions): ProcessManager {
  const repo: ProcessRepository = makeProcessRepository();
  const logger = options.logger ?? createLogger({ name: 'process-service' });
  const clock = options.clock ?? (() => new Date());
  const newId = options.newId ?? randomUUID;
  const flowPromise = Promise.resolve(options.flow ?? makeProcessFlow());
  flowPromise.catch(() => undefined);

  const scopeOf = (o: ProcessCallOptions | undefined): string | undefined => (o?.tenant !== undefined ? (o.tenant ?? undefined) : currentTenantId());

  /** Runs `fn` in one transaction; after-commit callbacks run in order once it committed. */
  async function inTransaction<T>(fn: (ctx: TxContext) => Promise<T>): Promise<T> {
    const flow = await flowPromise;
    // Definitions are read before the transaction, so a database-backed source never needs a second
    // connection while this one is held (PGlite has exactly one).
    const defs = definitionSnapshot(await options.configurator.list());
    const callbacks: Array<() => void | Promise<void>> = [];
    const result = await options.db.transaction().execute((trx) => fn({ trx, now: clock(), defs, flow, afterCommit: (cb) => callbacks.push(cb) }));
    for (const cb of callbacks) {
      try {
        await cb();
      } catch (err) {
        logger.error({ err }, 'after-commit callback failed (the state change is committed)');
      }
    }
    return result;
  }

  function newProcess(ctx: TxContext, def: ProcessDef, init: NewProcessInit): Process {
    const now = ctx.now.toISOString();
    return {
      id: init.id ?? newId(),
      processType: def.processType,
      leaf: init.leaf ?? def.leaf,
      parentId: init.parentId ?? null,
      predecessorId: init.predecessorId ?? null,
      triggerId: init.triggerId,
      tenant: init.tenant,
      state: { flowId: PROCESS_FLOW_ID, stateId: ProcessStates.isThisLeafNode },
      splitCompleted: false,
      numSubProcesses: 0,
      numCompletedSubProcesses: 0,
      completedPercent: 0,
      input: init.input ?? null,
      output: null,
      errors: [],
      description: init.description ?? null,
      createdTime: now,
      lastModifiedTime: now,
      stateEntryTime: now,
      version: 0,
    };
  }

  function makeStep(ctx: TxContext): ProcessStep {
    return {
      trx: ctx.trx,
      now: ctx.now,
      newErrors: [],
      completed: false,
      createSubProcesses: (parent, requests) => createChildren(ctx, parent, requests),
    };
  }

  /** Post-save hook: hands a WorkerDto (with a copy of the definition's config) to the starter. */
  async function launchWorker(ctx: TxContext, process: Process): Promise<void> {
    const workerType = ctx.flow.workerTypeOf(process.state.stateId);
    if (workerType === undefined) return;
    const worker: WorkerDto = {
      processId: process.id,
      processType: process.processType,
      workerType,
      tenant: process.tenant,
      triggerId: process.triggerId,
      parentId: process.parentId,
      input: process.input,
      config: { ...(ctx.defs.get(process.processType)?.config ?? {}) },
    };
    if (workerType === WorkerType.AGGREGATOR) worker.subProcessResults = await repo.childResults(ctx.trx, process.id);
    await options.workerStarter.startWorker(worker, { transaction: ctx.trx, afterCommit: ctx.afterCommit });
  }

  /** Enters the flow for new processes, inserts them and launches their workers. Returns the inserted ids. */
  async function startProcesses(ctx: TxContext, processes: Process[]): Promise<Set<string>> {
    for (const p of processes) await ctx.flow.start(p, makeStep(ctx));
    const inserted = await repo.insertMany(ctx.trx, processes);
    for (const p of processes) if (inserted.has(p.id)) await launchWorker(ctx, p);
    return inserted;
  }

  async function createChildren(ctx: TxContext, parent: Process, requests: readonly SubProcessRequest[]): Promise<void> {
    if (requests.length === 0) return;
    const children = requests.map((r, i) => {
      const def = ctx.defs.get(r.processType);
      if (!def) throw unknownType(r.processType, `subProcesses[${i}].processType`);
      return newProcess(ctx, def, {
        id: r.childId,
        input: r.args,
        tenant: parent.tenant,
        triggerId: parent.triggerId,
        parentId: parent.id,
        leaf: r.leaf,
      });
    });
    const inserted = await startProcesses(ctx, children);
    const existing = children.filter((c) => !inserted.has(c.id)).map((c) => c.id);
    if (existing.length > 0) {
      const parents = await repo.findParents(ctx.trx, existing);
      const foreign = existing.find((id) => parents.get(id) !== parent.id);
      if (foreign !== undefined) {
        throw new FwError({ code: 409, subErrorCode: ProcessErrorCodes.childIdConflict, description: `childId ${foreign} already belongs to another process`, params: [foreign], field: 'subProcesses.childId' });
      }
    }
    parent.numSubProcesses += inserted.size;
  }

  /** Sends an event to a locked process, saves it and runs its consequences. */
  async function applyEvent(ctx: TxContext, process: Process, eventId: string, payload: unknown): Promise<void> {
    const before = { stateId: process.state.stateId, version: process.version };
    const step = makeStep(ctx);
    await ctx.flow.send(process, eventId, payload, step);
    const entered = process.state.stateId !== before.stateId;
    if (entered) process.stateEntryTime = ctx.now.toISOString();
    process.lastModifiedTime = ctx.now.toISOString();
    process.version = before.version + 1;
    if (!(await repo.update(ctx.trx, process, before.version))) {
      throw new FwError({ code: 409, subErrorCode: ProcessErrorCodes.concurrentModification, description: `Process ${process.id} was changed concurrently`, params: [process.id] });
    }
    await repo.insertErrors(ctx.trx, process.id, step.newErrors);
    if (entered) await launchWorker(ctx, process);
    if (step.completed) await complete(ctx, process);
  }

  async function complete(ctx: TxContext, process: Process): Promise<void> {
    const event = completedEventOf(process);
    await repo.insertCompletionEvent(ctx.trx, newId(), event, ctx.now);
    if (process.parentId !== null) await reportChild(ctx, process.parentId, childReportOf(process), false);
    await chain(ctx, event);
    const listener = options.onProcessCompleted;
    if (listener) ctx.afterCommit(() => listener(event));
  }

  function childReportOf(child: Process): { eventId: string; payload: object } {
    if (event(child) === ProcessEvents.subProcessDoneSuccessfully) {
      return { eventId: ProcessEvents.subProcessDoneSuccessfully, payload: { childId: child.id, output: child.output } };
    }
    const last = child.errors[child.errors.length - 1];
    return {
      eventId: ProcessEvents.subProcessDoneWithErrors,
      payload: {
        childId: child.id,
        errors: child.errors.flatMap((e) => e.errors),
        exceptionMessage: last?.exceptionMessage ?? null,
        stackTrace: last?.stackTrace ?? null,
      },
    };
  }

  function event(child: Process): string {
    return child.state.stateId === ProcessStates.PROCESSED ? ProcessEvents.subProcessDoneSuccessfully : ProcessEvents.subProcessDoneWithErrors;
  }

  /**
   * Counts a child's completion on its parent exactly once: the parent row is locked, then the
   * child report row is inserted; a report that already exists counts nothing.
   */
  async function reportChild(ctx: TxContext, parentId: string, report: { eventId: string; payload: object }, external: boolean): Promise<Process | undefined> {
    const childId = (report.payload as { childId: string }).childId;
    const parent = await repo.findById(ctx.trx, parentId, { forUpdate: true });
    if (!parent) {
      if (external) throw notFound(parentId);
      logger.warn({ parentId, childId }, 'parent of a completed child not found');
      return undefined;
    }
    if (external) {
      const parents = await repo.findParents(ctx.trx, [childId]);
      if (parents.get(childId) !== parentId) {
        throw new FwError({ code: 400, subErrorCode: ProcessErrorCodes.notAChild, description: `Process ${childId} is not a child of ${parentId}`, params: [childId, parentId], field: 'childId' });
      }
    } else if (!ctx.flow.isAllowed(parent.state, report.eventId)) {
      logger.warn({ parentId, childId, parentState: parent.state.stateId }, 'parent does not accept child reports in its state; not counted');
      return parent;
    }
    const successful = report.eventId === ProcessEvents.subProcessDoneSuccessfully;
    if (!(await repo.insertChildReport(ctx.trx, { childId, parentId, successful, time: ctx.now }))) return parent;
    if (!ctx.flow.isAllowed(parent.state, report.eventId)) throw eventNotAllowed(parent.state, report.eventId);
    await applyEvent(ctx, parent, report.eventId, report.payload);
    return parent;
  }

  async function chain(ctx: TxContext, event: ProcessCompletedEvent): Promise<Process[]> {
    const successors = ctx.defs.successorsOf(event.processType).map((def) =>
      newProcess(ctx, def, {
        input: successorInput(def, event),
        tenant: event.tenantId,
        triggerId: event.triggerId,
        predecessorId: event.processId,
      }),
    );
    if (successors.length === 0) return [];
    const inserted = await startProcesses(ctx, successors);
    return successors.filter((s) => inserted.has(s.id));
  }

  const response = (flow: ProcessFlow, process: Process): ProcessResponse => ({
    mutatedEntity: process,
    allowedActionsAndMetadata: flow.allowedActions(process.state),
  });

  async function load(db: ProcessDb, id: string, o: ProcessCallOptions | undefined, forUpdate: boolean): Promise<Process> {
    if (!isUuid(id)) throw notFound(id);
    const process = await repo.findById(db, id.toLowerCase(), { forUpdate });
    const scope = scopeOf(o);
    if (!process || (scope !== undefined && process.tenant !== scope)) throw notFound(id);
    return process;
  }

  return {
    async createProcess(body, o = {}) {
      const dto = validateProcessDto(body);
      const tenant = o.tenant !== undefined ? o.tenant : (currentTenantId() ?? null);
      const process = await inTransaction(async (ctx) => {
        const def = ctx.defs.get(dto.processDefName);
        if (!def) throw unknownType(dto.processDefName, 'processDefName');
        const p = newProcess(ctx, def, { input: dto.args, tenant, triggerId: dto.triggerId ?? o.triggerId ?? null, description: dto.description });
        await startProcesses(ctx, [p]);
        return p;
      });
      return response(await flowPromise, process);
    },

    async sendEvent(id, eventId, body, o) {
      const flow = await flowPromise;
      const process = await inTransaction(async (ctx) => {
        const current = await load(ctx.trx, id, o, true);
        if (!flow.knownEvents().has(eventId)) {
          throw new FwError({ code: 422, subErrorCode: ProcessErrorCodes.unknownEvent, description: `Unknown event '${eventId}'`, params: [eventId] });
        }
        const isChildReport = eventId === ProcessEvents.subProcessDoneSuccessfully || eventId === ProcessEvents.subProcessDoneWithErrors;
        if (!isChildReport && !flow.isAllowed(current.state, eventId)) throw eventNotAllowed(current.state, eventId);
        const payload = validateEventPayload(eventId, body);
        if (isChildReport) return (await reportChild(ctx, current.id, { eventId, payload }, true)) ?? current;
        await applyEvent(ctx, current, eventId, payload);
        return current;
      });
      return response(flow, process);
    },

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
      return inTransaction((ctx) => chain(ctx, completed));
    },

    flow: () => flowPromise,
  };
}
