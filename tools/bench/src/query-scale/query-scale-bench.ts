import { redactUrl } from '@fw/core';
import { decodeKeysetCursor, encodeKeysetCursor } from '@fw/query-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BenchIo, BenchRunner } from '../bench-types';
import { type LoadResult, runLoad } from '../load/load-generator';
import { buildPackages } from '../build/build-packages';
import { type ServerProcess, startServerProcess } from '../load/server-process';
import { PAGE_SIZE, POOL_SIZE, seedScaleDatabase, writeScaleHostConfig } from './scale-fixture';
import {
  cancelledClient,
  currentRss,
  type Latency,
  peakRss,
  post,
  type StreamFigures,
  streamRows,
  timed,
} from './scale-measurements';

/** Rows of the full-size run (`--rows` changes it). */
export const QUERY_SCALE_DEFAULT_ROWS = 10_000_000;
const DEEP_PAGE = 100_000;
const STREAM_ROWS = 1_000_000;

/** What one run of the benchmark measures on, and how big it is. */
export interface QueryScaleRun {
  /** Rows of the table; the deep page is page 100,000 or the last full one, the stream 1,000,000 rows or all. */
  rows: number;
  /** Measured requests of the answer-cache runs, without and with the cache. */
  uncachedRequests: number;
  cachedRequests: number;
  /** Concurrent connections of the answer-cache runs. */
  connections: number;
  /**
   * `built`: the built `@fw/query-host` on plain node, what `npx fw-query-host` runs (built through
   * Nx first). `sources`: its TypeScript sources through tsx, which needs no build but costs the
   * host ~40 MB more RSS for the compiler.
   */
  host: 'built' | 'sources';
}

