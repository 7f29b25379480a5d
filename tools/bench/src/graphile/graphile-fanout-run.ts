/**
 * One graphile-worker fan-out on a database that already has graphile-worker's schema: a `split`
 * job adds N `leaf` jobs in one `addJobs` batch, the N leaves run, and one `aggregate` job is added
 * once all leaves have succeeded. Timed from just before the `split` job is added until the
 * `aggregate` task has run.
 *
 * Two ways of noticing that all leaves are done (the "fan-in"):
 * - `bare`: leaves do nothing; this process counts graphile-worker's `job:success` events and adds
 *   the aggregate job at N (no database work for the fan-in at all: graphile's best case).
 * - `counted`: each leaf increments a counter row in the database and the leaf that brings it to
 *   its target adds the aggregate job (a durable fan-in, like the process engine's).
 */
import {
  Logger,
  run,
  type Job,
  type JobHelpers,
  type Runner,
  type RunnerOptions,
  type TaskList,
} from 'graphile-worker';
import type pg from 'pg';
import { formatCpuSplit, startCpuSplit, type CpuSplit } from '../cpu/cpu-split';
import type { GraphileTuning } from './graphile-tuning';

/** How completion of all leaves is detected (see the top of this file). */
export type GraphileFanIn = 'bare' | 'counted';

/** What one fan-out did and how long it took. */
export interface GraphileFanoutResult {
  fanIn: GraphileFanIn;
  leaves: number;
  /** Times the `leaf` task ran (N unless a leaf was retried). */
  leafRuns: number;
  /** Times the `aggregate` task ran (1). */
  aggregateRuns: number;
  /** The fan-in counter row after the run (`counted`); null for `bare`. */
  counter: number | null;
  /** Jobs still in graphile-worker's queue after the runner stopped (0: all completed). */
  jobsLeft: number;
  /** From adding `split` to the end of the `aggregate` task. */
  seconds: number;
  /** From adding `split` until its `addJobs` of the N leaves returned. */
  splitSeconds: number;
  /** Leaf jobs per second over `seconds` (the same measure as the fanout bench's leaves/s). */
  leavesPerSecond: number;
  /** CPU of this process and of the rest of the machine over `seconds`. */
  cpu: CpuSplit;
}

const FAN_IN_TABLE = 'bench_fan_in';

/** graphile-worker's logger with every line dropped, so that only the bench prints. */
export const SILENT_LOGGER = new Logger(() => () => undefined);

/** Counts task runs and settles when the aggregate task has run (or a job has failed). */
class FanoutProbe {
  leafRuns = 0;
  aggregateRuns = 0;
  splitDoneAt = 0;
  aggregateDoneAt = 0;
  readonly finished: Promise<void>;
  private settle: { resolve(): void; reject(error: unknown): void } = {
    resolve: () => undefined,
    reject: () => undefined,
  };

  constructor() {
    this.finished = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
    // A failure may come before anyone awaits `finished`; that must not be an unhandled rejection.
    this.finished.catch(() => undefined);
  }

  aggregateRan(): void {
    this.aggregateRuns++;
    this.aggregateDoneAt = performance.now();
    this.settle.resolve();
  }

