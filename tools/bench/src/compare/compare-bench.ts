/**
 * `npm run bench -- compare --leaves N [--rounds R]`: `fanout`, the BullMQ flow (`bullmq`) and
 * graphile-worker (`graphile`, both fan-ins) on the same machine, interleaved: R rounds (default 3),
 * each running every runner once, in an order rotated each round, each runner in an OS process of
 * its own (`compare-child-main.ts`, so its peak RSS is its own and nothing it leaves in memory
 * slows the next). Every runner cleans up after itself (scratch databases, Redis keys). Prints
 * each round, then the medians, fanout's ratios to the others and each runner's peak RSS.
 */
import { fork } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildPackages } from '../build/build-packages';
import { benchRedisUrl } from '../bullmq/bullmq-flow-bench';
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';
import type { ChildMeasured, ChildRunner, CompareChildMessage } from './compare-child-main';
import {
  formatCompareSummary,
  roundOrder,
  summarizeCompare,
  type CompareRecord,
  type CompareSummary,
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
}

/** tsconfig of the children: the workspace's (`@fw/*` → sources) or one without paths (`@fw/*` → the packages' dist). */
function childTsconfig(code: CompareSettings['code']): string {
  return code === 'source'
    ? path.join(WORKSPACE_ROOT, 'tsconfig.json')
    : path.join(WORKSPACE_ROOT, 'tools/bench/tsconfig.dist.json');
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
  const child = fork(CHILD_MAIN, [runner, String(settings.leaves), settings.databaseUrl, settings.redisUrl], {
    cwd: WORKSPACE_ROOT,
    execArgv: ['--import', 'tsx'],
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
    child.on('message', (m: CompareChildMessage) => {
      if (m.type === 'metrics-served') hooks.onMetricsServed?.(m.url);
      else message = m;
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (pending !== '') print(pending);
      if (message?.type === 'result') {
        const { type: _type, ...record } = message;
        return resolve(record);
      }
      reject(
        new Error(
          `${runner} failed (${signal ?? `exit code ${code}`}): ${message?.type === 'failed' ? message.message : 'no result'}`,
        ),
      );
    });
  });
}

function roundLine(r: CompareRecord): string {
  const rates = Object.entries(r.rates)
    .map(([name, rate]) => `${name} ${rate.toFixed(0)}/s`)
    .join(', ');
  return `round ${r.round} ${r.runner}: ${rates} (${r.seconds.toFixed(2)} s, split ${r.splitSeconds.toFixed(2)} s, peak RSS ${(r.maxRssBytes / 1024 / 1024).toFixed(0)} MB, load ${os.loadavg()[0].toFixed(1)})`;
}

/** Runs every round and prints the summary; returns it. */
export async function compareOn(settings: CompareSettings, io: BenchIo): Promise<CompareSummary> {
  if (settings.code === 'dist') {
    io.out(`compare: building ${FANOUT_PACKAGES.join(', ')} (nx run-many -t build)`);
    buildPackages(FANOUT_PACKAGES);
  }
  io.out(
    `compare: fanout (${settings.code === 'dist' ? 'built packages' : 'TypeScript sources through tsx'}) vs BullMQ flow vs graphile-worker, ${settings.leaves} leaves, ${settings.rounds} round(s) interleaved; load average at start ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const records: CompareRecord[] = [];
  for (let round = 1; round <= settings.rounds; round++) {
    for (const runner of roundOrder(round)) {
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

/** The `compare` runner of `npm run bench` (`--leaves`, default 10000; `--rounds`, default 3). */
export const compareBench: BenchRunner = {
  description:
    'fanout vs BullMQ flow vs graphile-worker, interleaved rounds (--leaves N, default 10000; --rounds R, default 3; --source: fanout on the TypeScript sources instead of the built packages): medians, ratios, peak RSS',
  async run(options: BenchOptions, io: BenchIo): Promise<void> {
    await compareOn(
      {
        leaves: options.leaves ?? 10_000,
        rounds: options.rounds ?? 3,
        databaseUrl: process.env.FW_BENCH_DATABASE_URL || options.databaseUrl,
        redisUrl: benchRedisUrl(),
        code: options.source === true ? 'source' : 'dist',
      },
      io,
    );
  },
};