/** The figures of a run, as printed. Times in ms, sizes in bytes. */
export interface QueryScaleFigures {
  deepPage: number;
  paging: { offset1: Latency; offsetDeep: Latency; cursor1: Latency; cursorDeep: Latency };
  stream: StreamFigures & { rssBefore: number; rssPeak: number; hostCpuMs: number };
  cancelled: { freedMs: number; rowsRead: number };
  counts: { exact: Latency; planned: Latency; estimate: number };
  cache: { uncached: LoadResult; cached: LoadResult };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const count = (n: number) => n.toLocaleString('en-US');
const latencyLine = (label: string, l: Latency) =>
  `  ${label.padEnd(34)} p50 ${ms(l.p50).padStart(10)}   p95 ${ms(l.p95).padStart(10)}   (${l.runs} runs)`;

/** Offset and cursor paging at page 1 and at the deepest page (100,000 at full size). */
async function paging(io: BenchIo, base: string, rows: number): Promise<QueryScaleFigures['paging']> {
  const deep = deepPageOf(rows);
  const deepRuns = rows >= 1_000_000 ? 5 : 20;
  io.out(`paging (${PAGE_SIZE} rows a page, no count):`);
  const offset = (pageNum: number) => () =>
    post(base, 'byOffset', { pageNum, numRowsInPage: PAGE_SIZE, sortCriteria: [{ name: 'id' }], countMode: 'none' });
  const first = await post(base, 'byCursor', { numRowsInPage: PAGE_SIZE, sortCriteria: [{ name: 'id' }] });
  const template = decodeKeysetCursor(String((first.payload.pagination as { nextCursor: string }).nextCursor));
  // The cursor the client holds after reading page deep-1: it remembers that page's last id.
  const deepCursor = encodeKeysetCursor({ ...template, key: [(deep - 1) * PAGE_SIZE], page: deep });
  const cursor = (body: Record<string, unknown>) => () => post(base, 'byCursor', { numRowsInPage: PAGE_SIZE, ...body });
  const check = await cursor({ cursor: deepCursor })();
  const firstId = (check.payload.list as { row: { id: number } }[])[0]?.row.id ?? -1;
  if (firstId !== (deep - 1) * PAGE_SIZE + 1) throw new Error(`cursor page ${deep} starts at id ${firstId}`);
  const results = {
    offset1: await timed(20, offset(1)),
    offsetDeep: await timed(deepRuns, offset(deep)),
    cursor1: await timed(20, cursor({ sortCriteria: [{ name: 'id' }] })),
    cursorDeep: await timed(20, cursor({ cursor: deepCursor })),
  };
  io.out(latencyLine('offset page 1', results.offset1));
  io.out(latencyLine(`offset page ${count(deep)}`, results.offsetDeep));
  io.out(latencyLine('cursor page 1', results.cursor1));
  io.out(latencyLine(`cursor page ${count(deep)}`, results.cursorDeep));
  io.out(
    `  cursor page ${count(deep)} / page 1 (p50): ${(results.cursorDeep.p50 / results.cursor1.p50).toFixed(2)} × (goal ≤ 2), offset: ${(results.offsetDeep.p50 / results.offset1.p50).toFixed(1)} ×`,
  );
  return results;
}

/** Page 100,000, or the last full page of a smaller table (at least page 2). */
function deepPageOf(rows: number): number {
  return Math.max(2, Math.min(DEEP_PAGE, Math.floor(rows / PAGE_SIZE)));
}

/** Streams up to 1,000,000 rows from `host`: rate, time to first row, the host's CPU time and peak RSS. */
async function streaming(io: BenchIo, host: ServerProcess, rows: number): Promise<QueryScaleFigures['stream']> {
  const wanted = Math.min(STREAM_ROWS, rows);
  const rssBefore = currentRss(host.pid);
  const cpuBefore = (await host.memory()).cpuMs;
  const figures = await streamRows(`http://127.0.0.1:${host.port}`, 'everything', {
    filters: { id: [1, wanted] },
    sortCriteria: [{ name: 'id' }],
  });
  const hostCpuMs = (await host.memory()).cpuMs - cpuBefore;
  const rssPeak = peakRss(host.pid);
  io.out(
    `stream of ${count(figures.rows)} rows (NDJSON): ${(figures.rows / figures.seconds).toFixed(0)} rows/s, ${figures.seconds.toFixed(2)} s, first row after ${ms(figures.firstRowMs)}, host CPU ${(hostCpuMs / 1000).toFixed(2)} s`,
  );
  io.out(
    `  host RSS before ${mb(rssBefore)}, peak (VmHWM) ${mb(rssPeak)} (goal < 150 MB); last line ${figures.summary}`,
  );
  return { ...figures, rssBefore, rssPeak, hostCpuMs };
}

async function counts(io: BenchIo, base: string, rows: number): Promise<QueryScaleFigures['counts']> {
  const runs = rows >= 1_000_000 ? 5 : 20;
  const exact = await timed(runs, () => post(base, 'byOffset', { countOnly: true }));
  const planned = await timed(runs, () => post(base, 'byOffset', { countOnly: true, countMode: 'planned' }));
  const estimate = Number((await post(base, 'byOffset', { countOnly: true, countMode: 'planned' })).payload.maxRows);
  io.out(`counts of the whole table (countOnly):`);
  io.out(latencyLine('exact count(*)', exact));
  io.out(latencyLine(`planned (estimate ${estimate})`, planned));
  return { exact, planned, estimate };
}

async function caching(io: BenchIo, base: string, run: QueryScaleRun): Promise<QueryScaleFigures['cache']> {
  const body = JSON.stringify({
    filters: { grp: 7 },
    sortCriteria: [{ name: 'id', ascendingOrder: false }],
    numRowsInPage: 20,
  });
  const load = (name: string, requests: number) =>
    runLoad({
      url: `${base}/q/${name}`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-fw-tenant-id': 'bench' },
      body,
      requests,
      connections: run.connections,
    });
  await load('uncached', 200);
  await load('cached', 200);
  const uncached = await load('uncached', run.uncachedRequests);
  const cached = await load('cached', run.cachedRequests);
  io.out(`cache (page 1 of grp = 7 with an exact count, ${run.connections} connections):`);
  io.out(
    `  uncached ${uncached.requestsPerSecond.toFixed(0)} req/s (p50 ${ms(uncached.latencyP50Ms)}), cached ${cached.requestsPerSecond.toFixed(0)} req/s (p50 ${ms(cached.latencyP50Ms)}): ${(cached.requestsPerSecond / uncached.requestsPerSecond).toFixed(1)} × (goal ≥ 5)`,
  );
  if (uncached.failures + cached.failures > 0) io.out('  WARNING: some requests failed; the figures are not valid');
  return { uncached, cached };
}

/** Starts the host of `run` on `configFile` in its own process. */
function startHost(run: QueryScaleRun, configFile: string): Promise<ServerProcess> {
  if (run.host === 'sources') return startServerProcess(path.join(__dirname, '../query/host-server.ts'), [configFile]);
  // The TypeScript loader alone adds ~40 MB of RSS, so the command measures the built host.
  buildPackages(['@fw/query-host']);
  return startServerProcess(path.join(__dirname, 'built-host-server.cjs'), [configFile], [], 'node');
}

/** Every measurement, in order, on a running host. */
async function measure(io: BenchIo, host: ServerProcess, run: QueryScaleRun, databaseUrl: string) {
  const base = `http://127.0.0.1:${host.port}`;
  const pagingFigures = await paging(io, base, run.rows);
  const stream = await streaming(io, host, run.rows);
  const cancelled = await cancelledClient(base, 'everything', databaseUrl);
  io.out(
    `cancelled client: connection back in the pool ${ms(cancelled.freedMs)} after the client left (goal ≤ 100 ms; ${cancelled.rowsRead} rows read)`,
  );
  const countFigures = await counts(io, base, run.rows);
  const cache = await caching(io, base, run);
  return { paging: pagingFigures, stream, cancelled, counts: countFigures, cache };
}

/**
 * The benchmark on a scratch database of `run.rows` rows on the PostgreSQL server of `serverUrl`
 * (created, then dropped): prints each figure and returns them.
 *
 * @example
 * const figures = await queryScaleBenchOn('postgres://postgres@127.0.0.1:5432/test',
 *   { rows: 300_000, uncachedRequests: 200, cachedRequests: 1000, connections: 8, host: 'sources' }, { out: console.log });
 * figures.stream.rows; // 300000
 */
export async function queryScaleBenchOn(
  serverUrl: string,
  run: QueryScaleRun,
  io: BenchIo,
): Promise<QueryScaleFigures> {
  io.out(
    `query-scale bench: ${count(run.rows)} rows on ${redactUrl(serverUrl)} (scratch database), pool ${POOL_SIZE}, ${run.host} host`,
  );
  const scratch = await seedScaleDatabase(serverUrl, run.rows, (line) => io.out(line));
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-bench-scale-'));
  let host: ServerProcess | undefined;
  try {
    host = await startHost(run, writeScaleHostConfig(dir, scratch.url));
    return { deepPage: deepPageOf(run.rows), ...(await measure(io, host, run, scratch.url)) };
  } finally {
    await host?.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    await scratch.drop();
  }
}

/** `npm run bench -- query-scale [--rows N]`: the query service on a 10,000,000-row table. */
export const queryScaleBench: BenchRunner = {
  description:
    'the query service on a 10,000,000-row table: deep pages by offset and cursor, a 1,000,000-row stream, a cancelled client, exact vs planned counts, the answer cache',
  async run(options, io) {
    await queryScaleBenchOn(
      options.databaseUrl,
      {
        rows: options.rowsGiven ? options.rows : QUERY_SCALE_DEFAULT_ROWS,
        uncachedRequests: 2000,
        cachedRequests: 20000,
        connections: options.connections,
        host: 'built',
      },
      io,
    );
  },
};
