/**
 * Hands workers to the {@link WorkerStarter}. Separate from the engine because there are three ways
 * a worker leaves (inline in the state change's transaction, as a START_WORKER outbox command, or
 * delivered over the network by the outbox) and all three must hand the same worker.
 */
import { WorkerType, type Process, type WorkerDto, type WorkerStarter } from '@fw/process-api';
import type { ProcessRepository } from '../repository/process-repository';
import type { ProcessDb, ProcessTransaction } from '../repository/process-tables';
import { ProcessCommandTypes, type BatchWorkerStarter, type TxContext } from './process-engine-types';
import { traceWorkerLaunch } from './process-tracing';

/** Most children whose results travel inside an aggregator's message (above, its step reads them). */
export const EMBEDDED_CHILD_RESULTS = 1000;

export interface WorkerLauncherDeps {
  repo: Pick<ProcessRepository, 'childResultPage'>;
  workerStarter: WorkerStarter<ProcessTransaction>;
}

export class WorkerLauncher {
  /** A transactional starter only inserts a row: an outbox command would just postpone that insert. */
  private readonly inlineLaunches: boolean;
  /** `messaging.destination.name` of a launch's `create` span: the work-item table for a transactional starter. */
  private readonly launchDestination: string;

  constructor(private readonly deps: WorkerLauncherDeps) {
    this.inlineLaunches = (deps.workerStarter as Partial<BatchWorkerStarter>).transactional === true;
    this.launchDestination = this.inlineLaunches ? 'fw_process_work_item' : 'fw_worker';
  }

  /** The WorkerDto of the worker `process` waits for, if any (without aggregator results). */
  workerOf(ctx: TxContext, process: Process): WorkerDto | undefined {
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
  async startWorkerNow(ctx: TxContext, worker: WorkerDto): Promise<void> {
    await this.deps.workerStarter.startWorker(await this.handedWorker(ctx.trx, worker), {
      transaction: ctx.trx,
      afterCommit: ctx.afterCommit,
    });
  }

  /**
   * The outbox's delivery path (`WorkerStarter.deliverWorker`): the worker as {@link startWorkerNow}
   * would hand it (an aggregator reads its children's results first), delivered outside any transaction.
   */
  async deliverWorkerNow(db: ProcessDb, worker: WorkerDto): Promise<void> {
    const starter = this.deps.workerStarter;
    const deliver = starter.deliverWorker;
    if (deliver === undefined) throw new Error('deliverWorkerNow: the worker starter has no deliverWorker');
    await deliver.call(starter, await this.handedWorker(db, worker));
  }

  /**
   * Hands many workers to the starter in `ctx`'s transaction: one call when it can take a batch.
   * Each gets its own copy unless `owned` (workers this engine has just built for the starter).
   */
  async startWorkersNow(ctx: TxContext, workers: readonly WorkerDto[], owned = false): Promise<void> {
    const starter = this.deps.workerStarter as Partial<BatchWorkerStarter<ProcessTransaction>> &
      WorkerStarter<ProcessTransaction>;
    if (typeof starter.startWorkers !== 'function' || workers.length < 2) {
      for (const w of workers) await this.startWorkerNow(ctx, w);
      return;
    }
    // Aggregators need their children's results; they are rare (one per split), so one by one.
    const plain: WorkerDto[] = [];
    for (const w of workers) {
      if (w.workerType === WorkerType.AGGREGATOR) await this.startWorkerNow(ctx, w);
      else plain.push(owned ? w : { ...w, config: { ...w.config } });
    }
    if (plain.length > 0) await starter.startWorkers(plain, { transaction: ctx.trx, afterCommit: ctx.afterCommit });
  }

  /** Post-save hook: launches the workers of the states entered (inline, or as outbox commands). */
  async launchWorkers(ctx: TxContext, processes: readonly Process[]): Promise<void> {
    const workers: WorkerDto[] = [];
    for (const p of processes) {
      const worker = this.workerOf(ctx, p);
      if (worker === undefined) continue;
      const asCommand = ctx.commands !== undefined && !this.inlineLaunches;
      traceWorkerLaunch(p, worker, asCommand ? 'fw_process_outbox' : this.launchDestination);
      if (asCommand)
        ctx.commands?.push({
          commandType: ProcessCommandTypes.START_WORKER,
          processId: p.id,
          tenant: p.tenant,
          payload: { worker },
          traceContext: worker.traceContext ?? null,
        });
      else workers.push(worker);
    }
    if (workers.length > 0) await this.startWorkersNow(ctx, workers, true);
  }

  /**
   * The worker as a starter gets it: its own copy, and an aggregator's children's results read with
   * `db` when there are at most {@link EMBEDDED_CHILD_RESULTS} of them. Beyond, the message goes
   * without them and the aggregator's step reads them page by page where it runs (its sink's
   * `loadChildResults`): a message, a work-item row and a process's memory holding the results of a
   * million children are what made the end of a large fan-out slow and its memory grow.
   */
  private async handedWorker(db: ProcessDb, worker: WorkerDto): Promise<WorkerDto> {
    const dto: WorkerDto = { ...worker, config: { ...worker.config } };
    if (dto.workerType === WorkerType.AGGREGATOR) {
      const page = await this.deps.repo.childResultPage(db, dto.processId, EMBEDDED_CHILD_RESULTS + 1);
      if (page.complete) dto.subProcessResults = page.results;
    }
    return dto;
  }
}
