import { type ChildProcess, fork } from 'node:child_process';

/** Memory of a server process, in bytes (heap measured after a full GC). */
export interface MemorySample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  /** CPU time (user + system) the process has used so far, in ms. */
  cpuMs: number;
}

type ParentMessage = { type: 'memory' } | { type: 'stop' };
type ChildMessage =
  { type: 'ready'; port: number } | ({ type: 'memory' } & MemorySample) | { type: 'failed'; message: string };

/** A system under test running in its own process (so the load generator never shares its event loop). */
export interface ServerProcess {
  readonly port: number;
  /** The operating-system process id (to read its peak RSS from /proc). */
  readonly pid: number;
  memory(): Promise<MemorySample>;
  /** Asks the server to close and waits for the process to exit (a CPU profile is written then). */
  stop(): Promise<void>;
}

function nextMessage<T extends ChildMessage['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ChildMessage) => {
      if (message.type === type) {
        cleanup();
        resolve(message as Extract<ChildMessage, { type: T }>);
      } else if (message.type === 'failed') {
        cleanup();
        reject(new Error(message.message));
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`server process exited (code ${code}) before answering '${type}'`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/**
 * Forks `script` (TypeScript, run through tsx) with `args`, waits for it to listen.
 * `extraExecArgv` adds node flags such as `--cpu-prof`; `loader: 'node'` runs a JavaScript script
 * on plain node (built packages, as users run them).
 */
export async function startServerProcess(
  script: string,
  args: readonly string[],
  extraExecArgv: readonly string[] = [],
  loader: 'tsx' | 'node' = 'tsx',
): Promise<ServerProcess> {
  const execArgv = loader === 'tsx' ? ['--import', 'tsx', '--expose-gc', ...extraExecArgv] : [...extraExecArgv];
  const child = fork(script, [...args], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { port } = await nextMessage(child, 'ready');
  return {
    port,
    pid: child.pid ?? 0,
    async memory() {
      const reply = nextMessage(child, 'memory');
      child.send({ type: 'memory' } satisfies ParentMessage);
      const { rss, heapUsed, heapTotal, cpuMs } = await reply;
      return { rss, heapUsed, heapTotal, cpuMs };
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ type: 'stop' } satisfies ParentMessage);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * The child side: starts the server, reports its port, answers memory requests, closes on stop.
 * Call it from the server script's top level.
 */
export function serveOverIpc(start: () => Promise<{ port: number; close(): Promise<void> }>): void {
  const send = (message: ChildMessage) => process.send?.(message);
  start().then(
    (server) => {
      process.on('message', (message: ParentMessage) => {
        if (message.type === 'memory') {
          const cpu = process.cpuUsage();
          (globalThis as { gc?: () => void }).gc?.();
          const { rss, heapUsed, heapTotal } = process.memoryUsage();
          send({ type: 'memory', rss, heapUsed, heapTotal, cpuMs: (cpu.user + cpu.system) / 1000 });
        } else if (message.type === 'stop') {
          void server.close().finally(() => process.exit(0));
        }
      });
      send({ type: 'ready', port: server.port });
    },
    (err: unknown) => {
      send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
      process.exit(1);
    },
  );
}
