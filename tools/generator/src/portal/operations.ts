/**
 * Long-running portal work (a generation, a project's tests or build) as operations: each has a
 * log that clients follow over SSE from the first line, and an end status. Operations belong to a
 * session; another session cannot see them.
 */
import { randomUUID } from 'node:crypto';

export type OperationStatus = 'running' | 'succeeded' | 'failed';

export interface Operation {
  id: string;
  sessionId: string;
  kind: string;
  status: OperationStatus;
  lines: string[];
  /** The error code or exit code of a failed operation. */
  failure?: string;
}

export type OperationEvent =
  { type: 'line'; line: string } | { type: 'end'; status: OperationStatus; failure?: string };

export interface OperationStore {
  /** Starts `work`, which logs through `log`; its rejection makes the operation `failed`. */
  start(sessionId: string, kind: string, work: (log: (line: string) => void) => Promise<void>): Operation;
  get(id: string, sessionId: string): Operation | undefined;
  /** Replays the lines so far, then follows; returns the unsubscribe function. */
  follow(op: Operation, listener: (event: OperationEvent) => void): () => void;
  /** Resolves when the operation has ended (tests, shutdown). */
  settled(op: Operation): Promise<void>;
}

/** Operations kept per session; older ones are forgotten so a busy session cannot grow memory without bound. */
const MAX_OPERATIONS_PER_SESSION = 50;

export function makeOperationStore(): OperationStore {
  const operations = new Map<string, Operation>();
  const listeners = new Map<string, Set<(event: OperationEvent) => void>>();
  const done = new Map<string, Promise<void>>();
  const emit = (op: Operation, event: OperationEvent): void => listeners.get(op.id)?.forEach((l) => l(event));
  const forgetOld = (sessionId: string): void => {
    const mine = [...operations.values()].filter((o) => o.sessionId === sessionId && o.status !== 'running');
    for (const old of mine.slice(0, Math.max(0, mine.length - MAX_OPERATIONS_PER_SESSION))) operations.delete(old.id);
  };
  return {
    start(sessionId, kind, work) {
      forgetOld(sessionId);
      const op: Operation = { id: randomUUID(), sessionId, kind, status: 'running', lines: [] };
      operations.set(op.id, op);
      const log = (line: string): void => {
        op.lines.push(line);
        emit(op, { type: 'line', line });
      };
      const finish = (status: OperationStatus, failure?: string): void => {
        op.status = status;
        op.failure = failure;
        emit(op, { type: 'end', status, failure });
        listeners.delete(op.id);
      };
      done.set(
        op.id,
        work(log).then(
          () => finish('succeeded'),
          (err: unknown) => {
            log(`error: ${err instanceof Error ? err.message : String(err)}`);
            finish('failed', (err as { code?: string }).code ?? 'FAILED');
          },
        ),
      );
      return op;
    },
    get(id, sessionId) {
      const op = operations.get(id);
      return op && op.sessionId === sessionId ? op : undefined;
    },
    follow(op, listener) {
      for (const line of op.lines) listener({ type: 'line', line });
      if (op.status !== 'running') {
        listener({ type: 'end', status: op.status, failure: op.failure });
        return () => undefined;
      }
      const set = listeners.get(op.id) ?? new Set();
      set.add(listener);
      listeners.set(op.id, set);
      return () => set.delete(listener);
    },
    settled: (op) => done.get(op.id) ?? Promise.resolve(),
  };
}
