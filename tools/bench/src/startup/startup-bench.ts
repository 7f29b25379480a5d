/**
 * `npm run bench -- startup [--runs N]`: time from spawn to the first answered request of each
 * host command, built JavaScript (what `npm install @fw/admin-server` runs) against the checkout's
 * `tsx` path (TypeScript compiled on the fly):
 *
 * - admin server, production profile on a migrated scratch PostgreSQL database (GET /health-check);
 * - admin server, dev profile on PGlite in a fresh folder (first start: creates ./.data and applies
 *   the schema) and again in the same folder (warm ./.data);
 * - query host with a config file on the scratch database (POST /q/one).
 *
 * The two ways are interleaved run by run, so a change in the machine's load hits both alike.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';
import { buildPackages } from '../build/build-packages';
import { createScratchDatabase } from '../scratch/scratch-database';

const ROOT = path.resolve(__dirname, '../../../..');
const KEY = 'startup-bench-key-0123456789abcdef0123';
const BINS = {
  admin: { built: 'apps/admin-server/dist/main.js', source: 'apps/admin-server/src/main.ts' },
  query: { built: 'apps/query-host/dist/main.js', source: 'apps/query-host/src/main.ts' },
};
const MIGRATE = 'tools/migrate/dist/main.js';
/** The production goal: a host answers within this many ms of its spawn. */
export const STARTUP_GOAL_MS = 1000;
/** One start: the host must answer within this; then it is killed and the bench fails. */
const START_TIMEOUT_MS = 60_000;
/** After SIGTERM a host gets this long to exit before SIGKILL. */
const STOP_TIMEOUT_MS = 10_000;
const PROBE_INTERVAL_MS = 5;
const PROBE_TIMEOUT_MS = 2_000;

export type StartupWay = 'built' | 'tsx';
export const STARTUP_SHAPES = [
  'admin-server production (PostgreSQL)',
  'admin-server --profile dev, first start (PGlite, new ./.data)',
  'admin-server --profile dev, warm ./.data',
  'query-host --config (PostgreSQL)',
] as const;
export type StartupShape = (typeof STARTUP_SHAPES)[number];

/** Milliseconds from spawn to the first 2xx answer, per way and shape, one sample per run. */
export type StartupSamples = Record<StartupWay, Record<StartupShape, number[]>>;

interface Probe {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

function argsFor(bin: keyof typeof BINS, way: StartupWay): string[] {
  if (way === 'built') return [path.join(ROOT, BINS[bin].built)];
  // As the admin-server tests spawn it: tsx's loader by absolute URL, @fw/* mapped to sources by
  // the root tsconfig (TSX_TSCONFIG_PATH).
  const loader = pathToFileURL(require.resolve('tsx', { paths: [ROOT] })).href;
  return ['--import', loader, path.join(ROOT, BINS[bin].source)];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Spawns the host, waits for its listening line, then polls the probe every 5 ms until it answers
 * 2xx; returns the ms from spawn to that answer. The host is always stopped (SIGTERM, SIGKILL
 * after 10 s) and waited for before this returns or throws.
 */
async function timeToFirstAnswer(
  args: string[],
  extraArgs: string[],
  env: Record<string, string>,
  cwd: string,
  probe: Probe,
): Promise<number> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [...args, ...extraArgs], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      FW_LOG_LEVEL: 'warn',
      TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let url: string | undefined;
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    url ??= /listening on (http:\/\/\S+)/.exec(out)?.[1];
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  let closed = false;
  const exited = new Promise<void>((resolve) =>
    child.on('close', () => {
      closed = true;
      resolve();
    }),
  );
  const what = [...args, ...extraArgs].map((a) => path.relative(ROOT, a) || a).join(' ');
  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (url !== undefined) {
        const res = await fetch(`${url}${probe.path}`, {
          method: probe.method,
          headers: { 'content-type': 'application/json' },
          body: probe.body,
          signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
        }).catch(() => undefined);
        if (res !== undefined) {
          await res.arrayBuffer().catch(() => undefined);
          if (res.status >= 200 && res.status < 300) return Number(process.hrtime.bigint() - started) / 1e6;
        }
      }
      if (closed || child.exitCode !== null)
        throw new Error(`${what} exited (code ${child.exitCode}) before answering: ${err.slice(-1000)}`);
      if (Date.now() > deadline)
        throw new Error(
          `${what}: no 2xx answer to ${probe.method} ${probe.path} within ${START_TIMEOUT_MS} ms: ${err.slice(-1000)}`,
        );
      await sleep(url === undefined ? 2 : PROBE_INTERVAL_MS);
    }
  } finally {
    if (!closed) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(killer);
  }
}

