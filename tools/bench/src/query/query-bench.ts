import { redactUrl } from '@fw/core';
import { buildOrderBy, buildPagination, parseMapperXml } from '@fw/query-core';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';
import { type LoadResult, type LoadSpec, runLoad } from '../load/load-generator';
import { type MemorySample, type ServerProcess, startServerProcess } from '../load/server-process';
import { newestProfile, summarizeProfile } from '../profile/cpu-profile-summary';
import type { BaselineSpec } from './baseline-server';
import { createScratchDatabase } from './scratch-database';
import { WARMUP_MAX_REQUESTS, warmUp, type WarmupPlan } from './warm-up';

const FIXTURES = path.resolve(__dirname, '..', '..', 'fixtures', 'query');
const POOL_SIZE = 10;
const PAGE = 20;
const AUTHOR_ID = 42;

/** The request both servers answer: one author's books, sorted by title, first page, with a count. */
export const QUERY_BENCH_REQUEST = {
  filters: { authorId: AUTHOR_ID },
  sortCriteria: [{ name: 'title', ascendingOrder: true }],
  numRowsInPage: PAGE,
};

/**
 * The exact SQL the query host runs for {@link QUERY_BENCH_REQUEST}, rendered by the same mapper
 * through `@fw/query-core`, so the baseline executes the same statements.
 */
export async function renderBenchSql(): Promise<{ rowsSql: string; countSql: string }> {
  const document = await parseMapperXml(readFileSync(path.join(FIXTURES, 'bench.xml'), 'utf8'), 'bench.xml');
  const find = (id: string) => {
    const statement = document.statements.find((s) => s.statementId === id);
    if (!statement) throw new Error(`bench.xml has no statement ${id}`);
    return statement;
  };
  const orderby = buildOrderBy([{ field: 'title', column: 'title', ascending: true }]);
  const rows = find('findBooks').render({
    authorId: AUTHOR_ID,
    orderby,
    pagination: buildPagination({ limit: PAGE, offset: 0 }),
  });
  const count = find('findBooks-count').render({ authorId: AUTHOR_ID, orderby: '', pagination: '' });
  if (
    JSON.stringify(rows.values) !== JSON.stringify([AUTHOR_ID]) ||
    JSON.stringify(count.values) !== JSON.stringify([AUTHOR_ID])
  ) {
    throw new Error(`unexpected bind values ${JSON.stringify([rows.values, count.values])}`);
  }
  return { rowsSql: rows.sql, countSql: count.sql };
}

