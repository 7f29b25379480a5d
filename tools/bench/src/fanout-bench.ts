/**
 * `npm run bench -- fanout --leaves N [--workers K] [--database-url URL]`: one root process that
 * splits into N leaf children, with full process semantics and durable delivery on PostgreSQL: the
 * process manager with the transactional outbox (`@fw/process-outbox`), the JDBC work-item queue
 * (`@fw/jdbc-process-starter`) and the batch service of `@fw/process-utils` (splitter, no-op
 * executors, aggregator). With `--workers 0` (default) all runners and dispatchers run in this one
 * process; with K ≥ 1 they run in K worker OS processes and this process only coordinates
 * (`fanout/fanout-across-processes.ts`). A scratch database is created on the server of
 * `--database-url` (or FW_BENCH_DATABASE_URL), migrated and dropped.
 *
 * Prints the phases, leaves/s and transitions/s, and on its LAST line `leaves_per_s=<number>`.
 */
import { migrateDatabase, type Database } from '@fw/core';
import type { FwMetrics } from '@fw/telemetry';
import { fwMigrations } from '@fw/migrate';
import type { BenchIo, BenchOptions, BenchRunner } from './bench-types';
import { COORDINATOR_POOL, runFanoutAcrossWorkers } from './fanout/fanout-across-processes';
import { startFanoutProgress, verifyFanout } from './fanout/fanout-checks';
import {
  createFanoutRoot,
  FANOUT_ROOT_TYPE,
  fanoutTuningFromEnv,
  startFanoutNode,
  type FanoutTuning,
} from './fanout/fanout-node';
import { fanoutResultOf, type FanoutResult } from './fanout/fanout-result';
import { openScratchDatabase, withClient } from './scratch/scratch-database';
import { formatLeafCost, startLeafCost } from './fanout/leaf-cost';
import { formatCpuSplit, startCpuSplit } from './cpu/cpu-split';
import { benchSamplerEnv, describeSampler, startFanoutTelemetry } from './telemetry/fanout-telemetry';
import { startTelemetryCollector } from './telemetry/telemetry-collector';

export { fanoutTuningFromEnv, type FanoutTuning } from './fanout/fanout-node';
export type { FanoutResult } from './fanout/fanout-result';

/** Runs one fan-out of `leaves` in this process on a migrated database, measures and verifies it. */
export async function runFanout(
  database: Database,
  leaves: number,
  print: (line: string) => void,
  tuning: FanoutTuning = fanoutTuningFromEnv(),
  metrics?: FwMetrics,
): Promise<FanoutResult> {
  let splitDoneAt = 0;
  // The end of the last-but-one batch of leaves: all but the last batch have run.
  let leavesRun = 0;
  let lastButOneBatchAt: number | undefined;
  let lastLeafAt = 0;
  let aggregatedAt = 0;
  const node = startFanoutNode(database, tuning, {
    ...(metrics ? { metrics } : {}),
    onOutcome: (outcome) => {
      const now = performance.now();
      if (outcome.workerType === 'SPLITTER') splitDoneAt = now;
      else if (outcome.workerType === 'AGGREGATOR') aggregatedAt = now;
      else if (outcome.workerType === 'EXECUTOR') {
        lastLeafAt = now;
        if (++leavesRun === Math.max(1, leaves - tuning.batch)) lastButOneBatchAt = now;
      }
    },
  });
  let rootDone: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (rootDone = resolve));
  node.manager.onProcessCompleted((event) => {
    if (event.processType === FANOUT_ROOT_TYPE) rootDone();
  });

  const started = performance.now();
  const cpu = startCpuSplit();
  const rootId = await createFanoutRoot(node.manager, leaves);
  const progress = startFanoutProgress(database, rootId, started, print);
  await finished;
  const ended = performance.now();
  const cpuSplit = cpu.stop();
  print(`  ${formatCpuSplit(cpuSplit)}`);
  progress.stop();
  await node.stop();
  const verified = await verifyFanout(database, rootId, leaves);
  return fanoutResultOf({
    leaves,
    seconds: (ended - started) / 1000,
    splitSeconds: (splitDoneAt - started) / 1000,
    ...(lastButOneBatchAt === undefined
      ? {}
      : {
          tailSeconds: (ended - lastButOneBatchAt) / 1000,
          tailParts: {
            lastLeafSeconds: (lastLeafAt - lastButOneBatchAt) / 1000,
            aggregatedSeconds: (aggregatedAt - lastButOneBatchAt) / 1000,
          },
        }),
    cpu: cpuSplit,
    ...verified,
  });
}

