/**
 * The IPC messages between the coordinator of `npm run bench -- fanout --workers K` and its worker
 * processes (`fanout-worker-main.ts`), over the channel `child_process.fork` opens.
 *
 * @example
 * child.send({ type: 'wake' } satisfies CoordinatorMessage);
 * process.send?.({ type: 'ready' } satisfies WorkerMessage);
 */

/** Coordinator → worker. */
export type CoordinatorMessage =
  /** The root's splitter item was enqueued by another process: claim now, not at the next poll. */
  | { type: 'wake' }
  /** Stop gracefully: runner, dispatcher, pool; answer `stopped`, then exit 0. */
  | { type: 'stop' };

/** Worker → coordinator. */
export type WorkerMessage =
  /** The node runs (pool reachable, runner claiming, dispatcher polling). */
  | { type: 'ready' }
  /** This worker ran the root's splitter to its end, at this wall-clock time. */
  | { type: 'split-done'; atEpochMillis: number }
  /** Stopped; how many work items this worker's runner completed. */
  | { type: 'stopped'; itemsCompleted: number }
  /** Could not start, or could not stop cleanly. */
  | { type: 'failed'; message: string };

/** Wall-clock milliseconds with sub-millisecond precision, comparable between processes of one machine. */
export function epochMillis(): number {
  return performance.timeOrigin + performance.now();
}