  fail(error: unknown): void {
    this.settle.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** `update … returning` of the durable fan-in: the count after this leaf, and the target. */
async function countLeaf(helpers: JobHelpers): Promise<{ done: number; target: number }> {
  const { rows } = await helpers.query<{ done: number; target: number }>(
    `update ${FAN_IN_TABLE} set done = done + 1 where id = 1 returning done, target`,
  );
  if (rows.length !== 1) throw new Error(`${FAN_IN_TABLE} has no counter row`);
  return rows[0];
}

function taskList(fanIn: GraphileFanIn, leaves: number, probe: FanoutProbe): TaskList {
  const leafSpecs = Array.from({ length: leaves }, () => ({ identifier: 'leaf', payload: {} }));
  return {
    split: async (_payload: unknown, helpers: JobHelpers) => {
      await helpers.addJobs(leafSpecs);
      probe.splitDoneAt = performance.now();
    },
    leaf:
      fanIn === 'bare'
        ? () => void probe.leafRuns++
        : async (_payload: unknown, helpers: JobHelpers) => {
            probe.leafRuns++;
            const { done, target } = await countLeaf(helpers);
            if (done === target) await helpers.addJob('aggregate', {});
          },
    aggregate: () => probe.aggregateRan(),
  };
}

function runnerOptions(pgPool: pg.Pool, tuning: GraphileTuning, tasks: TaskList): RunnerOptions {
  return {
    pgPool,
    taskList: tasks,
    concurrency: tuning.concurrency,
    pollInterval: tuning.pollIntervalMillis,
    noHandleSignals: true,
    logger: SILENT_LOGGER,
    preset: {
      worker: {
        localQueue: { size: tuning.localQueueSize },
        completeJobBatchDelay: tuning.completionBatchDelayMillis,
        failJobBatchDelay: tuning.completionBatchDelayMillis,
      },
    },
  };
}

/** `bare` fan-in: adds the aggregate job when the N-th `leaf` reports `job:success`. */
function addAggregateOnLastLeafSuccess(runner: Runner, leaves: number, probe: FanoutProbe): void {
  let succeeded = 0;
  runner.events.on('job:success', ({ job }: { job: Job }) => {
    if (job.task_identifier === 'leaf' && ++succeeded === leaves)
      runner.addJob('aggregate', {}).catch((error: unknown) => probe.fail(error));
  });
}

/** Any failed job or a failing worker pool ends the run with that error instead of waiting forever. */
function failOnErrors(runner: Runner, probe: FanoutProbe): void {
  runner.events.on('job:error', ({ job, error }) =>
    probe.fail(new Error(`graphile job ${job.task_identifier} failed: ${String(error)}`)),
  );
  runner.events.on('worker:fatalError', ({ error }) => probe.fail(error));
  runner.promise.catch((error: unknown) => probe.fail(error));
}

async function resetFanInCounter(pgPool: pg.Pool, leaves: number): Promise<void> {
  await pgPool.query(
    `create table if not exists ${FAN_IN_TABLE} (id integer primary key, done integer not null, target integer not null)`,
  );
  await pgPool.query(
    `insert into ${FAN_IN_TABLE} (id, done, target) values (1, 0, $1) on conflict (id) do update set done = 0, target = $1`,
    [leaves],
  );
}

async function readCount(pgPool: pg.Pool, sqlText: string): Promise<number> {
  const { rows } = await pgPool.query<{ n: string }>(sqlText);
  return Number(rows[0]?.n ?? 0);
}

/** Prints how many leaves have run every 2 s while `finished` is pending. */
function printProgress(probe: FanoutProbe, started: number, print: (line: string) => void): NodeJS.Timeout {
  return setInterval(() => {
    const seconds = (performance.now() - started) / 1000;
    print(
      `  ${seconds.toFixed(1)} s: ${probe.leafRuns} leaves run (${(probe.leafRuns / seconds).toFixed(0)} leaves/s)`,
    );
  }, 2000);
}

/**
 * Runs one fan-out of `leaves` with graphile-worker on `pgPool` (graphile-worker's schema must be
 * installed) and stops the runner before returning; the pool stays open.
 */
export async function runGraphileFanout(
  pgPool: pg.Pool,
  fanIn: GraphileFanIn,
  leaves: number,
  tuning: GraphileTuning,
  print: (line: string) => void = () => undefined,
): Promise<GraphileFanoutResult> {
  if (fanIn === 'counted') await resetFanInCounter(pgPool, leaves);
  const probe = new FanoutProbe();
  const runner = await run(runnerOptions(pgPool, tuning, taskList(fanIn, leaves, probe)));
  let started: number;
  let progress: NodeJS.Timeout | undefined;
  let cpu: CpuSplit;
  try {
    failOnErrors(runner, probe);
    if (fanIn === 'bare') addAggregateOnLastLeafSuccess(runner, leaves, probe);
    started = performance.now();
    const split = startCpuSplit();
    progress = printProgress(probe, started, print);
    await runner.addJob('split', {});
    await probe.finished;
    cpu = split.stop();
    print(`  ${formatCpuSplit(cpu)}`);
  } finally {
    clearInterval(progress);
    await runner.stop();
  }
  const seconds = (probe.aggregateDoneAt - started) / 1000;
  return {
    fanIn,
    leaves,
    leafRuns: probe.leafRuns,
    aggregateRuns: probe.aggregateRuns,
    counter: fanIn === 'counted' ? await readCount(pgPool, `select done as n from ${FAN_IN_TABLE} where id = 1`) : null,
    jobsLeft: await readCount(pgPool, 'select count(*) as n from graphile_worker.jobs'),
    seconds,
    splitSeconds: (probe.splitDoneAt - started) / 1000,
    leavesPerSecond: leaves / seconds,
    cpu,
  };
}