/** A migrated scratch database on the server of `serverUrl`, this process's pool of `pool` on it. */
export async function openFanoutDatabase(
  serverUrl: string,
  pool: number,
): Promise<Awaited<ReturnType<typeof openScratchDatabase>>> {
  const scratch = await openScratchDatabase(serverUrl, 'fw_fanout', pool);
  try {
    await migrateDatabase(scratch.database, fwMigrations());
  } catch (err) {
    await scratch.drop();
    throw err;
  }
  return scratch;
}

/** How {@link fanoutBenchOn} runs besides its size. */
export interface FanoutRunSettings {
  /** Worker OS processes (default 0: everything in this process). */
  workers?: number;
  /**
   * Metrics and tracing on, as a worker host with both turned on (single-process mode only): the
   * spans go to `OTEL_EXPORTER_OTLP_ENDPOINT`; `onMetricsServed` gets the URL to scrape.
   */
  telemetry?: { onMetricsServed(url: string): void };
  /**
   * Leaves of a fan-out run first on the same database, with the same telemetry, and not measured
   * (single-process mode only; default 0). A worker host runs for months: this measures it with
   * its code already compiled by V8, as it runs after its first minutes.
   */
  warmupLeaves?: number;
}

/** Runs the benchmark on a scratch database of `serverUrl`, in this process or across `workers` processes. */
export async function fanoutBenchOn(
  serverUrl: string,
  leaves: number,
  io: BenchIo,
  settings: FanoutRunSettings = {},
): Promise<FanoutResult> {
  process.env.FW_LOG_LEVEL ??= 'error';
  const workers = settings.workers ?? 0;
  if (settings.telemetry && workers > 0)
    throw new Error('fanout: telemetry is measured in the single-process mode (--workers 0)');
  const warmupLeaves = settings.warmupLeaves ?? 0;
  if (warmupLeaves > 0 && workers > 0)
    throw new Error('fanout: a warm-up runs in the single-process mode (--workers 0)');
  const tuning = fanoutTuningFromEnv(workers);
  const scratch = await openFanoutDatabase(serverUrl, workers === 0 ? tuning.pool : COORDINATOR_POOL);
  const telemetry = settings.telemetry ? await startFanoutTelemetry(scratch.database) : undefined;
  try {
    io.out(`fanout: ${leaves} leaves through the outbox and the JDBC work-item queue (PostgreSQL)`);
    io.out(
      `  batch=${tuning.batch} lanes=${tuning.lanes} pool=${tuning.pool} batching=${tuning.batching} leaf_cpu_ms=${tuning.leafCpuMillis}`,
    );
    let r: FanoutResult;
    if (telemetry) {
      io.out(
        `  telemetry on: metrics ${telemetry.metricsUrl ? `at ${telemetry.metricsUrl}` : 'off'}, spans ${telemetry.tracesUrl ? `to ${telemetry.tracesUrl}` : 'off'}`,
      );
      if (telemetry.metricsUrl) settings.telemetry?.onMetricsServed(telemetry.metricsUrl);
    }
    if (workers === 0) {
      if (warmupLeaves > 0) {
        const warm = await runFanout(scratch.database, warmupLeaves, () => undefined, tuning, telemetry?.metrics);
        // A checkpoint falls due after some hundreds of MB of WAL (a run of 100,000 leaves writes
        // about 400): taken here, none falls inside the measured run, in every run alike, rather
        // than in some runs and not others after however much WAL their warm-up left.
        await withClient(scratch.url, (client) => client.query('checkpoint'));
        io.out(
          `  warm-up: ${warmupLeaves} leaves in ${warm.seconds.toFixed(2)} s before the measured run (not counted), then a checkpoint`,
        );
      }
      const cost = await startLeafCost(scratch.url);
      r = await runFanout(scratch.database, leaves, (line) => io.out(line), tuning, telemetry?.metrics);
      await telemetry?.stop();
      // Closing the pool makes its backends report their last figures as they exit.
      await scratch.database.close();
      r = { ...r, leafCost: await cost.stop(leaves) };
      for (const line of formatLeafCost(r.leafCost!)) io.out(line);
    } else {
      io.out(
        `  workers=${workers}: each worker process runs manager + outbox dispatcher + work-item runner with its own pool of ${tuning.pool}; this process (pool ${COORDINATOR_POOL}) creates the root and polls its state`,
      );
      const across = await runFanoutAcrossWorkers(scratch, leaves, workers, (line) => io.out(line), tuning);
      io.out(`  work items per worker: ${across.itemsPerWorker.join(' / ')}`);
      r = across;
    }
    io.out(
      `  root ${r.rootState} in ${r.seconds.toFixed(2)} s (split done after ${r.splitSeconds.toFixed(2)} s); ${r.outboxCommands} outbox commands`,
    );
    if (r.tailSeconds !== undefined)
      io.out(
        `  tail: ${r.tailSeconds.toFixed(2)} s from the end of the last-but-one batch of ${tuning.batch} leaves to the root's PROCESSED` +
          (r.tailParts
            ? ` (last leaf's step ended at ${r.tailParts.lastLeafSeconds.toFixed(2)} s, the aggregator's at ${r.tailParts.aggregatedSeconds.toFixed(2)} s)`
            : ''),
      );
    io.out(
      `  elapsed_s=${r.seconds.toFixed(3)} transitions_per_s=${r.transitionsPerSecond.toFixed(0)} peak_rss_mb=${(process.resourceUsage().maxRSS / 1024).toFixed(0)}`,
    );
    io.out(`leaves_per_s=${r.leavesPerSecond.toFixed(0)}`);
    return r;
  } finally {
    await telemetry?.stop();
    await scratch.drop();
  }
}

