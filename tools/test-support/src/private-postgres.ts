/**
 * A PostgreSQL server of the test's own: `initdb` into a temporary folder, started on a free port,
 * so fault tests can restart it, lock its tables or kill its connections without disturbing the
 * shared server other suites use. Runs the cluster as the `postgres` system user when the tests
 * run as root (the server refuses root). Needs the server binaries (Debian's postgresql package).
 *
 * @example
 * const pg = await startPrivatePostgres();
 * const database = createDatabase({ url: pg.url });
 * await pg.restart();
 * await pg.stop();
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort } from './local-port';
import { createTestDatabase, postgresServerUrl } from './test-database';

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  port: number;
  /** Stops the server (fast mode: open connections are cut) and starts it again; resolves once it accepts connections. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function binDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(path.join(base, v, 'bin', 'initdb'))) return path.join(base, v, 'bin');
  throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql: apt-get install -y postgresql');
}

function postgresUid(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const owner = postgresUid();
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-private-pg-'));
  chmodSync(dir, 0o700);
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const run = (tool: string, args: string[]) =>
    execFileSync(path.join(bin, tool), args, {
      stdio: 'pipe',
      ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
      env: { ...process.env, LC_ALL: 'C' },
    });
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100`;
  const start = () =>
    run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '30', 'start']);
  const stopServer = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async restart() {
      stopServer();
      start();
    },
    async stop() {
      try {
        stopServer();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * An empty PostgreSQL database for a test that needs node-postgres itself (PGlite does not go
 * through it): a fresh one on the FW_TEST_DATABASE_URL server, else a private server started for
 * the test (never a skip). `dispose()` drops the one or stops the other.
 *
 * @example
 * const db = await createEmptyPostgresDatabase();
 * // … spawn a host with PROCESS_DATABASE_URL=db.url …
 * await db.dispose();
 */
export async function createEmptyPostgresDatabase(): Promise<{ url: string; dispose(): Promise<void> }> {
  if (postgresServerUrl()) return createTestDatabase('postgres', { migrate: false });
  const server = await startPrivatePostgres();
  return { url: server.url, dispose: () => server.stop() };
}
