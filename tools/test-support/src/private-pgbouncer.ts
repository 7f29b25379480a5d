/**
 * A PgBouncer of the test's own (Debian's `pgbouncer`): started in the foreground on a free port
 * in transaction pooling, with PgBouncer's defaults for everything else (notably no
 * `ignore_startup_parameters`, so a client sending a startup parameter it does not track is
 * refused), every database forwarded to one PostgreSQL server. Only what a private instance
 * needs is set: where it listens, trust authentication against the server's trust, and files in
 * a temporary folder. PgBouncer refuses to run as root: as root it is started with `-u postgres`.
 *
 * @example
 * const bouncer = await startPrivatePgbouncer({ host: '127.0.0.1', port: 5432 });
 * const url = bouncer.urlFor('mydb', 'postgres'); // postgres://postgres@127.0.0.1:<port>/mydb
 * await bouncer.stop();
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort } from './local-port';

export interface PrivatePgbouncer {
  port: number;
  /** `postgres://<user>@127.0.0.1:<port>/<database>`. */
  urlFor(database: string, user: string): string;
  /** PgBouncer's log so far (its stderr). */
  log(): string;
  stop(): Promise<void>;
}

export interface PrivatePgbouncerOptions {
  /** The PostgreSQL server every database is forwarded to. */
  host: string;
  port: number;
  /** Users allowed in (trust: the server checks nothing either). Default `['postgres']`. */
  users?: readonly string[];
}

/** The `pgbouncer` binary, or an error saying how to install it. */
export function pgbouncerBinary(): string {
  for (const candidate of ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer']) {
    try {
      execFileSync(candidate, ['--version'], { stdio: 'pipe' });
      return candidate;
    } catch {
      // not there; try the next one
    }
  }
  try {
    return execFileSync('sh', ['-c', 'command -v pgbouncer'], { stdio: 'pipe' }).toString().trim() || missing();
  } catch {
    return missing();
  }
}

function missing(): never {
  throw new Error(
    "pgbouncer is not installed: the pooler tests need Debian's pgbouncer (apt-get install -y pgbouncer; .ci/run installs it)",
  );
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startPrivatePgbouncer(options: PrivatePgbouncerOptions): Promise<PrivatePgbouncer> {
  const binary = pgbouncerBinary();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-pgbouncer-'));
  const port = await freePort();
  const users = options.users ?? ['postgres'];
  writeFileSync(path.join(dir, 'userlist.txt'), users.map((u) => `"${u}" ""\n`).join(''));
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${options.host} port=${options.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const child: ChildProcess = spawn(binary, [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT'); // PgBouncer: SIGINT is a safe shutdown that does not wait for clients
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (const until = Date.now() + 10_000; !(await accepts(port));) {
    if (child.exitCode !== null || Date.now() > until) {
      await stop();
      throw new Error(`pgbouncer did not start on 127.0.0.1:${port}:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    urlFor: (database, user) =>
      `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    log: () => log,
    stop,
  };
}
