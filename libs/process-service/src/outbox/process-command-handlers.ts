/**
 * The outbox command handlers of the process service (used when `fw.process.outbox.enabled`):
 *
 * | command | effect, in the dispatcher's transaction (with its receipt and acknowledgement) | DEAD |
 * |---|---|---|
 * | START_WORKER | `workerStarter.startWorker(worker, { transaction, afterCommit })` (aggregators get their children's results); a starter with `deliverWorker` (RabbitMQ) delivers BEFORE this transaction instead, while the command is claimed, and the transaction only acknowledges it | the step's error event (`doneWithErrors`, `splitDoneWithErrors`, `aggregationDoneWithErrors`) is applied to the process, which records the error and ends PROCESSED_WITH_ERRORS (or, for a splitter after a partial split, waits for its children) |
 * | CHILD_COMPLETED (grouped by parent) | the parent is locked once, the child reports inserted in one statement, the new ones counted and the parent saved once; then, for each child, what PROCESS_COMPLETED does (its `event`: successors chained, listeners after the commit) | an error record on the parent naming the child |
 * | PROCESS_COMPLETED (roots only) | successors chained; listeners called after the commit (best-effort) | an error record on the completed process |
 */
import { ProcessEvents, type WorkerType, type ProcessCompletedEvent, type WorkerDto } from '@fw/process-api';
import type { OutboxCommand, OutboxCommandHandler, OutboxExecutionContext } from '@fw/process-outbox';
import type { ProcessRepository } from '../repository/process-repository';
import type { ProcessTables } from '../repository/process-tables';
import {
  ProcessCommandTypes,
  type ChildReportEvent,
  type ProcessEngine,
  type TxContext,
} from '../manager/process-engine';

/** What the handlers need from the manager. */
export interface ProcessCommandDeps {
  engine: ProcessEngine;
  repo: ProcessRepository;
  /** Reads flow and definitions before a transaction opens. */
  prepare(): Promise<void>;
  /** A context over the dispatcher's transaction (outbox mode: new commands are written before its commit). */
  contextOf(ctx: OutboxExecutionContext<ProcessTables>): TxContext;
  /** Writes the context's commands (called at the end of each handler). */
  flush(ctx: TxContext): Promise<void>;
  /**
   * The starter's network delivery (`WorkerStarter.deliverWorker`, with an aggregator's children's
   * results filled in), when it has one: START_WORKER then delivers before it is acknowledged.
   */
  deliverWorker?: (worker: WorkerDto) => Promise<void>;
}

const FAILURE_EVENT: Readonly<Record<WorkerType, string>> = {
  SPLITTER: ProcessEvents.splitDoneWithErrors,
  EXECUTOR: ProcessEvents.doneWithErrors,
  AGGREGATOR: ProcessEvents.aggregationDoneWithErrors,
};

function deadMessage(command: OutboxCommand, error: string): string {
  return `outbox command ${command.commandType} ${command.id} is DEAD after ${command.attempts} attempt(s): ${error}`;
}

/** Makes the three handlers, by command type. */
export function makeProcessCommandHandlers(
  deps: ProcessCommandDeps,
): Record<string, OutboxCommandHandler<ProcessTables>> {
  return {
    [ProcessCommandTypes.START_WORKER]: startWorkerHandler(deps),
    [ProcessCommandTypes.CHILD_COMPLETED]: childCompletedHandler(deps),
    [ProcessCommandTypes.PROCESS_COMPLETED]: processCompletedHandler(deps),
  };
}

/** Runs `fn` over a context of the dispatcher's transaction, then writes the commands it collected. */
async function inContext(
  deps: ProcessCommandDeps,
  ctx: OutboxExecutionContext<ProcessTables>,
  fn: (tx: TxContext) => Promise<void>,
): Promise<void> {
  const tx = deps.contextOf(ctx);
  await fn(tx);
  await deps.flush(tx);
}

/** Records `message` as an error of `ownerId` (when it still exists): what a DEAD command leaves behind. */
async function errorOn(
  repo: ProcessRepository,
  tx: TxContext,
  ownerId: string,
  processId: string,
  message: string,
): Promise<void> {
  const owner = await repo.findById(tx.trx, ownerId, { forUpdate: true });
  if (!owner) return;
  await repo.insertErrors(tx.trx, ownerId, [
    {
      processId,
      timeOfCompletion: tx.now.toISOString(),
      errors: [message],
      exceptionMessage: message,
      stackTrace: null,
    },
  ]);
}