function writeHostConfig(dir: string, databaseUrl: string): string {
  const file = path.join(dir, 'query-host.json');
  writeFileSync(
    file,
    JSON.stringify({
      server: { port: 0 },
      query: {
        defaultTenantId: 'bench',
        datasources: { bench: { jdbcUrl: databaseUrl, maximumPoolSize: POOL_SIZE } },
        mapperFiles: path.join(FIXTURES, 'bench.xml'),
        definitionFiles: path.join(FIXTURES, 'bench.json'),
        pagination: { countQueryEnabled: true },
      },
    }),
  );
  return file;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const memoryLine = (label: string, before: MemorySample, after: MemorySample) =>
  `  ${label.padEnd(11)} rss ${mb(before.rss)} → ${mb(after.rss)}   heap used (after GC) ${mb(before.heapUsed)} → ${mb(after.heapUsed)}`;

/** Sums several runs into one: total completed over total time. */
function combine(results: LoadResult[]): LoadResult {
  const completed = results.reduce((s, r) => s + r.completed, 0);
  const seconds = results.reduce((s, r) => s + r.durationSeconds, 0);
  return {
    requestsPerSecond: completed / seconds,
    latencyP50Ms: Math.max(...results.map((r) => r.latencyP50Ms)),
    latencyP99Ms: Math.max(...results.map((r) => r.latencyP99Ms)),
    completed,
    failures: results.reduce((s, r) => s + r.failures, 0),
    durationSeconds: seconds,
  };
}

function loadSpec(options: BenchOptions, server: ServerProcess, requests: number): LoadSpec {
  return {
    url: `http://127.0.0.1:${server.port}/q/books`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-fw-tenant-id': 'bench' },
    body: JSON.stringify(QUERY_BENCH_REQUEST),
    requests,
    connections: options.connections,
  };
}

/** Warms each server up (`--warmup N`, else until its throughput is steady) and prints how it went. */
async function warmUpServers(
  io: BenchIo,
  options: BenchOptions,
  host: ServerProcess,
  baseline: ServerProcess,
): Promise<void> {
  const plan: WarmupPlan =
    options.warmup === undefined ? { kind: 'steady' } : { kind: 'fixed', requests: options.warmup };
  for (const [label, server] of [
    ['baseline', baseline],
    ['query host', host],
  ] as const) {
    const outcome = await warmUp(
      async (requests) => (await runLoad(loadSpec(options, server, requests))).requestsPerSecond,
      plan,
    );
    const rates = outcome.sliceRates.map((r) => r.toFixed(0)).join(' → ');
    const ending =
      plan.kind === 'fixed'
        ? 'fixed'
        : outcome.steady
          ? 'steady'
          : `not steady at the ${WARMUP_MAX_REQUESTS}-request cap`;
    io.out(`  warm-up ${label}: ${outcome.requests} requests (${ending})${rates ? `, req/s ${rates}` : ''}`);
  }
}

async function measure(
  io: BenchIo,
  options: BenchOptions,
  host: ServerProcess,
  baseline: ServerProcess,
): Promise<{ host: LoadResult; baseline: LoadResult }> {
  // Two alternating rounds each, so a burst of noise on this machine hits both servers alike.
  const half = Math.max(1, Math.floor(options.requests / 2));
  const rounds: { host: LoadResult[]; baseline: LoadResult[] } = { host: [], baseline: [] };
  for (let round = 0; round < 2; round++) {
    rounds.baseline.push(await runLoad(loadSpec(options, baseline, half)));
    rounds.host.push(await runLoad(loadSpec(options, host, half)));
    io.out(
      `  round ${round + 1}: baseline ${rounds.baseline[round].requestsPerSecond.toFixed(0)} req/s, query host ${rounds.host[round].requestsPerSecond.toFixed(0)} req/s`,
    );
  }
  return { host: combine(rounds.host), baseline: combine(rounds.baseline) };
}

/** `npm run bench -- query`: the query host's POST /q/books against a bare node:http + pg baseline. */
export const queryBench: BenchRunner = {
  description: 'POST /q/<name> on the query host vs. a bare node:http + pg server running the same SQL',
  async run(options, io) {
    io.out(
      `query bench: ${options.rows} rows on ${redactUrl(options.databaseUrl)} (scratch database), ${options.requests} requests × 2 servers, ${options.connections} connections, pool ${POOL_SIZE}`,
    );
    io.out(`  request: POST /q/books ${JSON.stringify(QUERY_BENCH_REQUEST)}`);
    const sql = await renderBenchSql();
    const scratch = await createScratchDatabase(options.databaseUrl, options.rows);
    const dir = mkdtempSync(path.join(tmpdir(), 'fw-bench-query-'));
    const servers: ServerProcess[] = [];
    try {
      const profileDir = (name: string) => (options.cpuProfDir ? path.join(options.cpuProfDir, name) : undefined);
      const profileArgs = (name: string) => {
        const target = profileDir(name);
        if (!target) return [];
        mkdirSync(target, { recursive: true });
        return ['--cpu-prof', `--cpu-prof-dir=${target}`];
      };
      const host = await startServerProcess(
        path.join(__dirname, 'host-server.ts'),
        [writeHostConfig(dir, scratch.url)],
        profileArgs('query-host'),
      );
      servers.push(host);
      const baselineSpec: BaselineSpec = { databaseUrl: scratch.url, poolSize: POOL_SIZE, ...sql };
      const baseline = await startServerProcess(
        path.join(__dirname, 'baseline-server.ts'),
        [JSON.stringify(baselineSpec)],
        profileArgs('baseline'),
      );
      servers.push(baseline);

      // Sampled after the warm-up, so CPU per request and memory cover the measured runs alone.
      await warmUpServers(io, options, host, baseline);
      const before = { host: await host.memory(), baseline: await baseline.memory() };
      const result = await measure(io, options, host, baseline);
      const after = { host: await host.memory(), baseline: await baseline.memory() };

      const row = (label: string, r: LoadResult) =>
        `  ${label.padEnd(11)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${r.latencyP50Ms.toFixed(1).padStart(5)} ms   p99 ${r.latencyP99Ms.toFixed(1).padStart(6)} ms   ${r.completed} ok, ${r.failures} failed`;
      io.out(row('baseline', result.baseline));
      io.out(row('query host', result.host));
      const ratio = result.host.requestsPerSecond / result.baseline.requestsPerSecond;
      io.out(`  ratio host/baseline: ${ratio.toFixed(2)}`);
      const cpuPerRequest = (b: MemorySample, a: MemorySample, r: LoadResult) =>
        ((a.cpuMs - b.cpuMs) / r.completed).toFixed(3);
      io.out(
        `  server CPU per request: query host ${cpuPerRequest(before.host, after.host, result.host)} ms, baseline ${cpuPerRequest(before.baseline, after.baseline, result.baseline)} ms`,
      );
      io.out('  memory before → after the measured runs:');
      io.out(memoryLine('query host', before.host, after.host));
      io.out(memoryLine('baseline', before.baseline, after.baseline));
      if (result.host.failures > 0 || result.baseline.failures > 0)
        io.out('  WARNING: some requests failed; the figures are not valid');

      await Promise.all(servers.splice(0).map((s) => s.stop()));
      for (const name of ['query-host', 'baseline']) {
        const target = profileDir(name);
        const file = target && newestProfile(target);
        if (!file) continue;
        const summary = summarizeProfile(file);
        io.out(`  CPU profile of the ${name}: ${file} (${summary.totalMs.toFixed(0)} ms sampled), self time by area:`);
        for (const a of summary.areas) io.out(`    ${(a.share * 100).toFixed(1).padStart(5)}%  ${a.name}`);
        io.out('  top functions (self time):');
        for (const f of summary.functions) io.out(`    ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.name}`);
      }
    } finally {
      await Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
      rmSync(dir, { recursive: true, force: true });
      await scratch.drop();
    }
  },
};
