/**
 * What a worker is told when it is launched. The post-save hook builds one {@link WorkerDto} each
 * time a process enters SPLIT_PENDING, EXECUTING or AGGREGATION_PENDING.
 *
 * @example
 * async function execute(worker: WorkerDto): Promise<void> {
 *   const rows = await load(worker.input, Number(worker.config.batchSize ?? '100'));
 *   await client.patch(`/process/${worker.processId}/doneSuccessfully`, { output: { rows } });
 * }
 */
import type { RetryPolicy } from './process-def';

export const WorkerType = {
  SPLITTER: 'SPLITTER',
  EXECUTOR: 'EXECUTOR',
  AGGREGATOR: 'AGGREGATOR',
} as const;

export type WorkerType = (typeof WorkerType)[keyof typeof WorkerType];

/** Which worker a state launches (states not listed launch none). */
export const WORKER_TYPE_BY_STATE: Readonly<Record<string, WorkerType>> = {
  SPLIT_PENDING: WorkerType.SPLITTER,
  EXECUTING: WorkerType.EXECUTOR,
  AGGREGATION_PENDING: WorkerType.AGGREGATOR,
};

/** The result of one child, as handed to an aggregator. */
export interface SubProcessResult {
  processId: string;
  processType: string;
  /** Terminal state id (PROCESSED or PROCESSED_WITH_ERRORS). */
  stateId: string;
  successful: boolean;
  output: unknown;
}

export interface WorkerDto {
  processId: string;
  processType: string;
  workerType: WorkerType;
  tenant: string | null;
  triggerId: string | null;
  parentId: string | null;
  /** The process input. */
  input: unknown;
  /** A fresh copy of `ProcessDef.config` (mutating it changes nothing else). */
  config: Record<string, string>;
  /**
   * AGGREGATOR only: the direct children's results, in creation order, read in the same
   * transaction that entered AGGREGATION_PENDING (so they are complete). Absent for other workers.
   */
  subProcessResults?: SubProcessResult[];
  /** The definition's `retry` policy, when it sets one (durable starters apply it). */
  retry?: RetryPolicy;
  /** The definition's `priority` (0..9), when it sets one (the work-item queue orders by it). */
  priority?: number;
  /**
   * The W3C trace context of the launch, `traceparent` or `traceparent,tracestate` (the first
   * comma separates them), for the worker's spans to continue the process's trace. Absent when no
   * trace is active.
   */
  traceContext?: string;
}