function startWorkerHandler(deps: ProcessCommandDeps): OutboxCommandHandler<ProcessTables> {
  const deliverWorker = deps.deliverWorker;
  return {
    grouped: true,
    prepare: deps.prepare,
    // A network starter (RabbitMQ) delivers while the command is claimed; the transaction then only
    // acknowledges it. Any other starter launches inside the acknowledging transaction.
    ...(deliverWorker === undefined
      ? {}
      : { deliver: (command: OutboxCommand) => deliverWorker((command.payload as { worker: WorkerDto }).worker) }),
    execute: (commands, ctx) =>
      deliverWorker !== undefined
        ? Promise.resolve()
        : inContext(deps, ctx, async (tx) => {
            await deps.engine.startWorkersNow(
              tx,
              commands.map((c) => (c.payload as { worker: WorkerDto }).worker),
            );
          }),
    onDead: (command, error, ctx) => inContext(deps, ctx, (tx) => failWorkerStep(deps, tx, command, error)),
  };
}

/** A worker that could not be started fails its step: the step's error event is applied to the process. */
async function failWorkerStep(
  deps: ProcessCommandDeps,
  tx: TxContext,
  command: OutboxCommand,
  error: string,
): Promise<void> {
  const worker = (command.payload as { worker: WorkerDto }).worker;
  const process = await deps.repo.findById(tx.trx, worker.processId, { forUpdate: true });
  if (!process || tx.flow.workerTypeOf(process.state.stateId) !== worker.workerType) return;
  const eventId = FAILURE_EVENT[worker.workerType];
  if (!tx.flow.isAllowed(process.state, eventId)) return;
  const message = deadMessage(command, error);
  await deps.engine.applyEvents(tx, process, [
    {
      eventId,
      payload: {
        errors: [`${worker.workerType} could not be started: ${message}`],
        exceptionMessage: error,
        stackTrace: null,
      },
    },
  ]);
}

function childCompletedHandler(deps: ProcessCommandDeps): OutboxCommandHandler<ProcessTables> {
  return {
    grouped: true,
    prepare: deps.prepare,
    execute: (commands, ctx) => inContext(deps, ctx, (tx) => countChildren(deps, tx, commands)),
    onDead: (command, error, ctx) =>
      inContext(deps, ctx, async (tx) => {
        const p = command.payload as { parentId: string; event?: ProcessCompletedEvent } & ChildReportEvent;
        await errorOn(deps.repo, tx, p.parentId, p.payload.childId, deadMessage(command, error));
        // The child's completion delivery (chaining, listeners) was lost with it: say so on the child.
        if (p.event !== undefined)
          await errorOn(deps.repo, tx, p.event.processId, p.event.processId, deadMessage(command, error));
      }),
  };
}

async function countChildren(
  deps: ProcessCommandDeps,
  tx: TxContext,
  commands: readonly OutboxCommand[],
): Promise<void> {
  const { engine } = deps;
  const byParent = new Map<string, ChildReportEvent[]>();
  for (const c of commands) {
    const p = c.payload as { parentId: string } & ChildReportEvent;
    const list = byParent.get(p.parentId) ?? [];
    list.push({ eventId: p.eventId, payload: p.payload });
    byParent.set(p.parentId, list);
  }
  // A child's own completion delivery (chaining, listeners) rides on its CHILD_COMPLETED
  // command (commands written before this carried none and had a PROCESS_COMPLETED of their
  // own). It goes first: the parents' locks are then held only for the counting.
  for (const c of commands) {
    const event = (c.payload as { event?: ProcessCompletedEvent }).event;
    if (event === undefined) continue;
    await engine.chain(tx, event);
    engine.notifyAfterCommit(tx, event);
  }
  // Parents in id order, so two dispatchers counting on the same parents lock them alike.
  for (const parentId of [...byParent.keys()].sort())
    await engine.reportChildren(tx, parentId, byParent.get(parentId) ?? [], 'command');
}

function processCompletedHandler(deps: ProcessCommandDeps): OutboxCommandHandler<ProcessTables> {
  return {
    grouped: true,
    prepare: deps.prepare,
    execute: (commands, ctx) =>
      inContext(deps, ctx, async (tx) => {
        for (const c of commands) {
          const event = (c.payload as { event: ProcessCompletedEvent }).event;
          await deps.engine.chain(tx, event);
          deps.engine.notifyAfterCommit(tx, event);
        }
      }),
    onDead: (command, error, ctx) =>
      inContext(deps, ctx, async (tx) => {
        const event = (command.payload as { event: ProcessCompletedEvent }).event;
        await errorOn(deps.repo, tx, event.processId, event.processId, deadMessage(command, error));
      }),
  };
}
