// What the tests run against, chosen by the environment:
//   IT_BASE_URL      an app already running (e.g. http://127.0.0.1:8080): used as it is;
//   IT_APP_COMMAND   a shell command starting the app (with IT_APP_CWD as its folder): started
//                    with PORT=0 unless PORT is set, its first printed http(s) URL is the target
//                    (a plain line or a JSON log line both work), stopped after the tests;
//   neither          the reference app of this project, in-process on a free port.
// The default keeps `npm test` self-contained; the two variables turn the same tests on the real
// {{app}}, locally or in a pipeline.
import { spawn, type ChildProcess } from 'node:child_process';
{{#security}}
import { randomBytes } from 'node:crypto';
import type { TokenSettings } from './jwt';
{{/security}}
import { startReferenceApp } from './reference/reference-app';

export interface Target {
  kind: 'url' | 'command' | 'reference';
  baseUrl: string;
{{#security}}
  /** How to sign tokens the target accepts. */
  jwt: TokenSettings;
{{/security}}
  stop(): Promise<void>;
}

const URL_IN_OUTPUT = /https?:\/\/[^\s"'<>,]+/;

/** A wildcard listen address is not one to connect to. */
function connectable(url: string): string {
  return url.replace('//0.0.0.0', '//127.0.0.1').replace('//[::]', '//127.0.0.1').replace(/\/+$/, '');
}

function waitForUrl(child: ChildProcess, timeoutMillis: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`IT_APP_COMMAND printed no URL within ${timeoutMillis} ms; its output: ${seen.slice(-2000)}`)), timeoutMillis);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = URL_IN_OUTPUT.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(connectable(match[0]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`IT_APP_COMMAND exited (${code}) before printing a URL; its output: ${seen.slice(-2000)}`));
    });
  });
}

function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: no process of the group is left
  }
}

async function stopProcessGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  // The command runs in its own process group (detached), so the shell and the app it started stop together.
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    signalGroup(pid, 'SIGTERM');
    const force = setTimeout(() => signalGroup(pid, 'SIGKILL'), 10_000);
    await exited.finally(() => clearTimeout(force));
  } else {
    signalGroup(pid, 'SIGTERM');
  }
  // A shell may exit before the app it started has closed its port: stop() resolves only when no
  // process of the group is left (killed after 5 s), so the next test never reaches the old app.
  for (const deadline = Date.now() + 5_000; signalGroup(pid, 0); ) {
    if (Date.now() > deadline) {
      signalGroup(pid, 'SIGKILL');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function startCommand(command: string, env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(command, { shell: true, detached: true, cwd: env.IT_APP_CWD || undefined, env: { ...process.env, ...env, PORT: env.PORT ?? '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function startTarget(env: NodeJS.ProcessEnv = process.env): Promise<Target> {
{{#security}}
  const configured = env.IT_JWT_SECRET;
  const jwt: TokenSettings = { secret: configured ?? '', issuer: env.IT_JWT_ISSUER || undefined, audience: env.IT_JWT_AUDIENCE || undefined };
  if ((env.IT_BASE_URL || env.IT_APP_COMMAND) && !configured) throw new Error('IT_JWT_SECRET must be set to the app\'s JWT secret to test it with security');
{{/security}}
  if (env.IT_BASE_URL) return { kind: 'url', baseUrl: connectable(env.IT_BASE_URL){{#security}}, jwt{{/security}}, stop: async () => undefined };
  if (env.IT_APP_COMMAND) {
    const child = startCommand(env.IT_APP_COMMAND, env);
    try {
      const baseUrl = await waitForUrl(child, Number(env.IT_APP_START_TIMEOUT_MS ?? '30000'));
      return { kind: 'command', baseUrl{{#security}}, jwt{{/security}}, stop: () => stopProcessGroup(child) };
    } catch (err) {
      await stopProcessGroup(child);
      throw err;
    }
  }
{{#security}}
  // The reference app needs a secret too: a fresh one per run unless one is given.
  if (!configured) jwt.secret = randomBytes(32).toString('hex');
{{/security}}
  const app = await startReferenceApp({{#security}}{ jwt }{{/security}});
  return { kind: 'reference', baseUrl: app.url{{#security}}, jwt{{/security}}, stop: () => app.close() };
}
