/**
 * The internals shared by the manager's calls and the outbox command handlers: new processes,
 * events applied to locked processes, children, completion, parent counting and chaining, all
 * inside one {@link TxContext}. With the outbox the consequences that leave the process row
 * (worker launches, parent signals, completion delivery) become outbox commands written in the
 * same transaction; without it they run inline, as before.
 */
import { FwError } from '@fw/core';
import {
  PROCESS_FLOW_ID,
  ProcessErrorCodes,
  ProcessEvents,
  ProcessStates,
  WorkerType,
  type Process,
  type ProcessCompletedEvent,
  type ProcessDef,
  type ProcessErrorRecord,
  type SubProcessRequest,
  type WorkerDto,
  type WorkerStarter,
} from '@fw/process-api';
import type { ProcessStep } from '../flow/process-flow-actions';
import { eventNotAllowed } from '../flow/process-flow';
import { makeProcessBatchRepository, type ProcessStateWrite } from '../repository/process-batch-repository';
import type { ProcessDb, ProcessTransaction } from '../repository/process-tables';
import { completedEventOf, successorInput } from './process-chaining';
import { assertInputMatches, checkParentType } from './input-validation';

export { ProcessCommandTypes, notFound, unknownType } from './process-engine-types';
export type {
  BatchedEvent,
  BatchWorkerStarter,
  ChildReportEvent,
  CompletionListener,
  NewProcessInit,
  ProcessEngineDeps,
  TxContext,
} from './process-engine-types';
import {
  notFound,
  ProcessCommandTypes,
  unknownType,
  type BatchedEvent,
  type BatchWorkerStarter,
  type ChildReportEvent,
  type NewProcessInit,
  type ProcessEngineDeps,
  type TxContext,
} from './process-engine-types';

export type ProcessEngine = ReturnType<typeof makeProcessEngine>;