/** One run with metrics and tracing on, exported to and scraped by a collector in this process. */
async function fanoutWithTelemetry(serverUrl: string, leaves: number, io: BenchIo): Promise<void> {
  const collector = await startTelemetryCollector();
  const sampler = benchSamplerEnv();
  Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, ...sampler });
  io.out(`  tracing with sampler ${describeSampler(sampler)}, metrics scraped every second`);
  try {
    await fanoutBenchOn(serverUrl, leaves, io, { telemetry: { onMetricsServed: (url) => collector.scrape(url) } });
  } finally {
    const got = await collector.stop();
    io.out(
      `  telemetry: ${got.exports} OTLP exports (${(got.exportedBytes / 1024 / 1024).toFixed(1)} MB), ${got.scrapes} scrapes of /metrics`,
    );
  }
}

/** The `fanout` runner of `npm run bench` (`--leaves`, default 10000; `--workers`, default 0; `--telemetry`; `--database-url`). */
export const fanoutBench: BenchRunner = {
  description:
    'durable fan-out of N leaves (--leaves N, default 10000; --workers K worker processes, default 0; --telemetry: metrics scraped and spans exported): outbox + JDBC work items on PostgreSQL; last line leaves_per_s=',
  async run(options: BenchOptions, io: BenchIo): Promise<void> {
    const serverUrl = process.env.FW_BENCH_DATABASE_URL || options.databaseUrl;
    const leaves = options.leaves ?? 10_000;
    if (options.telemetry) await fanoutWithTelemetry(serverUrl, leaves, io);
    else await fanoutBenchOn(serverUrl, leaves, io, { workers: options.workers ?? 0 });
  },
};
