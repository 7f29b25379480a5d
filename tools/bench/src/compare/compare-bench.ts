/**
 * `npm run bench -- compare --leaves N [--rounds R] [--timeout S] [--runners a,b]`: `fanout`, the BullMQ flow on
 * Redis (`bullmq`) and on BullMQ's PostgreSQL backend (`bullmq-pg`), the pg-boss flow (`pgboss`)
 * and graphile-worker (`graphile`: counted, bare and batched fan-ins) on the same machine,
 * interleaved: R rounds (default 3), each running every runner once, in an order rotated each
 * round, each runner in an OS process of its own (`compare-child-main.ts`, so its peak RSS is its
 * own and nothing it leaves in memory slows the next). Every runner cleans up after itself (scratch
 * databases, Redis keys). A peer's run still going after S seconds (default 600) ends as "did not
 * finish within S s" in its round; a child still alive 120 s after that is killed. Prints each
 * round, then the medians, fanout's ratios to the others, each runner's peak RSS and each series'
 * cost per leaf. Every child's node gets the same flags: the young generation recommended for
 * fan-out hosts ({@link RECOMMENDED_NODE_FLAGS}), or Node's defaults with `--node-defaults`.
 */
import { fork } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildPackages } from '../build/build-packages';
import { benchRedisUrl } from '../bullmq/bullmq-flow-bench';
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';
import { formatSeconds } from '../deadline/run-deadline';
import type { ChildRunner, CompareChildMessage } from './compare-child-main';
import {
  compareRunnersOf,
  formatCompareSummary,
  roundOrder,
  summarizeCompare,
  type ChildMeasured,
  type CompareRecord,
  type CompareSummary,
  type CompareRunner,
} from './compare-stats';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../../..');
const CHILD_MAIN = path.join(__dirname, 'compare-child-main.ts');

/** The packages the fanout runner loads (built before the rounds in `dist` mode). */
export const FANOUT_PACKAGES = [
  '@fw/core',
  '@fw/process-api',
  '@fw/stm',
  '@fw/leased-queue',
  '@fw/process-outbox',
  '@fw/process-service',
  '@fw/process-utils',
  '@fw/jdbc-process-starter',
  '@fw/telemetry',
  '@fw/telemetry-node',
  '@fw/migrate',
];

export interface CompareSettings {
  leaves: number;
  rounds: number;
  databaseUrl: string;
  redisUrl: string;
  /**
   * Which code of ours the runners load: `dist`, the packages' built JavaScript (as npm users run
   * them, and as BullMQ and graphile-worker run theirs), or `source`, the TypeScript sources
   * through tsx (whose keep-names helper wraps every closure the code creates).
   */
  code: 'dist' | 'source';
  /**
   * The longest one run of a peer may take, in seconds (default: no bound): past it the run ends as
   * not finished; its child process is killed if still alive {@link KILL_GRACE_SECONDS} later.
   */
  timeoutSeconds?: number;
  /** The runners of each round (fanout among them); default all of `COMPARE_RUNNERS`. */
  runners?: readonly CompareRunner[];
  /**
   * Leaves of a fan-out each fanout child runs before its measured one, on the same database and
   * with the same telemetry (default 0: measured cold). `compare` leaves it at 0: the peers run
   * cold too.
   */
  warmupLeaves?: number;
  /**
   * Flags of every child's `node` (default none: Node's defaults). `compare` and `telemetry` give
   * {@link RECOMMENDED_NODE_FLAGS} unless `--node-defaults`: every runner, ours and the peers', the same.
   */
  nodeFlags?: readonly string[];
}

/**
 * The young generation `@fw/jdbc-process-starter`'s README recommends for hosts that run fan-outs
 * (Node's default semi-space is 16 MB): batches in flight then die young instead of being copied
 * and promoted. `compare` and `telemetry` run every runner's process with it unless `--node-defaults`.
 */
export const RECOMMENDED_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

/** `--max-semi-space-size=64 (the young generation recommended for fan-out hosts)`, or Node's defaults. */
export function describeNodeFlags(flags: readonly string[] | undefined): string {
  if (!flags || flags.length === 0) return "Node's default heap";
  const same = flags.length === RECOMMENDED_NODE_FLAGS.length && flags.every((f, i) => f === RECOMMENDED_NODE_FLAGS[i]);
  return `${flags.join(' ')}${same ? " (the young generation recommended for fan-out hosts; --node-defaults for Node's own)" : ''}`;
}

/** Default of `--timeout`: the issue's ten minutes. */
export const DEFAULT_COMPARE_TIMEOUT_SECONDS = 600;