export function makeProcessEngine(deps: ProcessEngineDeps) {
  const { repo, logger, newId } = deps;
  const batchRepo = makeProcessBatchRepository();
  const inlineLaunches = (deps.workerStarter as Partial<BatchWorkerStarter>).transactional === true;

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

  /** The WorkerDto of the worker `process` waits for, if any (without aggregator results). */
  function workerOf(ctx: TxContext, process: Process): WorkerDto | undefined {
    const workerType = ctx.flow.workerTypeOf(process.state.stateId);
    if (workerType === undefined) return undefined;
    const def = ctx.defs.get(process.processType);
    const worker: WorkerDto = {
      processId: process.id,
      processType: process.processType,
      workerType,
      tenant: process.tenant,
      triggerId: process.triggerId,
      parentId: process.parentId,
      input: process.input,
      config: { ...(def?.config ?? {}) },
    };
    if (def?.retry) worker.retry = def.retry;
    if (def?.priority !== undefined && def.priority !== null) worker.priority = def.priority;
    return worker;
  }

  /** Hands a worker to the starter in `ctx`'s transaction (aggregators get their children's results). */
  async function startWorkerNow(ctx: TxContext, worker: WorkerDto): Promise<void> {
    await deps.workerStarter.startWorker(await handedWorker(ctx.trx, worker), {
      transaction: ctx.trx,
      afterCommit: ctx.afterCommit,
    });
  }

  /** The worker as a starter gets it: its own copy, and an aggregator's children's results read with `db`. */
  async function handedWorker(db: ProcessDb, worker: WorkerDto): Promise<WorkerDto> {
    const dto: WorkerDto = { ...worker, config: { ...worker.config } };
    if (dto.workerType === WorkerType.AGGREGATOR) dto.subProcessResults = await repo.childResults(db, dto.processId);
    return dto;
  }

  /**
   * The outbox's delivery path (`WorkerStarter.deliverWorker`): the worker as {@link startWorkerNow}
   * would hand it (an aggregator reads its children's results first), delivered outside any transaction.
   */
  async function deliverWorkerNow(db: ProcessDb, worker: WorkerDto): Promise<void> {
    const deliver = deps.workerStarter.deliverWorker;
    if (deliver === undefined) throw new Error('deliverWorkerNow: the worker starter has no deliverWorker');
    await deliver.call(deps.workerStarter, await handedWorker(db, worker));
  }

  /**
   * Hands many workers to the starter in `ctx`'s transaction: one call when it can take a batch.
   * Each gets its own copy unless `owned` (workers this engine has just built for the starter).
   */
  async function startWorkersNow(ctx: TxContext, workers: readonly WorkerDto[], owned = false): Promise<void> {
    const starter = deps.workerStarter as Partial<BatchWorkerStarter<ProcessTransaction>> &
      WorkerStarter<ProcessTransaction>;
    if (typeof starter.startWorkers !== 'function' || workers.length < 2) {
      for (const w of workers) await startWorkerNow(ctx, w);
      return;
    }
    // Aggregators need their children's results; they are rare (one per split), so one by one.
    const plain: WorkerDto[] = [];
    for (const w of workers) {
      if (w.workerType === WorkerType.AGGREGATOR) await startWorkerNow(ctx, w);
      else plain.push(owned ? w : { ...w, config: { ...w.config } });
    }
    if (plain.length > 0) await starter.startWorkers(plain, { transaction: ctx.trx, afterCommit: ctx.afterCommit });
  }

  /** Post-save hook: launches the workers of the states entered (inline, or as outbox commands). */
  async function launchWorkers(ctx: TxContext, processes: readonly Process[]): Promise<void> {
    const workers: WorkerDto[] = [];
    for (const p of processes) {
      const worker = workerOf(ctx, p);
      if (worker === undefined) continue;
      if (ctx.commands && !inlineLaunches)
        ctx.commands.push({
          commandType: ProcessCommandTypes.START_WORKER,
          processId: p.id,
          tenant: p.tenant,
          payload: { worker },
        });
      else workers.push(worker);
    }
    if (workers.length > 0) await startWorkersNow(ctx, workers, true);
  }

  async function launchWorker(ctx: TxContext, process: Process): Promise<void> {
    await launchWorkers(ctx, [process]);
  }

  /** Enters the flow for new processes, inserts them and launches their workers. Returns the inserted ids. */
  async function startProcesses(ctx: TxContext, processes: Process[]): Promise<Set<string>> {
    for (const p of processes) await ctx.flow.start(p, makeStep(ctx));
    const inserted = await repo.insertMany(ctx.trx, processes);
    await launchWorkers(
      ctx,
      processes.filter((p) => inserted.has(p.id)),
    );
    return inserted;
  }

  /**
   * Checks every child (before any is inserted, so a refused split writes nothing), inserts them
   * with their work items (set-based) and refuses ids that belong to another parent. Returns the
   * ids inserted now. `parent` need not be locked: only its id, type, tenant and trigger are read.
   */
  async function insertChildren(
    ctx: TxContext,
    parent: Process,
    requests: readonly SubProcessRequest[],
  ): Promise<Set<string>> {
    const children = requests.map((r, i) => {
      const def = ctx.defs.get(r.processType);
      if (!def) throw unknownType(r.processType, `subProcesses[${i}].processType`);
      checkParentType(def, parent, i);
      assertInputMatches(def, r.args, `subProcesses[${i}].args`);
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
        throw new FwError({
          code: 409,
          subErrorCode: ProcessErrorCodes.childIdConflict,
          description: `childId ${foreign} already belongs to another process`,
          params: [foreign],
          field: 'subProcesses.childId',
        });
      }
    }
    return inserted;
  }

  /**
   * A split's heavy part before its parent is locked: the children and their work items are
   * inserted while other transactions keep counting finished children on the same parent (the
   * parent row is locked `for no key update`, which the children's foreign-key checks do not wait
   * for). The event's action then only counts them (see {@link TxContext.earlyChildren}); if the
   * parent no longer accepts the event once locked, the transaction rolls back, children included.
   */
  async function insertChildrenEarly(
    ctx: TxContext,
    parent: Process,
    requests: readonly SubProcessRequest[],
  ): Promise<void> {
    if (requests.length === 0) return;
    ctx.earlyChildren = { parentId: parent.id, requests, inserted: await insertChildren(ctx, parent, requests) };
  }

  async function createChildren(
    ctx: TxContext,
    parent: Process,
    requests: readonly SubProcessRequest[],
  ): Promise<void> {
    if (requests.length === 0) return;
    const early = ctx.earlyChildren;
    const inserted =
      early !== undefined && early.parentId === parent.id && early.requests === requests
        ? early.inserted
        : await insertChildren(ctx, parent, requests);
    if (early?.requests === requests) ctx.earlyChildren = undefined;
    parent.numSubProcesses += inserted.size;
  }

  /**
   * Sends events, in order, to a locked process, saves it once and runs the consequences (errors,
   * worker of the state entered, completion). Events the current state refuses throw 422.
   */
  async function applyEvents(
    ctx: TxContext,
    process: Process,
    events: ReadonlyArray<{ eventId: string; payload: unknown }>,
  ): Promise<void> {
    const before = { stateId: process.state.stateId, version: process.version };
    const step = makeStep(ctx);
    // Without a yield per event when the flow's actions are synchronous: a parent counting hundreds
    // of reports is locked meanwhile.
    for (const e of events) {
      const sent = ctx.flow.sendNow(process, e.eventId, e.payload, step);
      if (sent instanceof Promise) await sent;
    }
    const entered = process.state.stateId !== before.stateId;
    if (entered) process.stateEntryTime = ctx.now.toISOString();
    process.lastModifiedTime = ctx.now.toISOString();
    process.version = before.version + 1;
    if (!(await repo.update(ctx.trx, process, before.version))) {
      throw new FwError({
        code: 409,
        subErrorCode: ProcessErrorCodes.concurrentModification,
        description: `Process ${process.id} was changed concurrently`,
        params: [process.id],
      });
    }
    await repo.insertErrors(ctx.trx, process.id, step.newErrors);
    if (entered) await launchWorker(ctx, process);
    if (step.completed) await complete(ctx, process);
  }

  /**
   * The set-based twin of {@link applyEvents} for many locked processes, one event each (events
   * that create children or count children are not accepted here): every event is applied in
   * memory, then all processes are saved with one statement, their errors inserted with one, the
   * workers of the states entered launched together and the completions written together. An event
   * the flow refuses (or whose action throws) leaves its process untouched and is returned in the
   * map of failures; the others go on. A lost optimistic check fails the whole batch (409).
   */
  async function applyEventBatch(ctx: TxContext, batch: readonly BatchedEvent[]): Promise<Map<string, unknown>> {
    const failures = new Map<string, unknown>();
    const writes: ProcessStateWrite[] = [];
    const errors: Array<{ ownerId: string; error: ProcessErrorRecord }> = [];
    const entered: Process[] = [];
    const completed: Process[] = [];
    const now = ctx.now.toISOString();
    for (const { process, eventId, payload } of batch) {
      // The event runs on a copy, so a refusal or a throwing action leaves the process as loaded.
      const next: Process = { ...process, state: { ...process.state }, errors: [...process.errors] };
      const step = makeStep(ctx);
      try {
        const sent = ctx.flow.sendNow(next, eventId, payload, step);
        if (sent instanceof Promise) await sent;
      } catch (err) {
        failures.set(process.id, err);
        continue;
      }
      const moved = next.state.stateId !== process.state.stateId;
      const expectedVersion = process.version;
      Object.assign(process, next, { lastModifiedTime: now, version: expectedVersion + 1 });
      if (moved) {
        process.stateEntryTime = now;
        entered.push(process);
      }
      writes.push({ process, expectedVersion });
      for (const error of step.newErrors) errors.push({ ownerId: process.id, error });
      if (step.completed) completed.push(process);
    }
    const saved = await batchRepo.saveStates(ctx.trx, writes);
    const lost = writes.find((w) => !saved.has(w.process.id));
    if (lost !== undefined) {
      throw new FwError({
        code: 409,
        subErrorCode: ProcessErrorCodes.concurrentModification,
        description: `Process ${lost.process.id} was changed concurrently`,
        params: [lost.process.id],
      });
    }
    await batchRepo.insertErrors(ctx.trx, errors);
    await launchWorkers(ctx, entered);
    await completeMany(ctx, completed);
    return failures;
  }

  function childReportOf(child: Process): ChildReportEvent {
    if (child.state.stateId === ProcessStates.PROCESSED) {
      return {
        eventId: ProcessEvents.subProcessDoneSuccessfully,
        payload: { childId: child.id, output: child.output },
      };
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

  async function complete(ctx: TxContext, process: Process): Promise<void> {
    await completeMany(ctx, [process]);
  }

  /**
   * Completion of processes that entered a terminal state: their completion events (one insert),
   * then either outbox commands or, inline, the parents' counting, chaining and listeners. With the
   * outbox a child's chaining and listeners travel in its CHILD_COMPLETED command (one command per
   * leaf instead of two); a root gets PROCESS_COMPLETED. `ctx.countChildrenInline` takes the inline
   * way in outbox mode too.
   */
  async function completeMany(ctx: TxContext, processes: readonly Process[]): Promise<void> {
    if (processes.length === 0) return;
    const events = processes.map((p) => ({ process: p, event: completedEventOf(p) }));
    await batchRepo.insertCompletionEvents(
      ctx.trx,
      events.map(({ event }) => ({ id: newId(), event, time: ctx.now })),
    );
    if (ctx.commands && ctx.countChildrenInline !== true) {
      for (const { process, event } of events) {
        if (process.parentId !== null) {
          ctx.commands.push({
            commandType: ProcessCommandTypes.CHILD_COMPLETED,
            groupKey: process.parentId,
            processId: process.parentId,
            tenant: process.tenant,
            payload: { parentId: process.parentId, ...childReportOf(process), event },
          });
        } else {
          ctx.commands.push({
            commandType: ProcessCommandTypes.PROCESS_COMPLETED,
            processId: process.id,
            tenant: process.tenant,
            payload: { event },
          });
        }
      }
      return;
    }
    // Chaining and listeners first: they do not need the parents, whose locks are then held only
    // for the counting and the commit (many transactions count on one parent).
    for (const { event } of events) {
      if (ctx.defs.successorsOf(event.processType).length > 0) await chain(ctx, event);
      notifyAfterCommit(ctx, event);
    }
    const byParent = new Map<string, ChildReportEvent[]>();
    for (const { process } of events) {
      if (process.parentId === null) continue;
      const list = byParent.get(process.parentId) ?? [];
      list.push(childReportOf(process));
      byParent.set(process.parentId, list);
    }
    // Parents in id order, so two transactions counting on the same parents lock them alike.
    for (const parentId of [...byParent.keys()].sort())
      await reportChildren(ctx, parentId, byParent.get(parentId) ?? [], false);
  }

  function notifyAfterCommit(ctx: TxContext, event: ProcessCompletedEvent): void {
    const failed = (err: unknown): void =>
      logger.error({ err, processId: event.processId }, 'ProcessCompleted listener failed (best-effort delivery)');
    for (const listener of deps.listeners) {
      // A listener that returns no promise is called without making one (thousands per second on a fan-out).
      ctx.afterCommit(() => {
        try {
          const done = listener(event) as unknown;
          if (typeof (done as PromiseLike<void> | undefined)?.then === 'function')
            return Promise.resolve(done).then(undefined, failed);
        } catch (err) {
          failed(err);
        }
        return undefined;
      });
    }
  }

  /**
   * Counts children's completions on their parent exactly once: the child report rows are inserted
   * in one statement (a report already there conflicts and counts nothing), then the parent is
   * locked and only the new reports are applied (in order) before the parent is saved once. The
   * reports come before the parent's lock, on every path, so the lock that every counting
   * transaction of a fan-out waits for is held only for the counting itself and the commit (and
   * two reporters of one child always take the two in the same order). `external` reports (an
   * HTTP caller) are checked to be children of the parent and refused with 422, rolling back their
   * rows, when the parent's state does not accept them; internal reports a parent no longer
   * accepts are removed again and not counted.
   */
  async function reportChildren(
    ctx: TxContext,
    parentId: string,
    given: readonly ChildReportEvent[],
    external: boolean,
  ): Promise<Process | undefined> {
    const reports = [...new Map(given.map((r) => [r.payload.childId, r] as const)).values()];
    if (external)
      await assertChildrenOf(
        ctx,
        parentId,
        reports.map((r) => r.payload.childId),
      );
    const fresh = await repo.insertChildReports(
      ctx.trx,
      reports.map((r) => ({
        childId: r.payload.childId,
        parentId,
        successful: r.eventId === ProcessEvents.subProcessDoneSuccessfully,
        time: ctx.now,
      })),
    );
    const parent = await repo.findById(ctx.trx, parentId, { forUpdate: true });
    if (!parent) {
      if (external) throw notFound(parentId);
      await repo.deleteChildReports(ctx.trx, [...fresh]);
      logger.warn({ parentId, children: reports.length }, 'parent of a completed child not found');
      return undefined;
    }
    if (!external && !reports.every((r) => ctx.flow.isAllowed(parent.state, r.eventId))) {
      await repo.deleteChildReports(ctx.trx, [...fresh]);
      logger.warn(
        { parentId, parentState: parent.state.stateId, children: reports.length },
        'parent does not accept child reports in its state; not counted',
      );
      return parent;
    }
    const counted = reports.filter((r) => fresh.has(r.payload.childId));
    if (counted.length === 0) return parent;
    for (const r of counted)
      if (!ctx.flow.isAllowed(parent.state, r.eventId)) throw eventNotAllowed(parent.state, r.eventId);
    await applyEvents(ctx, parent, counted);
    return parent;
  }

  /** 400 when one of `childIds` is not a child of `parentId` (no lock taken; the caller has read the parent). */
  async function assertChildrenOf(ctx: TxContext, parentId: string, childIds: readonly string[]): Promise<void> {
    const parents = await repo.findParents(ctx.trx, childIds);
    const stranger = childIds.find((id) => parents.get(id) !== parentId);
    if (stranger !== undefined) {
      throw new FwError({
        code: 400,
        subErrorCode: ProcessErrorCodes.notAChild,
        description: `Process ${stranger} is not a child of ${parentId}`,
        params: [stranger, parentId],
        field: 'childId',
      });
    }
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

  return {
    newProcess,
    workerOf,
    startWorkerNow,
    startWorkersNow,
    deliverWorkerNow,
    startProcesses,
    insertChildrenEarly,
    applyEvents,
    applyEventBatch,
    reportChildren,
    chain,
    notifyAfterCommit,
  };
}
