/**
 * `npm run bench -- fanout --leaves N [--database-url URL]`: one root process that splits into N
 * leaf children, with full process semantics and durable delivery on PostgreSQL: the process
 * manager with the transactional outbox (`@fw/process-outbox`), the JDBC work-item queue
 * (`@fw/jdbc-process-starter`) and the batch service of `@fw/process-utils` (splitter, no-op
 * executors, aggregator), all runners and dispatchers in this one process. A scratch database is
 * created on the server of `--database-url` (or FW_BENCH_DATABASE_URL), migrated and dropped.
 *
 * Prints the phases, leaves/s and transitions/s, and on its LAST line `leaves_per_s=<number>`.
 */
import { migrateDatabase, readMigrationFolder, type Database } from '@fw/core';
import { makeSinkFailureReporter, makeWorkItemRunner, makeWorkItemStarter } from '@fw/jdbc-process-starter';
import { makeJsonProcessConfigurator, makeProcessManager, processDb } from '@fw/process-service';
import { AggregatorBase, ExecutorBase, makeBatchService, makeBatchingEventSink, makeManagerEventSink, SplitterBase, type ChildResult, type ChildSpec } from '@fw/process-utils';
import { sql } from 'kysely';
import * as path from 'node:path';
import { openScratchDatabase } from './scratch/scratch-database';
import type { BenchIo, BenchOptions, BenchRunner } from './bench-types';

const MIGRATIONS_DIR = path.resolve(__dirname, '../../../migrations');

/**
 * Tuning of one run (environment `FW_FANOUT_BATCH`, `FW_FANOUT_LANES`, `FW_FANOUT_POOL`,
 * `FW_FANOUT_BATCHING=0` for the one-transaction-per-event sink).
 */
export interface FanoutTuning {
  /** Work items claimed per statement and events per `sendEvents` transaction (default 256). */
  batch: number;
  /** Batches in flight in the runner (runner concurrency = batch × lanes; default 2). */
  lanes: number;
  /** Database pool size (default 24). */
  pool: number;
  /** Deliver events through `makeBatchingEventSink` (default true). */
  batching: boolean;
}