/** How long after its bound a child may take to clean up (end its sessions, drop its database) before it is killed. */
export const KILL_GRACE_SECONDS = 120;

/** tsconfig of the children: the workspace's (`@fw/*` → sources) or one without paths (`@fw/*` → the packages' dist). */
function childTsconfig(code: CompareSettings['code']): string {
  return code === 'source'
    ? path.join(WORKSPACE_ROOT, 'tsconfig.json')
    : path.join(WORKSPACE_ROOT, 'tools/bench/tsconfig.dist.json');
}

/**
 * `--cpu-prof` into `FW_BENCH_CPU_PROFILE_DIR` when that is set: a V8 CPU profile of every child
 * (one file per OS process, `CPU.<date>.<pid>…cpuprofile`), to open in Chrome's DevTools.
 */
function profileArgs(env: NodeJS.ProcessEnv): string[] {
  const dir = env.FW_BENCH_CPU_PROFILE_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

/** What a child measured, with its peak RSS. */
export type ChildRecord = ChildMeasured & { maxRssBytes: number };

/** Extra wiring of a child: environment on top of this process's, and its metrics URL once served. */
export interface ChildHooks {
  env?: Record<string, string>;
  onMetricsServed?(url: string): void;
}

/** Runs one runner in its own OS process; each line it prints goes to `print`. */
export function runCompareChild(
  runner: ChildRunner,
  settings: CompareSettings,
  print: (line: string) => void,
  hooks: ChildHooks = {},
): Promise<ChildRecord> {
  const timeout = settings.timeoutSeconds;
  const args = [
    runner,
    String(settings.leaves),
    settings.databaseUrl,
    settings.redisUrl,
    timeout?.toString() ?? '',
    String(settings.warmupLeaves ?? 0),
  ];
  const started = performance.now();
  const child = fork(CHILD_MAIN, args, {
    cwd: WORKSPACE_ROOT,
    execArgv: [...(settings.nodeFlags ?? []), '--import', 'tsx', ...profileArgs(process.env)],
    env: {
      ...process.env,
      FW_LOG_LEVEL: process.env.FW_LOG_LEVEL ?? 'error',
      TSX_TSCONFIG_PATH: childTsconfig(settings.code),
      ...hooks.env,
    },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let pending = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) print(line);
  });
  return new Promise((resolve, reject) => {
    let message: CompareChildMessage | undefined;
    let killed = false;
    const killer =
      timeout === undefined
        ? undefined
        : setTimeout(
            () => {
              killed = true;
              child.kill('SIGKILL');
            },
            (timeout + KILL_GRACE_SECONDS) * 1000,
          );
    child.on('message', (m: CompareChildMessage) => {
      if (m.type === 'metrics-served') hooks.onMetricsServed?.(m.url);
      else message = m;
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(killer);
      if (pending !== '') print(pending);
      if (message?.type === 'result') {
        // NaN crosses IPC as null.
        const { type: _type, splitSeconds, ...record } = message;
        return resolve({ ...record, splitSeconds: splitSeconds ?? Number.NaN });
      }
      if (killed && timeout !== undefined) {
        print(`killed: did not finish within ${formatSeconds(timeout)} s, nor end ${KILL_GRACE_SECONDS} s after`);
        return resolve(killedRecord(runner, timeout));
      }
      const reason = `${signal ?? `exit code ${code}`}${message?.type === 'failed' ? `: ${message.message}` : ''}`;
      // A peer that falls over (BullMQ's flow of a million children fills node's default heap) is
      // that peer's result for the round; ours falling over ends the comparison.
      if (runner !== 'fanout') {
        print(`ended without a result (${reason})`);
        return resolve(failedRecord(runner, reason, (performance.now() - started) / 1000));
      }
      reject(new Error(`${runner} failed (${reason})`));
    });
  });
}

/** What a child killed past its bound is recorded as: its runner did not finish. */
function killedRecord(runner: ChildRunner, timeout: number): ChildRecord {
  return { rates: {}, seconds: timeout, splitSeconds: Number.NaN, maxRssBytes: 0, unfinished: { [runner]: timeout } };
}

/** What a peer whose process ended without a result is recorded as. */
function failedRecord(runner: ChildRunner, reason: string, seconds: number): ChildRecord {
  return { rates: {}, seconds, splitSeconds: Number.NaN, maxRssBytes: 0, failed: { [runner]: reason } };
}

