import { redactUrl } from '@fw/core';
import { decodeKeysetCursor, encodeKeysetCursor } from '@fw/query-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';
import { runLoad } from '../load/load-generator';
import { buildPackages } from '../build/build-packages';
import { type ServerProcess, startServerProcess } from '../load/server-process';
import { PAGE_SIZE, POOL_SIZE, seedScaleDatabase, writeScaleHostConfig } from './scale-fixture';
import { cancelledClient, currentRss, type Latency, peakRss, post, streamRows, timed } from './scale-measurements';

/** Rows of the full-size run (`--rows` changes it). */
export const QUERY_SCALE_DEFAULT_ROWS = 10_000_000;
const DEEP_PAGE = 100_000;
const STREAM_ROWS = 1_000_000;

const ms = (value: number) => `${value.toFixed(1)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const latencyLine = (label: string, l: Latency) =>
  `  ${label.padEnd(34)} p50 ${ms(l.p50).padStart(10)}   p95 ${ms(l.p95).padStart(10)}   (${l.runs} runs)`;

/** Offset and cursor paging at page 1 and at the deepest page (100,000 at full size). */
async function paging(io: BenchIo, base: string, rows: number): Promise<void> {
  const deep = Math.max(2, Math.min(DEEP_PAGE, Math.floor(rows / PAGE_SIZE)));
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
  io.out(latencyLine(`offset page ${deep.toLocaleString('en-US')}`, results.offsetDeep));
  io.out(latencyLine('cursor page 1', results.cursor1));
  io.out(latencyLine(`cursor page ${deep.toLocaleString('en-US')}`, results.cursorDeep));
  io.out(
    `  cursor page ${deep.toLocaleString('en-US')} / page 1 (p50): ${(results.cursorDeep.p50 / results.cursor1.p50).toFixed(2)} × (goal ≤ 2), offset: ${(results.offsetDeep.p50 / results.offset1.p50).toFixed(1)} ×`,
  );
}

/** Heap cap of the second stream run: the live heap of a stream is ~30 MB, the rest of the default RSS is garbage V8 has not collected yet. */
const CAPPED_HEAP_FLAG = '--max-old-space-size=96';

/** Streams up to 1,000,000 rows from `host`: rate, time to first row, the host's peak RSS. */
async function streamOnce(io: BenchIo, label: string, host: ServerProcess, rows: number): Promise<void> {
  const wanted = Math.min(STREAM_ROWS, rows);
  const before = currentRss(host.pid);
  const figures = await streamRows(`http://127.0.0.1:${host.port}`, 'everything', {
    filters: { id: [1, wanted] },
    sortCriteria: [{ name: 'id' }],
  });
  io.out(
    `stream of ${figures.rows.toLocaleString('en-US')} rows (NDJSON, ${label}): ${(figures.rows / figures.seconds).toFixed(0)} rows/s, ${figures.seconds.toFixed(2)} s, first row after ${ms(figures.firstRowMs)}`,
  );
  io.out(
    `  host RSS before ${mb(before)}, peak (VmHWM) ${mb(peakRss(host.pid))} (goal < 150 MB); last line ${figures.summary}`,
  );
}

/** The stream on the default host, then on a host started with a heap cap (see {@link CAPPED_HEAP_FLAG}). */
async function streaming(io: BenchIo, host: ServerProcess, configFile: string, rows: number): Promise<void> {
  await streamOnce(io, 'node defaults', host, rows);
  const capped = await startServerProcess(
    path.join(__dirname, 'built-host-server.cjs'),
    [configFile],
    [CAPPED_HEAP_FLAG],
    'node',
  );
  try {
    await streamOnce(io, CAPPED_HEAP_FLAG, capped, rows);
  } finally {
    await capped.stop();
  }
}

async function counts(io: BenchIo, base: string, rows: number): Promise<void> {
  const runs = rows >= 1_000_000 ? 5 : 20;
  const exact = await timed(runs, () => post(base, 'byOffset', { countOnly: true }));
  const planned = await timed(runs, () => post(base, 'byOffset', { countOnly: true, countMode: 'planned' }));
  const estimate = (await post(base, 'byOffset', { countOnly: true, countMode: 'planned' })).payload.maxRows;
  io.out(`counts of the whole table (countOnly):`);
  io.out(latencyLine('exact count(*)', exact));
  io.out(latencyLine(`planned (estimate ${String(estimate)})`, planned));
}

async function caching(io: BenchIo, base: string, options: BenchOptions): Promise<void> {
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
      connections: options.connections,
    });
  await load('uncached', 200);
  await load('cached', 200);
  const uncached = await load('uncached', 2000);
  const cached = await load('cached', 20000);
  io.out(`cache (page 1 of grp = 7 with an exact count, ${options.connections} connections):`);
  io.out(
    `  uncached ${uncached.requestsPerSecond.toFixed(0)} req/s (p50 ${ms(uncached.latencyP50Ms)}), cached ${cached.requestsPerSecond.toFixed(0)} req/s (p50 ${ms(cached.latencyP50Ms)}): ${(cached.requestsPerSecond / uncached.requestsPerSecond).toFixed(1)} × (goal ≥ 5)`,
  );
  if (uncached.failures + cached.failures > 0) io.out('  WARNING: some requests failed; the figures are not valid');
}

/** `npm run bench -- query-scale [--rows N]`: the query service on a 10,000,000-row table. */
export const queryScaleBench: BenchRunner = {
  description:
    'the query service on a 10,000,000-row table: deep pages by offset and cursor, a 1,000,000-row stream, a cancelled client, exact vs planned counts, the answer cache',
  async run(options, io) {
    const rows = options.rowsGiven ? options.rows : QUERY_SCALE_DEFAULT_ROWS;
    io.out(
      `query-scale bench: ${rows.toLocaleString('en-US')} rows on ${redactUrl(options.databaseUrl)} (scratch database), pool ${POOL_SIZE}`,
    );
    const scratch = await seedScaleDatabase(options.databaseUrl, rows, (line) => io.out(line));
    const dir = mkdtempSync(path.join(tmpdir(), 'fw-bench-scale-'));
    let host: ServerProcess | undefined;
    try {
      // The built host on plain node: what `npx fw-query-host` runs (the TypeScript loader alone would add ~60 MB of RSS).
      buildPackages(['@fw/query-host']);
      const configFile = writeScaleHostConfig(dir, scratch.url);
      host = await startServerProcess(path.join(__dirname, 'built-host-server.cjs'), [configFile], [], 'node');
      const base = `http://127.0.0.1:${host.port}`;
      await paging(io, base, rows);
      await streaming(io, host, configFile, rows);
      const cancelled = await cancelledClient(base, 'everything', scratch.url);
      io.out(
        `cancelled client: connection back in the pool ${ms(cancelled.freedMs)} after the client left (goal ≤ 100 ms; ${cancelled.rowsRead} rows read)`,
      );
      await counts(io, base, rows);
      await caching(io, base, options);
    } finally {
      await host?.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
      await scratch.drop();
    }
  },
};
