// Spawning the installed commands and talking to them: bounded waits, loopback only.
import { spawn, spawnSync } from 'node:child_process';

/** Runs a command to completion: { status, stdout, stderr }. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 120_000, ...options });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** Starts a long-running command; `waitFor(regex)` resolves with the first match on stdout. */
export function start(command, args, options = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let stdout = '';
  let stderr = '';
  const waiters = new Set();
  const check = () => {
    for (const w of waiters) {
      const match = w.pattern.exec(stdout);
      if (match) {
        waiters.delete(w);
        w.resolve(match);
      }
    }
  };
  child.stdout.on('data', (d) => {
    stdout += d.toString();
    check();
  });
  child.stderr.on('data', (d) => (stderr += d.toString()));
  const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)));
  exited.then((code) => {
    for (const w of waiters)
      w.reject(
        new Error(
          `${command} ${args.join(' ')} exited (${code}) before printing ${w.pattern}; stderr: ${stderr.slice(-2000)}`,
        ),
      );
    waiters.clear();
  });
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor(pattern, timeoutMillis = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(entry);
          reject(
            new Error(
              `timed out after ${timeoutMillis} ms waiting for ${pattern} from ${command}; stdout: ${stdout.slice(-2000)} stderr: ${stderr.slice(-2000)}`,
            ),
          );
        }, timeoutMillis);
        const entry = {
          pattern,
          resolve: (m) => (clearTimeout(timer), resolve(m)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        };
        waiters.add(entry);
        check();
      });
    },
    /** SIGTERM, then the exit code (SIGKILL after `timeoutMillis`). */
    async stop(timeoutMillis = 20_000) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMillis);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** fetch with a JSON body and a bounded time; resolves { status, body }. */
export async function request(url, { method = 'GET', headers = {}, body } = {}) {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMillis`. */
export async function eventually(probe, timeoutMillis, what) {
  const until = Date.now() + timeoutMillis;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMillis} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
