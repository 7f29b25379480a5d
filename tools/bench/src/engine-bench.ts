/**
 * `npm run bench -- engine [--rows 10000]` (registered in bench-registry.ts; `--rows` is the number
 * of leaves there, since the shared argument parser knows no `--leaves`), or standalone with every
 * option: `npx tsx tools/bench/src/engine-bench.ts [--leaves 10000] [--concurrency 4] [--batch 1000]
 * [--targets pglite,postgres]`.
 *
 * Runs one in-VM fan-out (root splitter → N leaf executors → aggregator) with the real process
 * manager, the in-VM starter and the batch service of `@fw/process-utils`, on PGlite (in memory)
 * and on PostgreSQL (FW_BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test: a
 * scratch database is created, migrated and dropped). Prints, per target, the phases and
 * - state transitions per second: flow entries of new processes + events applied by workers +
 *   child reports applied to the parent, divided by the wall time;
 * - processes per second: processes that reached a terminal state, divided by the wall time.
 */
import { createDatabase, migrateDatabase, type Database } from '@fw/core';
import { fwMigrations } from '@fw/migrate';
import { makeInVmProcessStarter } from '@fw/invm-process-starter';
import { makeJsonProcessConfigurator, makeProcessManager, processDb } from '@fw/process-service';
import {
  AggregatorBase,
  ExecutorBase,
  makeBatchService,
  makeManagerEventSink,
  SplitterBase,
  type ChildResult,
  type ChildSpec,
  type WorkerOutcome,
} from '@fw/process-utils';
import { openScratchDatabase } from './scratch/scratch-database';

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432/test';

export interface EngineBenchOptions {
  leaves: number;
  concurrency: number;
  batch: number;
  targets: Array<'pglite' | 'postgres'>;
}

export interface EngineBenchResult {
  target: string;
  leaves: number;
  seconds: number;
  splitSeconds: number;
  leavesSeconds: number;
  transitions: number;
  processes: number;
  transitionsPerSecond: number;
  processesPerSecond: number;
  rootState: string;
}

class FanOut extends SplitterBase<{ leaves: number }, { i: number }> {
  readonly processType = 'bench-root';
  constructor(override readonly batchSize: number) {
    super();
  }
  split(input: { leaves: number }): ChildSpec<{ i: number }>[] {
    return Array.from({ length: input.leaves }, (_, i) => ({ processType: 'bench-leaf', args: { i } }));
  }
}

class Leaf extends ExecutorBase<{ i: number }, number> {
  readonly processType = 'bench-leaf';
  execute(input: { i: number }): number {
    return input.i;
  }
}

class Sum extends AggregatorBase<unknown, number, { sum: number; children: number }> {
  readonly processType = 'bench-root';
  aggregate(_input: unknown, children: ChildResult<number>[]): { sum: number; children: number } {
    return { sum: children.reduce((s, c) => s + (c.output ?? 0), 0), children: children.length };
  }
}

