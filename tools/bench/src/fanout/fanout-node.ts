/**
 * One node of the fan-out benchmark: what a host runs to carry leaves — the process manager with
 * the transactional outbox and its dispatcher, the JDBC work-item runner and the batch service with
 * the benchmark's workers (split into N leaves, no-op leaves, count the children). Used by the
 * single-process mode (one node in the bench process) and by each worker OS process of
 * `--workers K`, so both modes run exactly the same stack.
 *
 * @example
 * const node = startFanoutNode(database, fanoutTuningFromEnv(0));
 * const rootId = await createFanoutRoot(node.manager, 10_000);
 * // … wait for the root, then:
 * await node.stop();
 */
import type { Database } from '@fw/core';
import {
  makeSinkFailureReporter,
  makeWorkItemRunner,
  makeWorkItemStarter,
  type WorkItemStarter,
} from '@fw/jdbc-process-starter';
import { makeJsonProcessConfigurator, makeProcessManager, processDb, type ProcessManager } from '@fw/process-service';
import {
  ExecutorBase,
  makeBatchService,
  makeBatchingEventSink,
  makeManagerEventSink,
  ReducingAggregatorBase,
  SplitterBase,
  type ChildSpec,
  type WorkerOutcome,
} from '@fw/process-utils';
import type { FwMetrics } from '@fw/telemetry';

/** Process type of the root that splits. */
export const FANOUT_ROOT_TYPE = 'fanout-root';
/** Process type of the leaves. */
export const FANOUT_LEAF_TYPE = 'fanout-leaf';
/** Children per `splitPartiallyDone` event of the splitter. */
export const FANOUT_SPLIT_BATCH = 1000;
/** Tenant of every fan-out process. */
export const FANOUT_TENANT = 'bench';

/**
 * Tuning of one run (environment `FW_FANOUT_BATCH`, `FW_FANOUT_LANES`, `FW_FANOUT_POOL`,
 * `FW_FANOUT_BATCHING=0` for the one-transaction-per-event sink, `FW_FANOUT_LEAF_CPU_MS`). With worker processes every value
 * applies to each worker process.
 */
export interface FanoutTuning {
  /**
   * Work items claimed per statement and events per `sendEvents` transaction (default 1024: each
   * batch pays its statements, its commit and the root's lock once, so larger batches spread them
   * over more leaves; at 100,000 leaves 1024 ran 8–10 % faster than 512 with 7 % less CPU on both
   * sides, 2048 no faster and 60 MB larger).
   */
  batch: number;
  /**
   * Batches in flight in the runner and `sendEvents` transactions at once (runner concurrency =
   * batch × lanes; default 4: while one batch holds the root's lock for its count and commit, the
   * others run their own statements; 3 or 6 were no faster).
   */
  lanes: number;
  /** Database pool size of one node (default 24, or 12 per worker process with 2 or more). */
  pool: number;
  /** Deliver events through `makeBatchingEventSink` (default true). */
  batching: boolean;
  /**
   * CPU each leaf's executor burns, in milliseconds (default 0: no-op leaves). With real work per
   * leaf the worker processes' own CPU dominates, which is what extra worker processes are for.
   */
  leafCpuMillis: number;
  /** Fair claims of the work-item runner (default true; `FW_FANOUT_FAIR=0`: the former oldest-first claim). */
  fair: boolean;
}

function envNonNegative(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return process.env[name] !== undefined && Number.isFinite(n) && n >= 0 ? n : fallback;
}

