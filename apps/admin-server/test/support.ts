/**
 * Test support: admin servers over a test database, and spawning the real host process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TestDatabase } from '@fw/test-support';
import {
  createAdminServer,
  seedDefinitions,
  WORD_COUNT_DEFINITIONS,
  type AdminServer,
  type AdminServerConfig,
} from '../src';

export const ROOT = path.resolve(__dirname, '../../..');
export const MAIN = path.join(ROOT, 'apps/admin-server/src/main.ts');
/** tsx's loader by absolute URL, so the host also starts from another working directory. */
export const TSX_LOADER = pathToFileURL(require.resolve('tsx', { paths: [ROOT] })).href;
export const KEY = 'admin-server-test-key-0123456789abcdef';
export const API = '/process-management/api';

export function testConfig(testDb: TestDatabase): AdminServerConfig {
  return {
    profile: 'production',
    port: 0,
    bindAddress: '127.0.0.1',
    database: { url: testDb.url },
    apiKey: KEY,
    baseDir: ROOT,
  };
}

/** A server on the test database (not closing it), with the example workers and fast cron renewals. */
export async function startServer(
  testDb: TestDatabase,
  ownerId: string,
): Promise<{ server: AdminServer; url: string }> {
  await seedDefinitions(testDb.database, WORD_COUNT_DEFINITIONS);
  const server = await createAdminServer({
    config: testConfig(testDb),
    database: testDb.database,
    ownerId,
    exampleWorkers: true,
    // Fast renewals, but a lease long enough that a stalled event loop on a loaded CI machine does
    // not hand ownership to the other server in the middle of a test.
    schedulerLeaseSeconds: 15,
    schedulerRenewMillis: 300,
    outboxPollMillis: 200,
  });
  const { url } = await server.listen();
  return { server, url };
}

export function headers(tenant = 'demo', key = KEY): Record<string, string> {
  return { 'X-Process-Management-Key': key, 'x-fw-tenant-id': tenant };
}

/** Polls `check` until it returns a value (not undefined) or the time is up. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMillis = 30_000,
  what = 'condition',
): Promise<T> {
  const until = Date.now() + timeoutMillis;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface Spawned {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** Starts `node --import tsx apps/admin-server/src/main.ts ...args` with `env` (added to a minimal environment). */
export function spawnHost(args: readonly string[], env: Record<string, string>, cwd = ROOT): Spawned {
  const base: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    FW_LOG_LEVEL: 'warn',
    TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'),
  };
  const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN, ...args], { cwd, env: { ...base, ...env } });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const exited = new Promise<number | null>((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}
