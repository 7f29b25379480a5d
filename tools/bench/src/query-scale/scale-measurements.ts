import { readFileSync } from 'node:fs';
import pg from 'pg';
import { HOST_APPLICATION_NAME } from './scale-fixture';

/** Latency figures of a series of timed requests, ms. */
export interface Latency {
  p50: number;
  p95: number;
  runs: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** One POST /q/<name>; fails on anything but 200. */
export async function post(
  base: string,
  name: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ payload: Record<string, unknown> }> {
  const response = await fetch(`${base}/q/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-fw-tenant-id': 'bench', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST /q/${name} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as { payload: Record<string, unknown> };
}

/** Times `runs` sequential calls of `call` (after one unmeasured call). */
export async function timed(runs: number, call: () => Promise<unknown>): Promise<Latency> {
  await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), runs };
}

/** What a streamed answer took. */
export interface StreamFigures {
  rows: number;
  seconds: number;
  firstRowMs: number;
  summary: string;
}

/** Reads an NDJSON answer to its end, counting lines; the last line is the summary. */
export async function streamRows(base: string, name: string, body: unknown): Promise<StreamFigures> {
  const started = performance.now();
  const response = await fetch(`${base}/q/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/x-ndjson', 'x-fw-tenant-id': 'bench' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200 || !response.body)
    throw new Error(`stream answered ${response.status}: ${await response.text()}`);
  const decoder = new TextDecoder();
  let lines = 0;
  let firstRowMs = -1;
  let pending = '';
  let lastLine = '';
  for await (const chunk of response.body) {
    const text = pending + decoder.decode(chunk as Uint8Array, { stream: true });
    const end = text.lastIndexOf('\n');
    if (end < 0) {
      pending = text;
      continue;
    }
    if (firstRowMs < 0) firstRowMs = performance.now() - started;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
    lastLine = text.slice(text.lastIndexOf('\n', end - 1) + 1, end);
    pending = text.slice(end + 1);
  }
  if (!lastLine.startsWith('{"_summary"'))
    throw new Error(`the stream ended without its summary line: ${lastLine.slice(0, 200)}`);
  return { rows: lines - 1, seconds: (performance.now() - started) / 1000, firstRowMs, summary: lastLine };
}

/** Connections of the host's tenant pool that are not idle (running, or inside a transaction). */
async function busyConnections(client: pg.Client): Promise<number> {
  const result = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity where application_name = $1 and state <> 'idle'`,
    [HOST_APPLICATION_NAME],
  );
  return result.rows[0].n;
}

/**
 * Starts a stream of every row, reads its first chunk, drops the connection, and measures how long
 * until no connection of the host's pool is busy any more.
 */
export async function cancelledClient(
  base: string,
  name: string,
  databaseUrl: string,
): Promise<{ freedMs: number; rowsRead: number }> {
  const watcher = new pg.Client({ connectionString: databaseUrl });
  await watcher.connect();
  try {
    const abort = new AbortController();
    const response = await fetch(`${base}/q/${name}`, {
      method: 'POST',
      signal: abort.signal,
      headers: { 'content-type': 'application/json', accept: 'application/x-ndjson', 'x-fw-tenant-id': 'bench' },
      body: '{}',
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    const rowsRead = new TextDecoder().decode(first.value).split('\n').length - 1;
    if ((await busyConnections(watcher)) === 0) throw new Error('the stream holds no connection while it runs');
    const dropped = performance.now();
    abort.abort();
    for (;;) {
      if ((await busyConnections(watcher)) === 0) return { freedMs: performance.now() - dropped, rowsRead };
      if (performance.now() - dropped > 10_000) throw new Error('the connection was not freed within 10 s');
    }
  } finally {
    await watcher.end();
  }
}

/** Peak resident set size of a process so far (Linux `VmHWM`), bytes. */
export function peakRss(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

/** Current resident set size (Linux `VmRSS`), bytes. */
export function currentRss(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}
