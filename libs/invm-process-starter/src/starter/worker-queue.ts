/**
 * The FIFO of workers waiting for a dispatch slot: an array read from a moving head, compacted
 * once the consumed part is large (no `shift()` per worker on a queue of 10,000).
 */
import type { WorkerDto } from '@fw/process-api';

export interface WorkerQueue {
  push(worker: WorkerDto): void;
  /** The oldest waiting worker, removed; undefined when none waits. */
  take(): WorkerDto | undefined;
  /** Workers waiting. */
  readonly size: number;
}

export function makeWorkerQueue(): WorkerQueue {
  let queue: WorkerDto[] = [];
  let head = 0;
  return {
    push(worker) {
      queue.push(worker);
    },
    take() {
      if (head >= queue.length) return undefined;
      const worker = queue[head];
      head += 1;
      if (head > 1024 && head * 2 > queue.length) {
        queue = queue.slice(head);
        head = 0;
      }
      return worker;
    },
    get size() {
      return queue.length - head;
    },
  };
}