/** The built files the bench needs that are missing (relative to the root). */
export function missingBuilds(): string[] {
  return [...Object.values(BINS).map((b) => b.built), MIGRATE].filter((f) => !existsSync(path.join(ROOT, f)));
}

/** Newest modification time (ms) of the .ts files under `dir` (0 when there are none). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts'))
      newest = Math.max(newest, statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return newest;
}

/** The built hosts older than a source of theirs or of a library (then the built JS runs older code). */
export function staleBuilds(): string[] {
  const libs = readdirSync(path.join(ROOT, 'libs'))
    .map((lib) => path.join(ROOT, 'libs', lib, 'src'))
    .filter((dir) => existsSync(dir));
  const newestLib = Math.max(0, ...libs.map(newestSource));
  return Object.values(BINS)
    .filter((b) => existsSync(path.join(ROOT, b.built)))
    .filter(
      (b) =>
        statSync(path.join(ROOT, b.built)).mtimeMs <
        Math.max(newestLib, newestSource(path.join(ROOT, path.dirname(b.source)))),
    )
    .map((b) => b.built);
}

function ensureBuilt(io: BenchIo): void {
  const stale = staleBuilds();
  if (stale.length > 0)
    io.out(
      `startup: note: ${stale.join(', ')} older than the sources; the built JS figures are of the last build (npm run build for the current code)`,
    );
  if (missingBuilds().length === 0) return;
  io.out(
    `startup: ${missingBuilds().join(', ')} missing; building first (NX_DAEMON=false npx nx run-many -t build -p @fw/admin-server @fw/query-host @fw/migrate)`,
  );
  buildPackages(['@fw/admin-server', '@fw/query-host', '@fw/migrate']);
  if (missingBuilds().length > 0) throw new Error(`still missing after the build: ${missingBuilds().join(', ')}`);
}

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function stats(samples: readonly number[]): string {
  return `min ${Math.min(...samples).toFixed(0)} ms, median ${median(samples).toFixed(0)} ms, max ${Math.max(...samples).toFixed(0)} ms`;
}

function writeQueryConfig(dir: string, url: URL): string {
  mkdirSync(path.join(dir, 'mappers'), { recursive: true });
  mkdirSync(path.join(dir, 'definitions'), { recursive: true });
  writeFileSync(
    path.join(dir, 'mappers/shop.xml'),
    '<mapper namespace="shop"><select id="findOne" resultType="map">select 1 as id ${orderby} ${pagination}</select></mapper>',
  );
  writeFileSync(
    path.join(dir, 'definitions/shop.json'),
    JSON.stringify([{ name: 'one', id: 'shop.findOne', paginated: true, acls: [], columnMetadata: {} }]),
  );
  const jdbcUrl = `jdbc:postgresql://${url.hostname}:${url.port || '5432'}${url.pathname}`;
  const file = path.join(dir, 'query-host.json');
  writeFileSync(
    file,
    JSON.stringify({
      server: { port: 0 },
      query: {
        defaultTenantId: 't1',
        datasources: {
          t1: { jdbcUrl, username: decodeURIComponent(url.username) || 'postgres', password: '${DB_PASSWORD}' },
        },
        mapperFiles: 'mappers/*.xml',
        definitionFiles: 'definitions/*.json',
      },
    }),
  );
  return file;
}

function migrate(databaseUrl: string): void {
  try {
    execFileSync(process.execPath, [path.join(ROOT, MIGRATE), '--database-url', databaseUrl], {
      stdio: 'pipe',
      env: { ...process.env, FW_LOG_LEVEL: 'warn' },
    });
  } catch (e) {
    const failed = e as { stderr?: Buffer };
    throw new Error(
      `migrating the scratch database failed: ${String(failed.stderr ?? (e as Error).message).slice(-1000)}`,
      { cause: e },
    );
  }
}

/** The line printed for one way and shape. */
function resultLine(way: StartupWay, shape: StartupShape, samples: readonly number[]): string {
  return `${way === 'built' ? 'built JS' : 'tsx     '}  ${shape}: ${stats(samples)} (${samples.length} runs)`;
}