export function parseEngineBenchArgs(argv: readonly string[]): EngineBenchOptions {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  };
  const int = (name: string, fallback: number): number => {
    const raw = value(name);
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer (got ${raw})`);
    return n;
  };
  const targets = (value('targets') ?? 'pglite,postgres').split(',').map((t) => t.trim());
  for (const t of targets)
    if (t !== 'pglite' && t !== 'postgres') throw new Error(`--targets: unknown target '${t}' (pglite, postgres)`);
  return {
    leaves: int('leaves', 10000),
    concurrency: int('concurrency', 4),
    batch: int('batch', 1000),
    targets: targets as EngineBenchOptions['targets'],
  };
}

/** Runs the fan-out once on an open, migrated database. */
export async function runFanOut(
  target: string,
  database: Database,
  options: EngineBenchOptions,
): Promise<EngineBenchResult> {
  const outcomes: WorkerOutcome[] = [];
  let splitDoneAt = 0;
  let aggregatorAt = 0;
  const starter = makeInVmProcessStarter({
    concurrency: options.concurrency,
    onDispatched: (worker, outcome) => {
      outcomes.push(outcome as WorkerOutcome);
      if (worker.workerType === 'SPLITTER') splitDoneAt = performance.now();
    },
  });
  const manager = makeProcessManager({
    db: processDb(database),
    configurator: makeJsonProcessConfigurator({
      definitions: [
        { processType: 'bench-root', leaf: false },
        { processType: 'bench-leaf', leaf: true, parentProcessType: 'bench-root' },
      ],
    }),
    workerStarter: {
      startWorker(worker, ctx) {
        if (worker.workerType === 'AGGREGATOR') ctx.afterCommit(() => void (aggregatorAt = performance.now()));
        return starter.startWorker(worker, ctx);
      },
    },
  });
  starter.bind(
    makeBatchService({
      workers: [new FanOut(options.batch), new Leaf(), new Sum()],
      sink: makeManagerEventSink(manager),
    }),
  );

  const started = performance.now();
  const root = (
    await manager.createProcess({ processDefName: 'bench-root', args: { leaves: options.leaves } }, { tenant: 'bench' })
  ).mutatedEntity;
  await starter.idle();
  const ended = performance.now();
  const done = (await manager.getProcess(root.id, { tenant: 'bench' })).mutatedEntity;

  const failed = outcomes.filter((o) => o.status !== 'succeeded');
  if (failed.length > 0)
    throw new Error(`${failed.length} workers did not succeed, first: ${JSON.stringify(failed[0])}`);
  const workerEvents = outcomes.reduce((n, o) => n + o.events.length, 0);
  const processes = done.numCompletedSubProcesses + (done.state.stateId === 'PROCESSED' ? 1 : 0);
  const transitions = options.leaves + 1 + workerEvents + done.numCompletedSubProcesses;
  const seconds = (ended - started) / 1000;
  return {
    target,
    leaves: options.leaves,
    seconds,
    splitSeconds: (splitDoneAt - started) / 1000,
    leavesSeconds: ((aggregatorAt || ended) - splitDoneAt) / 1000,
    transitions,
    processes,
    transitionsPerSecond: transitions / seconds,
    processesPerSecond: processes / seconds,
    rootState: done.state.stateId,
  };
}

async function onTarget(
  target: 'pglite' | 'postgres',
  options: EngineBenchOptions,
  serverUrl: string,
): Promise<EngineBenchResult> {
  const migrations = fwMigrations();
  if (target === 'pglite') {
    const database = createDatabase({ url: 'pglite:memory:' });
    try {
      await migrateDatabase(database, migrations);
      return await runFanOut(target, database, options);
    } finally {
      await database.close();
    }
  }
  const scratch = await openScratchDatabase(serverUrl, 'fw_bench', 10);
  try {
    await migrateDatabase(scratch.database, migrations);
    return await runFanOut(target, scratch.database, options);
  } finally {
    await scratch.drop();
  }
}

function format(r: EngineBenchResult): string {
  const f = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  return [
    `engine [${r.target}] fan-out of ${f(r.leaves)} leaves: root ${r.rootState} in ${f(r.seconds, 2)} s (split ${f(r.splitSeconds, 2)} s, leaves ${f(r.leavesSeconds, 2)} s)`,
    `  state transitions/s: ${f(r.transitionsPerSecond)}  (${f(r.transitions)} transitions)`,
    `  processes/s:         ${f(r.processesPerSecond)}  (${f(r.processes)} processes completed)`,
  ].join('\n');
}

/** Runs the bench on each target of `options`, printing one block per target. */
export async function runEngineBench(
  options: EngineBenchOptions,
  serverUrl: string,
  print: (line: string) => void,
): Promise<EngineBenchResult[]> {
  process.env.FW_LOG_LEVEL ??= 'error';
  const results: EngineBenchResult[] = [];
  for (const target of options.targets) {
    const result = await onTarget(target, options, serverUrl);
    print(format(result));
    results.push(result);
  }
  return results;
}

/** Standalone entry: parses `argv` (`--leaves`, `--concurrency`, `--batch`, `--targets`). */
export function engineBench(
  argv: readonly string[],
  print: (line: string) => void = (l) => console.log(l),
): Promise<EngineBenchResult[]> {
  return runEngineBench(parseEngineBenchArgs(argv), process.env.FW_BENCH_DATABASE_URL || DEFAULT_SERVER, print);
}

/**
 * The `engine` runner of `npm run bench` (a `BenchRunner` of this package): `rows` is the number
 * of leaves; the server is FW_BENCH_DATABASE_URL, else `--database-url` (default the local test server).
 */
export const engineBenchRunner = {
  description:
    'in-VM fan-out of N leaves (--rows N, default 10000) on PGlite and PostgreSQL: state transitions/s, processes/s',
  async run(options: { rows: number; databaseUrl: string }, io: { out(line: string): void }): Promise<void> {
    const engineOptions: EngineBenchOptions = {
      leaves: options.rows,
      concurrency: 4,
      batch: 1000,
      targets: ['pglite', 'postgres'],
    };
    await runEngineBench(engineOptions, process.env.FW_BENCH_DATABASE_URL || options.databaseUrl, (line) =>
      io.out(line),
    );
  },
};

if (require.main === module) {
  engineBench(process.argv.slice(2)).catch((err: unknown) => {
    console.error(`engine bench failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });
}
