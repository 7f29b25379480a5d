/**
 * Applies events to locked processes and saves them: one process with several events (the
 * general path) or many processes with one event each (set-based, for workers reporting batches).
 * Both end the same way, which is why they live together: errors inserted, workers of the states
 * entered launched, completions handed on.
 */
import { FwError } from '@fw/core';
import { ProcessErrorCodes, type Process, type ProcessErrorRecord } from '@fw/process-api';
import type { ProcessBatchRepository, ProcessStateWrite } from '../repository/process-batch-repository';
import type { ProcessRepository } from '../repository/process-repository';
import { countsChildrenInline, type BatchedEvent, type TxContext } from './process-engine-types';
import type { ProcessSpawner } from './process-spawner';
import type { ProcessStep } from '../flow/process-flow-actions';
import type { WorkerLauncher } from './worker-launcher';

/** What happens to processes that entered a terminal state. */
export interface CompletionPort {
  completeMany(ctx: TxContext, processes: readonly Process[]): Promise<void>;
}

export interface EventApplierDeps {
  repo: Pick<ProcessRepository, 'update' | 'insertErrors'>;
  batchRepo: Pick<ProcessBatchRepository, 'saveStates' | 'insertErrors'>;
  steps: Pick<ProcessSpawner, 'makeStep'>;
  launcher: Pick<WorkerLauncher, 'launchWorkers'>;
  completion: CompletionPort;
}

/** One process's batched event applied in memory, waiting for the batch's save. */
interface AppliedEvent {
  write: ProcessStateWrite;
  entered: boolean;
  errors: readonly ProcessErrorRecord[];
  completed: boolean;
}

export class EventApplier {
  constructor(private readonly deps: EventApplierDeps) {}

  /**
   * Sends events, in order, to a locked process, saves it once and runs the consequences (errors,
   * worker of the state entered, completion). Events the current state refuses throw 422.
   */
  async applyEvents(
    ctx: TxContext,
    process: Process,
    events: ReadonlyArray<{ eventId: string; payload: unknown }>,
  ): Promise<void> {
    const before = { stateId: process.state.stateId, version: process.version };
    const step = this.deps.steps.makeStep(ctx);
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
    const countedInline = step.completed && countedInlineOnSave(ctx, process);
    if (!(await this.deps.repo.update(ctx.trx, process, before.version, { countedInline })))
      throw concurrentModification(process.id);
    await this.deps.repo.insertErrors(ctx.trx, process.id, step.newErrors);
    if (entered) await this.deps.launcher.launchWorkers(ctx, [process]);
    if (step.completed) await this.deps.completion.completeMany(ctx, [process]);
  }

  /**
   * The set-based twin of {@link applyEvents} for many locked processes, one event each (events
   * that create children or count children are not accepted here): every event is applied in
   * memory, then all processes are saved with one statement, their errors inserted with one, the
   * workers of the states entered launched together and the completions written together. An event
   * the flow refuses (or whose action throws) leaves its process untouched and is returned in the
   * map of failures; the others go on. A lost optimistic check fails the whole batch (409).
   */
  async applyEventBatch(ctx: TxContext, batch: readonly BatchedEvent[]): Promise<Map<string, unknown>> {
    const failures = new Map<string, unknown>();
    const applied: AppliedEvent[] = [];
    const now = ctx.now.toISOString();
    for (const event of batch) {
      try {
        // Awaited only when the flow's actions were asynchronous: a batch of a thousand leaves
        // whose actions are not makes no promise and no turn of the microtask queue per event.
        const result = this.applyInMemory(ctx, event, now);
        applied.push(result instanceof Promise ? await result : result);
      } catch (err) {
        failures.set(event.process.id, err);
      }
    }
    const writes = applied.map((a) => a.write);
    const saved = await this.deps.batchRepo.saveStates(ctx.trx, writes);
    const lost = writes.find((w) => !saved.has(w.process.id));
    if (lost !== undefined) throw concurrentModification(lost.process.id);
    await this.deps.batchRepo.insertErrors(
      ctx.trx,
      applied.flatMap((a) => a.errors.map((error) => ({ ownerId: a.write.process.id, error }))),
    );
    await this.deps.launcher.launchWorkers(
      ctx,
      applied.filter((a) => a.entered).map((a) => a.write.process),
    );
    await this.deps.completion.completeMany(
      ctx,
      applied.filter((a) => a.completed).map((a) => a.write.process),
    );
    return failures;
  }

  /**
   * Applies one batched event at `now` (the transaction's time as ISO text); throws, or rejects,
   * leaving the process as loaded when the flow refuses it. A promise only when the flow's actions
   * returned one.
   */
  private applyInMemory(
    ctx: TxContext,
    { process, eventId, payload }: BatchedEvent,
    now: string,
  ): AppliedEvent | Promise<AppliedEvent> {
    // The event runs on a copy, so a refusal or a throwing action leaves the process as loaded.
    const next: Process = { ...process, state: { ...process.state }, errors: [...process.errors] };
    const step = this.deps.steps.makeStep(ctx);
    const sent = ctx.flow.sendNow(next, eventId, payload, step);
    return sent instanceof Promise
      ? sent.then(() => appliedOf(ctx, process, next, step, now))
      : appliedOf(ctx, process, next, step, now);
  }
}

/** The loaded `process` updated to `next` (the copy the event ran on) at `now`, ready for the batch's save. */
function appliedOf(
  ctx: TxContext,
  process: Process,
  next: Process,
  step: Pick<ProcessStep, 'completed' | 'newErrors'>,
  now: string,
): AppliedEvent {
  const entered = next.state.stateId !== process.state.stateId;
  const expectedVersion = process.version;
  Object.assign(process, next, { lastModifiedTime: now, version: expectedVersion + 1 });
  if (entered) process.stateEntryTime = now;
  const countedInline = step.completed && countedInlineOnSave(ctx, process);
  return {
    write: { process, expectedVersion, countedInline },
    entered,
    errors: step.newErrors,
    completed: step.completed,
  };
}

/**
 * A child that finishes now is marked counted on its parent by the save that writes its terminal
 * state when the completion will count it in this transaction (`completeMany`, inline): the mark
 * takes the place of a report row (see `ChildReportCounter`).
 */
function countedInlineOnSave(ctx: TxContext, process: Process): boolean {
  return process.parentId !== null && countsChildrenInline(ctx);
}

function concurrentModification(processId: string): FwError {
  return new FwError({
    code: 409,
    subErrorCode: ProcessErrorCodes.concurrentModification,
    description: `Process ${processId} was changed concurrently`,
    params: [processId],
  });
}