/** The final line: the production hosts' medians against the 1 s goal, and what tsx adds. */
function summaryLine(samples: Partial<StartupSamples>, runs: number): string {
  const production: StartupShape[] = ['admin-server production (PostgreSQL)', 'query-host --config (PostgreSQL)'];
  const parts: string[] = [];
  for (const way of ['built', 'tsx'] as const) {
    const s = samples[way];
    if (!s) continue;
    const medians = production.map((shape) => median(s[shape]));
    const worst = Math.max(...medians);
    parts.push(
      `${way === 'built' ? 'built JS' : 'tsx'} admin-server ${medians[0].toFixed(0)} ms, query-host ${medians[1].toFixed(0)} ms (${worst <= STARTUP_GOAL_MS ? 'within' : 'OVER'} ${STARTUP_GOAL_MS} ms)`,
    );
  }
  return `startup: spawn to first 2xx, median of ${runs} run(s); production hosts: ${parts.join('; ')}`;
}

/**
 * Runs the startup shapes `runs` times for each of `ways` on a scratch database of the server at
 * `serverUrl` (created, migrated with tools/migrate's built command, dropped at the end); prints
 * one line per way and shape, then a summary line. Needs the hosts built (see `missingBuilds`).
 */
export async function startupBenchOn(
  serverUrl: string,
  options: { runs: number; ways?: readonly StartupWay[] },
  io: BenchIo,
): Promise<Partial<StartupSamples>> {
  const ways = options.ways ?? (['built', 'tsx'] as const);
  const missing = missingBuilds();
  if (missing.length > 0) throw new Error(`${missing.join(', ')} missing: run npm run build first`);
  const samples: Partial<StartupSamples> = {};
  for (const way of ways)
    samples[way] = Object.fromEntries(STARTUP_SHAPES.map((shape) => [shape, [] as number[]])) as Record<
      StartupShape,
      number[]
    >;
  const scratch = await createScratchDatabase(serverUrl, 'fw_bench_startup');
  let work: string | undefined;
  try {
    migrate(scratch.url);
    work = mkdtempSync(path.join(tmpdir(), 'fw-bench-startup-'));
    const url = new URL(scratch.url);
    const bare = new URL(scratch.url);
    bare.username = '';
    bare.password = '';
    const password = decodeURIComponent(url.password);
    const production = {
      PROCESS_DATABASE_URL: bare.toString(),
      PROCESS_DATABASE_USERNAME: decodeURIComponent(url.username) || 'postgres',
      PROCESS_DATABASE_PASSWORD: password,
      PROCESS_MANAGEMENT_API_KEY: KEY,
      PROCESS_ADMIN_PORT: '0',
    };
    const health: Probe = { method: 'GET', path: '/health-check' };
    const queryConfig = writeQueryConfig(path.join(work, 'query'), url);
    for (let i = 0; i < options.runs; i++) {
      for (const way of ways) {
        const s = samples[way]!;
        s['admin-server production (PostgreSQL)'].push(
          await timeToFirstAnswer(argsFor('admin', way), [], production, work, health),
        );
        const devDir = mkdtempSync(path.join(work, 'dev-'));
        try {
          s['admin-server --profile dev, first start (PGlite, new ./.data)'].push(
            await timeToFirstAnswer(
              argsFor('admin', way),
              ['--profile', 'dev'],
              { PROCESS_ADMIN_PORT: '0' },
              devDir,
              health,
            ),
          );
          s['admin-server --profile dev, warm ./.data'].push(
            await timeToFirstAnswer(
              argsFor('admin', way),
              ['--profile', 'dev'],
              { PROCESS_ADMIN_PORT: '0' },
              devDir,
              health,
            ),
          );
        } finally {
          rmSync(devDir, { recursive: true, force: true });
        }
        s['query-host --config (PostgreSQL)'].push(
          await timeToFirstAnswer(argsFor('query', way), ['--config', queryConfig], { DB_PASSWORD: password }, work, {
            method: 'POST',
            path: '/q/one',
            body: '{}',
          }),
        );
      }
      if (options.runs > 1) io.out(`startup: run ${i + 1}/${options.runs} done`);
    }
  } finally {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
    await scratch.drop();
  }
  for (const way of ways) for (const shape of STARTUP_SHAPES) io.out(resultLine(way, shape, samples[way]![shape]));
  io.out(summaryLine(samples, options.runs));
  return samples;
}

export const startupBench: BenchRunner = {
  description:
    'time from spawn to the first answered request of each host command: built JavaScript against the tsx path (--runs N, default 5)',
  async run(options: BenchOptions, io: BenchIo) {
    ensureBuilt(io);
    const runs = options.runs ?? 5;
    io.out(
      `startup: ${runs} run(s) per shape and way, built JS and tsx interleaved; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at start on ${cpus().length} CPU(s)`,
    );
    await startupBenchOn(options.databaseUrl, { runs }, io);
  },
};
