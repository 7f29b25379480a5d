/**
 * `npm run bench -- telemetry [--leaves N] [--rounds R] [--warmup W] [--source] [--node-defaults]`:
 * the cost of turning on what operators need. R rounds (default 3), each running `fanout` once with
 * telemetry off and once with it on (metrics recorded and scraped every second, every span exported
 * over OTLP to a receiver in this process), in an order that alternates each round, each run in an
 * OS process of its own on the built packages. Each run first runs an unmeasured fan-out of W
 * leaves (default {@link DEFAULT_TELEMETRY_WARMUP_LEAVES}; 0 measures cold processes), so that both
 * sides are measured as a long-running host runs. Both sides' processes get the same node flags
 * (the recommended young generation unless `--node-defaults`). Prints each run, the medians, the
 * loss of leaves/s and the node CPU per leaf of both.
 */
import * as os from 'node:os';
import { buildPackages } from '../build/build-packages';
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';
import {
  compareSettingsOf,
  describeNodeFlags,
  FANOUT_PACKAGES,
  runCompareChild,
  type ChildRecord,
  type CompareSettings,
} from '../compare/compare-bench';
import { benchSamplerEnv, describeSampler, TELEMETRY_PARTS_NAMES, telemetryPartsOf } from './fanout-telemetry';
import { startTelemetryCollector } from './telemetry-collector';
import { formatTelemetryOverhead, summarizeTelemetryOverhead, type TelemetryRound } from './telemetry-overhead';

/** One run in a child process, with the collector it exports to when telemetry is on. */
async function runOnce(
  settings: CompareSettings,
  telemetry: boolean,
  io: BenchIo,
  label: string,
): Promise<ChildRecord> {
  const print = (line: string) => io.out(`  [${label}] ${line}`);
  if (!telemetry) return runCompareChild('fanout', settings, print);
  const collector = await startTelemetryCollector();
  try {
    return await runCompareChild('fanout-telemetry', settings, print, {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, ...benchSamplerEnv() },
      onMetricsServed: (url) => collector.scrape(url),
    });
  } finally {
    const got = await collector.stop();
    print(
      `telemetry: ${got.exports} OTLP exports (${(got.exportedBytes / 1024 / 1024).toFixed(1)} MB), ${got.scrapes} scrapes`,
    );
  }
}

/**
 * Default of `--warmup`: enough leaves for V8 to have compiled the hot code of both sides, the
 * tracing SDK's and its exporter's included (200 kept traces at the bench's ratio of 0.01). Cold,
 * that code costs about 0.15 s of CPU once per process, which a 100,000-leaf run of 7 s would
 * count as a loss of about 2 % and a host running for months never notices.
 */
export const DEFAULT_TELEMETRY_WARMUP_LEAVES = 20_000;

/** Runs the rounds and prints the summary; returns the rounds. */
export async function telemetryOverheadOn(settings: CompareSettings, io: BenchIo): Promise<TelemetryRound[]> {
  const parts = telemetryPartsOf();
  if (settings.code === 'dist') buildPackages([...FANOUT_PACKAGES]);
  const what = `${TELEMETRY_PARTS_NAMES[parts]}${parts === 'both' ? '' : ' (FW_BENCH_TELEMETRY)'}`;
  io.out(
    `telemetry: fanout of ${settings.leaves} leaves with ${what} off and on (sampler ${describeSampler(benchSamplerEnv())}; metrics scraped every second; node: ${describeNodeFlags(settings.nodeFlags)}), ${settings.rounds} round(s), each run after a warm-up of ${settings.warmupLeaves ?? 0} leaves; load average ${os.loadavg()[0].toFixed(1)}`,
  );
  const rounds: TelemetryRound[] = [];
  for (let round = 1; round <= settings.rounds; round++) {
    const order = round % 2 === 1 ? [false, true] : [true, false];
    for (const telemetry of order) {
      const label = `${telemetry ? 'on' : 'off'} ${round}`;
      const record = await runOnce(settings, telemetry, io, label);
      const leavesPerSecond = Object.values(record.rates)[0];
      rounds.push({
        telemetry,
        leaves: settings.leaves,
        leavesPerSecond,
        nodeCpuSeconds: record.cpu?.processSeconds,
        restCpuSeconds: record.cpu?.restSeconds,
        round,
      });
      io.out(
        `round ${round} telemetry ${telemetry ? 'on ' : 'off'}: ${leavesPerSecond.toFixed(0)} leaves/s (${record.seconds.toFixed(2)} s, node CPU ${record.cpu?.processSeconds.toFixed(2) ?? '?'} s, peak RSS ${(record.maxRssBytes / 1024 / 1024).toFixed(0)} MB, load ${os.loadavg()[0].toFixed(1)})`,
      );
    }
  }
  io.out(`telemetry: ${settings.leaves} leaves, medians of ${settings.rounds} round(s)`);
  for (const line of formatTelemetryOverhead(summarizeTelemetryOverhead(rounds), parts)) io.out(line);
  return rounds;
}

/** The `telemetry` runner of `npm run bench`. */
export const telemetryBench: BenchRunner = {
  description:
    "fanout with metrics and tracing off vs on, interleaved rounds (--leaves N, default 10000; --rounds R, default 3; --warmup W unmeasured leaves before each run, default 20000; --source; --node-defaults: Node's default heap instead of the recommended young generation): loss of leaves/s, node CPU per leaf",
  async run(options: BenchOptions, io: BenchIo): Promise<void> {
    await telemetryOverheadOn(
      { ...compareSettingsOf(options), warmupLeaves: options.warmup ?? DEFAULT_TELEMETRY_WARMUP_LEAVES },
      io,
    );
  },
};