/** `fanout 5012/s (node 0.101 ms, rest 0.093 ms per leaf)`, or `bullmq-pg did not finish within 600 s`. */
function seriesText(r: CompareRecord): string[] {
  const ms = (v: number | undefined) => (v === undefined ? '?' : v.toFixed(3));
  const finished = Object.entries(r.rates).map(([name, rate]) => {
    const cost = r.costs?.[name];
    const cpu = cost ? ` (node ${ms(cost.nodeCpuMs)} ms, rest ${ms(cost.restCpuMs)} ms CPU per leaf)` : '';
    return `${name} ${rate.toFixed(0)}/s${cpu}`;
  });
  const unfinished = Object.entries(r.unfinished ?? {}).map(
    ([name, within]) => `${name} did not finish within ${formatSeconds(within)} s`,
  );
  const failed = Object.entries(r.failed ?? {}).map(([name, reason]) => `${name} ended without a result (${reason})`);
  return [...finished, ...unfinished, ...failed];
}

function roundLine(r: CompareRecord): string {
  const split = Number.isFinite(r.splitSeconds) ? `, split ${r.splitSeconds.toFixed(2)} s` : '';
  const rss = r.maxRssBytes > 0 ? `, peak RSS ${(r.maxRssBytes / 1024 / 1024).toFixed(0)} MB` : '';
  return `round ${r.round} ${r.runner}: ${seriesText(r).join(', ')} (${r.seconds.toFixed(2)} s${split}${rss}, load ${os.loadavg()[0].toFixed(1)})`;
}

/** Runs every round and prints the summary; returns it. */
export async function compareOn(settings: CompareSettings, io: BenchIo): Promise<CompareSummary> {
  const runners = settings.runners ?? compareRunnersOf(undefined);
  if (settings.code === 'dist') {
    io.out(`compare: building ${FANOUT_PACKAGES.join(', ')} (nx run-many -t build)`);
    buildPackages(FANOUT_PACKAGES);
  }
  io.out(
    `compare: fanout (${settings.code === 'dist' ? 'built packages' : 'TypeScript sources through tsx'}) vs ${runners.filter((r) => r !== 'fanout').join(', ')}, ${settings.leaves} leaves, ${settings.rounds} round(s) interleaved, a peer's run bounded by ${settings.timeoutSeconds === undefined ? 'nothing' : `${formatSeconds(settings.timeoutSeconds)} s`}; every runner's node: ${describeNodeFlags(settings.nodeFlags)}; load average at start ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const records: CompareRecord[] = [];
  for (let round = 1; round <= settings.rounds; round++) {
    for (const runner of roundOrder(round, runners)) {
      const measured = await runCompareChild(runner, settings, (line) => io.out(`  [${runner} ${round}] ${line}`));
      const record: CompareRecord = { round, runner, ...measured };
      records.push(record);
      io.out(roundLine(record));
    }
  }
  const summary = summarizeCompare(records);
  io.out(
    `compare: ${settings.leaves} leaves, leaves/s per round (in round order) and medians; load average at end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const line of formatCompareSummary(summary)) io.out(line);
  return summary;
}

/**
 * The settings of runs in child processes from the command line (`--leaves`, default 10000;
 * `--rounds`, default 3; `--source`; `--node-defaults`), without a time bound; `compare` and
 * `telemetry` share them.
 */
export function compareSettingsOf(options: BenchOptions): CompareSettings {
  return {
    leaves: options.leaves ?? 10_000,
    rounds: options.rounds ?? 3,
    databaseUrl: process.env.FW_BENCH_DATABASE_URL || options.databaseUrl,
    redisUrl: benchRedisUrl(),
    code: options.source === true ? 'source' : 'dist',
    nodeFlags: options.nodeDefaults === true ? [] : RECOMMENDED_NODE_FLAGS,
  };
}

/** The `compare` runner of `npm run bench` (`--leaves`, default 10000; `--rounds`, default 3). */
export const compareBench: BenchRunner = {
  description:
    "fanout vs BullMQ flow (Redis and BullMQ's PostgreSQL backend) vs pg-boss flow vs graphile-worker, interleaved rounds (--leaves N, default 10000; --rounds R, default 3; --timeout S per peer run, default 600; --runners fanout,bullmq to run only some; --source: fanout on the TypeScript sources instead of the built packages; --node-defaults: every runner's node without the recommended young generation): medians, ratios, peak RSS, CPU and statements per leaf",
  async run(options: BenchOptions, io: BenchIo): Promise<void> {
    await compareOn(
      {
        ...compareSettingsOf(options),
        timeoutSeconds: options.timeout ?? DEFAULT_COMPARE_TIMEOUT_SECONDS,
        runners: compareRunnersOf(options.runners),
      },
      io,
    );
  },
};
