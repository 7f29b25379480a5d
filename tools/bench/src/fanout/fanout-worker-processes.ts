/**
 * The coordinator's side of the worker OS processes of `npm run bench -- fanout --workers K`: forks
 * K `fanout-worker-main.ts` processes through the tsx loader (as `load/server-process.ts` forks the
 * query servers), waits until each one is ready, relays wake-ups, and stops them — gracefully on
 * success, with SIGKILL on failure. A worker that dies during the run fails the run.
 *
 * @example
 * const workers = await startFanoutWorkerProcesses(2, scratchUrl, tuning);
 * try {
 *   // … create the root, workers.wakeAll(), wait with Promise.race([done, workers.crashed]) …
 *   const itemsPerWorker = await workers.stop();
 * } catch (err) {
 *   workers.kill();
 *   throw err;
 * }
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { fanoutTuningEnv, type FanoutTuning } from './fanout-node';
import type { CoordinatorMessage, WorkerMessage } from './fanout-worker-protocol';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../../..');
const WORKER_MAIN = path.join(__dirname, 'fanout-worker-main.ts');
/** A worker that has not exited this long after `stop` is killed. */
const STOP_GRACE_MILLIS = 15_000;

export interface FanoutWorkerProcesses {
  /** Process ids, in fork order. */
  readonly pids: readonly number[];
  /**
   * Rejects when a worker exits (or reports a failure) before `stop()`; never resolves. Race it
   * against every wait of the run, so a dead worker fails the run instead of hanging it.
   */
  readonly crashed: Promise<never>;
  /** When a worker finished the root's splitter (epoch milliseconds), once one has. */
  splitDoneAtEpochMillis(): number | undefined;
  /** Asks every worker to claim now. */
  wakeAll(): void;
  /** Graceful stop of every worker (SIGKILL after 15 s); resolves the work items each completed. */
  stop(): Promise<number[]>;
  /** SIGKILL to every worker still running (the failure path). */
  kill(): void;
}

interface WorkerHandle {
  child: ChildProcess;
  ready: Promise<void>;
  exited: Promise<void>;
  itemsCompleted?: number;
}

/** What the workers report to the run, shared by every worker handle. */
interface RunState {
  stopping: boolean;
  splitDoneAt: number | undefined;
  failRun: (reason: Error) => void;
}

/** Forks worker `index` and tracks its messages and exit; `ready` rejects if it fails before `stop`. */
function forkWorker(index: number, databaseUrl: string, tuning: FanoutTuning, run: RunState): WorkerHandle {
  const child = fork(WORKER_MAIN, [databaseUrl], {
    cwd: WORKSPACE_ROOT,
    // `node --import tsx` (not the tsx CLI, which would fork once more) so signals reach the worker itself.
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      ...fanoutTuningEnv(tuning),
      TSX_TSCONFIG_PATH: path.join(WORKSPACE_ROOT, 'tsconfig.json'),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const name = `fan-out worker ${index + 1} (pid ${child.pid})`;
  const handle: WorkerHandle = {
    child,
    exited: new Promise((resolve) => child.once('exit', () => resolve())),
    ready: new Promise<void>((resolve, reject) => {
      child.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'split-done') run.splitDoneAt ??= message.atEpochMillis;
        else if (message.type === 'stopped') handle.itemsCompleted = message.itemsCompleted;
        else if (message.type === 'failed') {
          const failure = new Error(`${name} failed: ${message.message}`);
          reject(failure);
          run.failRun(failure);
        }
      });
      child.once('exit', (code, signal) => {
        if (run.stopping) return;
        const failure = new Error(`${name} exited (${signal ?? `code ${code}`}) during the run`);
        reject(failure);
        run.failRun(failure);
      });
    }),
  };
  return handle;
}

/** Stops every worker gracefully (SIGKILL after the grace period); the work items each completed. */
async function stopWorkers(handles: readonly WorkerHandle[]): Promise<number[]> {
  await Promise.all(
    handles.map(async ({ child, exited }) => {
      if (child.connected) child.send({ type: 'stop' } satisfies CoordinatorMessage);
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MILLIS);
      await exited;
      clearTimeout(timer);
    }),
  );
  const unclean = handles
    .filter((h) => h.child.exitCode !== 0)
    .map((h) => `pid ${h.child.pid}: ${h.child.signalCode ?? `code ${h.child.exitCode}`}`);
  if (unclean.length > 0) throw new Error(`fan-out workers did not stop cleanly (${unclean.join(', ')})`);
  return handles.map((h) => h.itemsCompleted ?? 0);
}

/**
 * Forks `count` workers on `databaseUrl` with `tuning` (each its own pool of `tuning.pool`) and
 * resolves once all are ready; if one fails to start, all are killed and the failure is thrown.
 */
export async function startFanoutWorkerProcesses(
  count: number,
  databaseUrl: string,
  tuning: FanoutTuning,
): Promise<FanoutWorkerProcesses> {
  const run: RunState = { stopping: false, splitDoneAt: undefined, failRun: () => undefined };
  const crashed = new Promise<never>((_resolve, reject) => (run.failRun = reject));
  // Handled here so an unraced crash (e.g. during stop) is no unhandled rejection; racers still see it.
  crashed.catch(() => undefined);

  const handles: WorkerHandle[] = [];
  for (let index = 0; index < count; index++) handles.push(forkWorker(index, databaseUrl, tuning, run));

  const kill = () => {
    run.stopping = true;
    for (const { child } of handles) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  try {
    await Promise.all(handles.map((h) => h.ready));
  } catch (err) {
    kill();
    throw err;
  }

  return {
    pids: handles.map((h) => h.child.pid ?? 0),
    crashed,
    splitDoneAtEpochMillis: () => run.splitDoneAt,
    wakeAll() {
      for (const { child } of handles) if (child.connected) child.send({ type: 'wake' } satisfies CoordinatorMessage);
    },
    async stop() {
      run.stopping = true;
      return stopWorkers(handles);
    },
    kill,
  };
}
