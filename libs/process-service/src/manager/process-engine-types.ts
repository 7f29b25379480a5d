/**
 * The types and small helpers the process engine shares with the manager and the outbox handlers:
 * command types, the transaction context, engine dependencies, the 404/400 errors.
 */
import { FwError, type Logger } from '@fw/core';
import {
  ProcessErrorCodes,
  type Process,
  type ProcessCompletedEvent,
  type SubProcessRequest,
  type WorkerDto,
  type WorkerStartContext,
  type WorkerStarter,
} from '@fw/process-api';
import type { NewOutboxCommand } from '@fw/process-outbox';
import type { FwMetrics } from '@fw/telemetry';
import type { ProcessFlow } from '../flow/process-flow';
import type { ProcessRepository } from '../repository/process-repository';
import type { ProcessTransaction } from '../repository/process-tables';
import type { DefinitionSnapshot } from './process-chaining';

/** Outbox command types written by the process service. */
export const ProcessCommandTypes = {
  /** Launch one worker through the WorkerStarter (payload `{ worker }`). */
  START_WORKER: 'START_WORKER',
  /** Count a completed child on its parent (payload `{ parentId, eventId, payload }`, group key = parent id). */
  CHILD_COMPLETED: 'CHILD_COMPLETED',
  /** Chain successors and notify listeners (payload `{ event }`). */
  PROCESS_COMPLETED: 'PROCESS_COMPLETED',
} as const;

export type CompletionListener = (event: ProcessCompletedEvent) => void | Promise<void>;

/**
 * A WorkerStarter that can also take many workers in one call (for example one multi-row insert).
 * The engine uses `startWorkers` when the starter has it, else `startWorker` per worker.
 */
export interface BatchWorkerStarter<TTransaction = unknown> extends WorkerStarter<TTransaction> {
  startWorkers(workers: readonly WorkerDto[], context: WorkerStartContext<TTransaction>): void | Promise<void>;
  /**
   * `true` when the starter only writes with `context.transaction` (a durable row, as the JDBC
   * starter does): with the outbox its launches then run inline, in the transaction of the state
   * change, instead of as START_WORKER commands, whose only effect would be that same insert.
   */
  readonly transactional?: boolean;
}

/** One process of {@link ProcessEngine.applyEventBatch}: locked, with the single event to apply. */
export interface BatchedEvent {
  process: Process;
  eventId: string;
  payload: unknown;
}

export interface TxContext {
  trx: ProcessTransaction;
  now: Date;
  defs: DefinitionSnapshot;
  flow: ProcessFlow;
  afterCommit(callback: () => void | Promise<void>): void;
  /** Outbox mode: commands to write before the commit. */
  commands?: NewOutboxCommand[];
  /**
   * Count completed children on their parents in this transaction even in outbox mode (set by
   * `sendEvents`: its batch locks each parent once for many children, where one CHILD_COMPLETED
   * command per child would cost four more row writes each). The child's terminal transition and
   * its count then commit together, so the count is exactly once by construction; the child's
   * `counted_inline` mark guards against a second route (an HTTP report of the same child).
   */
  countChildrenInline?: boolean;
  /**
   * Children a split event already inserted in this transaction before its parent was locked
   * (`ProcessEngine.insertChildrenEarly`): when the event's action creates exactly these requests
   * (the same array) for this parent, it only counts them.
   */
  earlyChildren?: EarlyChildren;
}

/** What {@link TxContext.earlyChildren} holds. */
export interface EarlyChildren {
  parentId: string;
  requests: readonly SubProcessRequest[];
  /** Ids inserted now (children that already existed under this parent are not counted again). */
  inserted: ReadonlySet<string>;
}

export interface NewProcessInit {
  id?: string;
  input: unknown;
  tenant: string | null;
  triggerId: string | null;
  parentId?: string | null;
  predecessorId?: string | null;
  description?: string | null;
  leaf?: boolean;
}

/**
 * Where a child report comes from, which decides what keeps it from being counted twice:
 * - `inline`: the engine, in the transaction that finished the child (whose row it marked
 *   `counted_inline`); a child finishes once, so only a report row of another route can precede it;
 * - `command`: an outbox CHILD_COMPLETED command, delivered at least once: the report row guards;
 * - `external`: an HTTP caller's subProcessDone* event: the child is checked to be the parent's
 *   and locked, a child counted inline is skipped and the report row guards the rest.
 */
export type ChildReportSource = 'inline' | 'command' | 'external';

/**
 * `true` when the children finishing in this transaction are counted on their parents in it (no
 * outbox, or `countChildrenInline`), `false` when each leaves as a CHILD_COMPLETED command.
 */
export function countsChildrenInline(ctx: Pick<TxContext, 'commands' | 'countChildrenInline'>): boolean {
  return ctx.commands === undefined || ctx.countChildrenInline === true;
}

export interface ChildReportEvent {
  eventId: string;
  payload: { childId: string } & Record<string, unknown>;
}

export interface ProcessEngineDeps {
  repo: ProcessRepository;
  workerStarter: WorkerStarter<ProcessTransaction>;
  logger: Logger;
  newId: () => string;
  listeners: readonly CompletionListener[];
  /** Records created and finished processes after each commit; absent: nothing recorded. */
  metrics?: FwMetrics;
}

export function notFound(id: string): FwError {
  return new FwError({
    code: 404,
    subErrorCode: ProcessErrorCodes.processNotFound,
    description: `Process ${id} not found`,
    params: [id],
  });
}

export function unknownType(processType: string, field: string): FwError {
  return new FwError({
    code: 400,
    subErrorCode: ProcessErrorCodes.unknownProcessType,
    description: `No process definition named '${processType}'`,
    params: [processType],
    field,
  });
}