function envInt(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export function fanoutTuningFromEnv(): FanoutTuning {
  return { batch: envInt('FW_FANOUT_BATCH', 256), lanes: envInt('FW_FANOUT_LANES', 2), pool: envInt('FW_FANOUT_POOL', 24), batching: process.env.FW_FANOUT_BATCHING !== '0' };
}

export interface FanoutResult {
  leaves: number;
  seconds: number;
  splitSeconds: number;
  leavesPerSecond: number;
  transitionsPerSecond: number;
  rootState: string;
  outboxCommands: number;
}

class Split extends SplitterBase<{ leaves: number }, null> {
  readonly processType = 'fanout-root';
  override readonly batchSize = 1000;
  split(input: { leaves: number }): ChildSpec<null>[] {
    return Array.from({ length: input.leaves }, () => ({ processType: 'fanout-leaf', args: null }));
  }
}

class NoOp extends ExecutorBase<unknown, null> {
  readonly processType = 'fanout-leaf';
  execute(): null {
    return null;
  }
}

class Count extends AggregatorBase<unknown, null, { children: number }> {
  readonly processType = 'fanout-root';
  aggregate(_input: unknown, children: ChildResult<null>[]): { children: number } {
    return { children: children.length };
  }
}

/** Runs one fan-out of `leaves` on a migrated database and measures it. */
export async function runFanout(database: Database, leaves: number, print: (line: string) => void, tuning: FanoutTuning = fanoutTuningFromEnv()): Promise<FanoutResult> {
  const starter = makeWorkItemStarter();
  let rootDone: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (rootDone = resolve));
  let splitDoneAt = 0;
  const manager = makeProcessManager({
    db: processDb(database),
    configurator: makeJsonProcessConfigurator({ definitions: [{ processType: 'fanout-root', leaf: false }, { processType: 'fanout-leaf', leaf: true, parentProcessType: 'fanout-root' }] }),
    workerStarter: starter,
    outbox: { enabled: true, pollIntervalMillis: 200, batchSize: 1000, concurrency: 2 },
    onProcessCompleted: (event) => {
      if (event.processType === 'fanout-root') rootDone();
    },
  });
  const sink = tuning.batching ? makeBatchingEventSink(manager, { maxBatch: tuning.batch, concurrency: tuning.lanes }) : makeManagerEventSink(manager);
  const batchService = makeBatchService({ workers: [new Split(), new NoOp(), new Count()], sink });
  const runner = makeWorkItemRunner({
    database,
    batchService: {
      run: async (message) => {
        const outcome = await batchService.run(message);
        if (outcome.workerType === 'SPLITTER') splitDoneAt = performance.now();
        return outcome;
      },
    },
    onDead: makeSinkFailureReporter(sink),
    concurrency: tuning.batch * tuning.lanes,
    batchSize: tuning.batch,
    minClaim: tuning.batch,
    pollIntervalMillis: 200,
  });
  // Coalesced wake-ups: one claim for the items of many commits.
  let wakeTimer: NodeJS.Timeout | undefined;
  starter.onEnqueued(() => {
    wakeTimer ??= setTimeout(() => {
      wakeTimer = undefined;
      runner.wake();
    }, 5);
  });
  runner.start();

  const started = performance.now();
  const root = (await manager.createProcess({ processDefName: 'fanout-root', args: { leaves } }, { tenant: 'bench' })).mutatedEntity;
  const progress = setInterval(() => {
    void sql<{ n: string }>`select count(*) as n from fw_process where parent_id = ${root.id} and state_id = 'PROCESSED'`
      .execute(database.db)
      .then(({ rows }) => {
        const seconds = (performance.now() - started) / 1000;
        print(`  ${seconds.toFixed(1)} s: ${rows[0].n} leaves done (${(Number(rows[0].n) / seconds).toFixed(0)} leaves/s)`);
      }, () => undefined);
  }, 2000);
  await finished;
  const ended = performance.now();
  clearInterval(progress);
  await runner.stop({ timeoutMillis: 5000 });
  await manager.close();

  const done = (await manager.getProcess(root.id, { tenant: 'bench' })).mutatedEntity;
  if (done.numCompletedSubProcesses !== leaves) throw new Error(`root counted ${done.numCompletedSubProcesses} of ${leaves} leaves`);
  const { rows } = await sql<{ n: string }>`select count(*) as n from fw_process_outbox`.execute(database.db);
  const seconds = (ended - started) / 1000;
  // Leaves: create → EXECUTING → PROCESSED; root: SPLIT_PENDING, one per split batch, one per child
  // report, AGGREGATION_PENDING, PROCESSED.
  const transitions = 2 * leaves + 1 + Math.ceil(leaves / 1000) + leaves + 2;
  return {
    leaves,
    seconds,
    splitSeconds: (splitDoneAt - started) / 1000,
    leavesPerSecond: leaves / seconds,
    transitionsPerSecond: transitions / seconds,
    rootState: done.state.stateId,
    outboxCommands: Number(rows[0].n),
  };
}

/** Runs the benchmark on a scratch database of `serverUrl`. */
export async function fanoutBenchOn(serverUrl: string, leaves: number, io: BenchIo): Promise<FanoutResult> {
  process.env.FW_LOG_LEVEL ??= 'error';
  const tuning = fanoutTuningFromEnv();
  const scratch = await openScratchDatabase(serverUrl, 'fw_fanout', tuning.pool);
  try {
    await migrateDatabase(scratch.database, readMigrationFolder(MIGRATIONS_DIR));
    io.out(`fanout: ${leaves} leaves through the outbox and the JDBC work-item queue (PostgreSQL)`);
    io.out(`  batch=${tuning.batch} lanes=${tuning.lanes} pool=${tuning.pool} batching=${tuning.batching}`);
    const r = await runFanout(scratch.database, leaves, (line) => io.out(line), tuning);
    io.out(`  root ${r.rootState} in ${r.seconds.toFixed(2)} s (split done after ${r.splitSeconds.toFixed(2)} s); ${r.outboxCommands} outbox commands`);
    io.out(`  elapsed_s=${r.seconds.toFixed(3)} transitions_per_s=${r.transitionsPerSecond.toFixed(0)}`);
    io.out(`leaves_per_s=${r.leavesPerSecond.toFixed(0)}`);
    return r;
  } finally {
    await scratch.drop();
  }
}

/** The `fanout` runner of `npm run bench` (`--leaves`, default 10000; `--database-url`). */
export const fanoutBench: BenchRunner = {
  description: 'durable fan-out of N leaves (--leaves N, default 10000): outbox + JDBC work items on PostgreSQL; last line leaves_per_s=',
  async run(options: BenchOptions, io: BenchIo): Promise<void> {
    await fanoutBenchOn(process.env.FW_BENCH_DATABASE_URL || options.databaseUrl, options.leaves ?? 10_000, io);
  },
};
