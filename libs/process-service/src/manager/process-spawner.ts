/**
 * Brings new processes into existence: roots, the children of a split and the successors of a
 * completed process all enter the flow, are inserted set-based and have their workers launched the
 * same way. Children also need their parent's checks, and a split may insert them before its
 * parent is locked (see {@link ProcessSpawner.insertChildrenEarly}).
 */
import { FwError } from '@fw/core';
import {
  ProcessErrorCodes,
  type Process,
  type ProcessCompletedEvent,
  type ProcessDef,
  type SubProcessRequest,
} from '@fw/process-api';
import type { FwMetrics } from '@fw/telemetry';
import type { ProcessStep } from '../flow/process-flow-actions';
import type { ProcessRepository } from '../repository/process-repository';
import { assertInputMatches, checkParentType } from './input-validation';
import { successorInput } from './process-chaining';
import { unknownType, type NewProcessInit, type TxContext } from './process-engine-types';
import { newProcessRecord } from './process-factory';
import { traceChildrenCreated, traceProcessesCreated } from './process-tracing';
import type { WorkerLauncher } from './worker-launcher';

export interface ProcessSpawnerDeps {
  repo: Pick<ProcessRepository, 'insertMany' | 'findParents'>;
  newId: () => string;
  launcher: Pick<WorkerLauncher, 'launchWorkers'>;
  /** `fw_processes_created_total`, counted after the commit. */
  metrics?: FwMetrics;
}

export class ProcessSpawner {
  constructor(private readonly deps: ProcessSpawnerDeps) {}

  newProcess(ctx: TxContext, def: ProcessDef, init: NewProcessInit): Process {
    return newProcessRecord(def, init, init.id ?? this.deps.newId(), ctx.now);
  }

  /** The context of the flow's actions for one step in `ctx` (a split's action creates children through it). */
  makeStep(ctx: TxContext): ProcessStep {
    return {
      trx: ctx.trx,
      now: ctx.now,
      newErrors: [],
      completed: false,
      createSubProcesses: (parent, requests) => this.createChildren(ctx, parent, requests),
    };
  }

  /**
   * Enters the flow for new processes, inserts them and launches their workers. Returns the inserted
   * ids. Each gets its `create` span: as children of `splitParent`'s split when given.
   */
  async startProcesses(ctx: TxContext, processes: Process[], splitParent?: Process): Promise<Set<string>> {
    if (splitParent === undefined) traceProcessesCreated(processes);
    else traceChildrenCreated(splitParent, processes);
    for (const p of processes) await ctx.flow.start(p, this.makeStep(ctx));
    const inserted = await this.deps.repo.insertMany(ctx.trx, processes);
    const created = inserted.size === processes.length ? processes : processes.filter((p) => inserted.has(p.id));
    await this.deps.launcher.launchWorkers(ctx, created);
    const metrics = this.deps.metrics;
    if (metrics !== undefined && created.length > 0)
      ctx.afterCommit(() => {
        for (const p of created) metrics.processSeries(p).created();
      });
    return inserted;
  }

  /**
   * A split's heavy part before its parent is locked: the children and their work items are
   * inserted while other transactions keep counting finished children on the same parent (the
   * parent row is locked `for no key update`, which the children's foreign-key checks do not wait
   * for). The event's action then only counts them (see {@link TxContext.earlyChildren}); if the
   * parent no longer accepts the event once locked, the transaction rolls back, children included.
   */
  async insertChildrenEarly(ctx: TxContext, parent: Process, requests: readonly SubProcessRequest[]): Promise<void> {
    if (requests.length === 0) return;
    ctx.earlyChildren = { parentId: parent.id, requests, inserted: await this.insertChildren(ctx, parent, requests) };
  }

  /** Starts the successors of a completed process's type; returns those inserted now. */
  async chain(ctx: TxContext, event: ProcessCompletedEvent): Promise<Process[]> {
    const successors = ctx.defs.successorsOf(event.processType).map((def) =>
      this.newProcess(ctx, def, {
        input: successorInput(def, event),
        tenant: event.tenantId,
        triggerId: event.triggerId,
        predecessorId: event.processId,
      }),
    );
    if (successors.length === 0) return [];
    const inserted = await this.startProcesses(ctx, successors);
    return successors.filter((s) => inserted.has(s.id));
  }

  /** The split action's way in: counts the children inserted early, or inserts them now. */
  private async createChildren(ctx: TxContext, parent: Process, requests: readonly SubProcessRequest[]): Promise<void> {
    if (requests.length === 0) return;
    const early = ctx.earlyChildren;
    const inserted =
      early !== undefined && early.parentId === parent.id && early.requests === requests
        ? early.inserted
        : await this.insertChildren(ctx, parent, requests);
    if (early?.requests === requests) ctx.earlyChildren = undefined;
    parent.numSubProcesses += inserted.size;
  }

  /**
   * Checks every child (before any is inserted, so a refused split writes nothing), inserts them
   * with their work items (set-based) and refuses ids that belong to another parent. Returns the
   * ids inserted now. `parent` need not be locked: only its id, type, tenant and trigger are read.
   */
  private async insertChildren(
    ctx: TxContext,
    parent: Process,
    requests: readonly SubProcessRequest[],
  ): Promise<Set<string>> {
    const children = requests.map((r, i) => {
      const def = ctx.defs.get(r.processType);
      if (!def) throw unknownType(r.processType, `subProcesses[${i}].processType`);
      checkParentType(def, parent, i);
      assertInputMatches(def, r.args, `subProcesses[${i}].args`);
      return this.newProcess(ctx, def, {
        id: r.childId,
        input: r.args,
        tenant: parent.tenant,
        triggerId: parent.triggerId,
        parentId: parent.id,
        leaf: r.leaf,
      });
    });
    const inserted = await this.startProcesses(ctx, children, parent);
    const existing = children.filter((c) => !inserted.has(c.id)).map((c) => c.id);
    if (existing.length > 0) await this.refuseForeignChildren(ctx, parent, existing);
    return inserted;
  }

  /** 409 when one of the `existing` child ids already belongs to another parent. */
  private async refuseForeignChildren(ctx: TxContext, parent: Process, existing: readonly string[]): Promise<void> {
    const parents = await this.deps.repo.findParents(ctx.trx, existing);
    const foreign = existing.find((id) => parents.get(id) !== parent.id);
    if (foreign === undefined) return;
    throw new FwError({
      code: 409,
      subErrorCode: ProcessErrorCodes.childIdConflict,
      description: `childId ${foreign} already belongs to another process`,
      params: [foreign],
      field: 'subProcesses.childId',
    });
  }
}
