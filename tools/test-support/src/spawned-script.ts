/**
 * A TypeScript script run as a real child process (`node --import tsx`, the workspace's tsconfig
 * paths), with its output collected and bounded waits on it: for crash, signal and stop tests.
 *
 * @example
 * const host = spawnScript(path.join(__dirname, 'fixtures/worker-host.ts'), [url]);
 * await host.waitFor(/READY/, 30_000);
 * host.child.kill('SIGTERM');
 * expect(await host.exited).toBe(0);
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

export interface SpawnedScript {
  readonly child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects after `timeoutMillis` with the output. */
  waitFor(pattern: RegExp, timeoutMillis: number): Promise<RegExpExecArray>;
  /** The exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
}

/** Runs `script` with `args`; it is killed with SIGKILL after `killAfterMillis` (default 90 s) at the latest. */
export function spawnScript(
  script: string,
  args: readonly string[],
  options: { env?: Record<string, string>; killAfterMillis?: number } = {},
): SpawnedScript {
  // `node --import tsx` runs the TypeScript in this very process (the tsx CLI would fork a
  // grandchild that a signal to the CLI would not reach).
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      FW_LOG_LEVEL: 'warn',
      TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'),
      NODE_OPTIONS: '',
      ...options.env,
    },
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMillis ?? 90_000);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve(code);
    }),
  );
  return {
    child,
    output: () => out,
    exited,
    async waitFor(pattern, timeoutMillis) {
      const until = Date.now() + timeoutMillis;
      for (;;) {
        const match = pattern.exec(out);
        if (match) return match;
        if (Date.now() > until || child.exitCode !== null)
          throw new Error(
            `${path.basename(script)}: ${child.exitCode !== null ? `exited (${child.exitCode})` : 'timed out'} waiting for ${pattern}; output:\n${out}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

/** How often `pattern` (global) occurs in `text`. */
export function countMatches(text: string, pattern: RegExp): number {
  return (text.match(pattern) ?? []).length;
}