function envInt(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/**
 * The tuning from the environment. The default pool is halved from two worker processes on: each
 * node needs about as many connections as it has transactions in flight, and K × 24 would crowd
 * PostgreSQL's 100 connections without adding any.
 */
export function fanoutTuningFromEnv(workerProcesses = 0): FanoutTuning {
  return {
    batch: envInt('FW_FANOUT_BATCH', 1024),
    lanes: envInt('FW_FANOUT_LANES', 4),
    pool: envInt('FW_FANOUT_POOL', workerProcesses >= 2 ? 12 : 24),
    batching: process.env.FW_FANOUT_BATCHING !== '0',
    leafCpuMillis: envNonNegative('FW_FANOUT_LEAF_CPU_MS', 0),
    fair: process.env.FW_FANOUT_FAIR !== '0',
  };
}

/**
 * Yields the children batch by batch, as a splitter of a million children should: a list of them
 * all would be held in memory until the split is done.
 */
class Split extends SplitterBase<{ leaves: number }, null> {
  readonly processType = FANOUT_ROOT_TYPE;
  override readonly batchSize = FANOUT_SPLIT_BATCH;
  async *split(input: { leaves: number }): AsyncGenerator<ChildSpec<null>[]> {
    for (let from = 0; from < input.leaves; from += FANOUT_SPLIT_BATCH) {
      const size = Math.min(FANOUT_SPLIT_BATCH, input.leaves - from);
      yield Array.from({ length: size }, () => ({ processType: FANOUT_LEAF_TYPE, args: null }));
    }
  }
}

class Leaf extends ExecutorBase<unknown, null> {
  readonly processType = FANOUT_LEAF_TYPE;
  constructor(private readonly cpuMillis: number) {
    super();
  }
  execute(): null {
    // A busy loop, not a timer: it stands for CPU-bound work that holds the worker's event loop.
    const until = performance.now() + this.cpuMillis;
    while (performance.now() < until);
    return null;
  }
}

/** Counts the children page by page: its memory does not grow with the fan-out. */
class Count extends ReducingAggregatorBase<unknown, null, number, { children: number }> {
  readonly processType = FANOUT_ROOT_TYPE;
  initial(): number {
    return 0;
  }
  reduce(children: number): number {
    return children + 1;
  }
  finish(children: number): { children: number } {
    return { children };
  }
}

/**
 * A manager with the fan-out's definitions and the outbox enabled. `runDispatcher: false` makes a
 * manager that only writes (the coordinator of `--workers`, which creates the root and leaves every
 * command to the worker processes' dispatchers).
 */
export function makeFanoutManager(
  database: Database,
  workerStarter: WorkItemStarter,
  outbox: { runDispatcher: boolean },
  metrics?: FwMetrics,
): ProcessManager {
  return makeProcessManager({
    ...(metrics ? { metrics } : {}),
    db: processDb(database),
    configurator: makeJsonProcessConfigurator({
      definitions: [
        { processType: FANOUT_ROOT_TYPE, leaf: false },
        { processType: FANOUT_LEAF_TYPE, leaf: true, parentProcessType: FANOUT_ROOT_TYPE },
      ],
    }),
    workerStarter,
    outbox: {
      enabled: true,
      runDispatcher: outbox.runDispatcher,
      pollIntervalMillis: 200,
      batchSize: 1000,
      concurrency: 2,
    },
  });
}

/** Creates the root of a fan-out into `leaves` children; returns its id. */
export async function createFanoutRoot(manager: ProcessManager, leaves: number): Promise<string> {
  return (
    await manager.createProcess({ processDefName: FANOUT_ROOT_TYPE, args: { leaves } }, { tenant: FANOUT_TENANT })
  ).mutatedEntity.id;
}

/** A running node: manager (dispatcher on), work-item runner and batch service. */
export interface FanoutNode {
  readonly manager: ProcessManager;
  /** Claims work items now rather than at the next poll (another process enqueued some). */
  wake(): void;
  /** Work items this node's runner has completed so far. */
  itemsCompleted(): number;
  /** Stops claiming, waits for running items, then stops the outbox dispatcher. */
  stop(): Promise<void>;
}

export interface FanoutNodeHooks {
  /** Called with the outcome of every work item this node ran (e.g. to time the end of the split). */
  onOutcome?(outcome: WorkerOutcome): void;
  /** Where the manager and the runner record the fw_* series, as in a worker host with metrics on. */
  metrics?: FwMetrics;
}

/** Starts a node on `database` (claiming at once); `stop()` ends it. The pool stays the caller's. */
export function startFanoutNode(database: Database, tuning: FanoutTuning, hooks: FanoutNodeHooks = {}): FanoutNode {
  const starter = makeWorkItemStarter();
  const manager = makeFanoutManager(database, starter, { runDispatcher: true }, hooks.metrics);
  const sink = tuning.batching
    ? makeBatchingEventSink(manager, { maxBatch: tuning.batch, concurrency: tuning.lanes })
    : makeManagerEventSink(manager);
  const batchService = makeBatchService({ workers: [new Split(), new Leaf(tuning.leafCpuMillis), new Count()], sink });
  const runner = makeWorkItemRunner({
    database,
    batchService: {
      run: async (message, attempt) => {
        const outcome = await batchService.run(message, attempt);
        hooks.onOutcome?.(outcome);
        return outcome;
      },
      runMany: async (requests) => {
        const outcomes = await batchService.runMany(requests);
        for (const outcome of outcomes) hooks.onOutcome?.(outcome);
        return outcomes;
      },
    },
    onDead: makeSinkFailureReporter(sink),
    concurrency: tuning.batch * tuning.lanes,
    batchSize: tuning.batch,
    minClaim: tuning.batch,
    pollIntervalMillis: 200,
    fair: tuning.fair,
    ...(hooks.metrics ? { metrics: hooks.metrics } : {}),
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
  return {
    manager,
    wake: () => runner.wake(),
    itemsCompleted: () => runner.stats().completed,
    async stop() {
      clearTimeout(wakeTimer);
      await runner.stop({ timeoutMillis: 5000 });
      await manager.close();
    },
  };
}

/**
 * The environment that makes {@link fanoutTuningFromEnv} return `tuning`: how the coordinator of
 * `--workers` hands its resolved tuning to the worker processes.
 */
export function fanoutTuningEnv(tuning: FanoutTuning): Record<string, string> {
  return {
    FW_FANOUT_BATCH: String(tuning.batch),
    FW_FANOUT_LANES: String(tuning.lanes),
    FW_FANOUT_POOL: String(tuning.pool),
    FW_FANOUT_BATCHING: tuning.batching ? '1' : '0',
    FW_FANOUT_LEAF_CPU_MS: String(tuning.leafCpuMillis),
    FW_FANOUT_FAIR: tuning.fair ? '1' : '0',
  };
}
