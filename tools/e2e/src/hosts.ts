/**
 * The real hosts the browser suites run against, spawned as processes from the checkout's sources
 * (tsx), each in its own temporary folder on a free port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './browser';

const TSX_LOADER = pathToFileURL(require.resolve('tsx', { paths: [ROOT] })).href;

export interface RunningHost {
  url: string;
  /** Everything the process printed on stdout so far. */
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after 15 s); removes the temporary folder. */
  stop(): Promise<void>;
}

async function spawnUntil(
  main: string,
  args: readonly string[],
  env: Record<string, string>,
  ready: RegExp,
  what: string,
): Promise<{ child: ChildProcess; dir: string; out: () => string; err: () => string; match: RegExpExecArray }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-e2e-'));
  const base: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    FW_LOG_LEVEL: 'warn',
    TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'),
  };
  const child = spawn(process.execPath, ['--import', TSX_LOADER, path.join(ROOT, main), ...args], {
    cwd: dir,
    env: { ...base, ...env },
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const until = Date.now() + 90_000;
  for (;;) {
    const match = ready.exec(out);
    if (match) return { child, dir, out: () => out, err: () => err, match };
    if (child.exitCode !== null || Date.now() > until) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`${what} did not start:\n${out}\n${err}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stopper(child: ChildProcess, dir: string): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
}

export interface DevAdminServer extends RunningHost {
  /** The generated administration key (X-Process-Management-Key). */
  key: string;
}

/** `fw-admin-server --profile dev` (PGlite under a temporary ./.data, example workers, support-ticket workflow). */
export async function startDevAdminServer(env: Record<string, string> = {}): Promise<DevAdminServer> {
  const { child, dir, out, err, match } = await spawnUntil(
    'apps/admin-server/src/main.ts',
    ['--profile', 'dev'],
    { PROCESS_ADMIN_PORT: '0', ...env },
    /listening on (http:\/\/\S+)[\s\S]*API key[^:]*: (\S+)[\s\S]*\n\s+curl [^\n]*\n/,
    'the dev admin server',
  );
  return { url: match[1], key: match[2], stdout: out, stderr: err, stop: stopper(child, dir) };
}

/** `fw-query-host` without a config: the two-tenant demo on PGlite. */
export async function startQueryHostDemo(env: Record<string, string> = {}): Promise<RunningHost> {
  const { child, dir, out, err, match } = await spawnUntil(
    'apps/query-host/src/main.ts',
    [],
    { FW_QUERY_PORT: '0', ...env },
    /listening on (http:\/\/\S+)/,
    'the query host demo',
  );
  return { url: match[1].replace(/[.,;]$/, ''), stdout: out, stderr: err, stop: stopper(child, dir) };
}
