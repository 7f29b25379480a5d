/** The workers of a batch service, one per (processType, workerType). */
import { WorkerType, type WorkerDto } from '@fw/process-api';
import type { AggregatorBase } from '../workers/aggregator-base';
import type { ExecutorBase } from '../workers/executor-base';
import type { SplitterBase } from '../workers/splitter-base';

/** Any worker the batch service can run. */
export type Worker =
  SplitterBase<unknown, unknown> | ExecutorBase<unknown, unknown> | AggregatorBase<unknown, unknown, unknown>;

export interface WorkerRegistry {
  /** The worker registered for the pair, or undefined. */
  get(processType: string, workerType: string): Worker | undefined;
  /** True when a worker is registered for the pair. */
  has(processType: string, workerType: string): boolean;
  /** The executor registered for an EXECUTOR message, else undefined. */
  executorOf(dto: WorkerDto): ExecutorBase<unknown, unknown> | undefined;
}

/** Registers `workers`; two for the same pair fail here. */
export function makeWorkerRegistry(workers: readonly Worker[]): WorkerRegistry {
  const registry = new Map<string, Worker>();
  const keyOf = (processType: string, workerType: string) => `${workerType}\u0000${processType}`;
  for (const worker of workers) {
    const key = keyOf(worker.processType, worker.workerType);
    if (registry.has(key))
      throw new Error(`Two ${worker.workerType} workers registered for process type '${worker.processType}'`);
    registry.set(key, worker);
  }
  return {
    get: (processType, workerType) => registry.get(keyOf(processType, workerType)),
    has: (processType, workerType) => registry.has(keyOf(processType, workerType)),
    executorOf(dto) {
      if (dto.workerType !== WorkerType.EXECUTOR) return undefined;
      const worker = registry.get(keyOf(dto.processType, dto.workerType));
      return worker?.workerType === WorkerType.EXECUTOR ? worker : undefined;
    },
  };
}
