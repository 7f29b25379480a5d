/**
 * The pg-boss 12 counterpart of the `fanout` bench: one flow (`boss.flow`) of N `leaf` jobs and one
 * `aggregate` job whose `dependsOn` names all N, inserted in one transaction. The leaves do nothing;
 * pg-boss releases the aggregate once all its dependencies have completed (its flow resolver, every
 * `flowIntervalSeconds`), and the aggregate's handler reads its dependencies (`getDependencies`,
 * paged) — the fan-in. Timed from just before `flow` is called until the aggregate's handler has
 * run, on a scratch database of the given server (pg-boss installs its schema there on `start`),
 * dropped at the end, also when the run fails or runs out of time (its sessions ended first).
 * Besides the rate it measures what each leaf cost PostgreSQL (`startLeafCost`).
 *
 * @example
 * const r = await runPgBossFlow('postgres://postgres@127.0.0.1:5432/test', 2000, pgBossTuningFromEnv(), 600, console.log);
 * r.leavesPerSecond; r.leafCost.transactions;
 */
import type { FlowJob, PgBoss } from 'pg-boss' with { 'resolution-mode': 'import' };
import { formatCpuSplit, startCpuSplit, type CpuSplit } from '../cpu/cpu-split';
import { settleWithin, startDeadline } from '../deadline/run-deadline';
import { formatLeafCost, startLeafCost, type LeafCost } from '../fanout/leaf-cost';
import { createScratchDatabase, type ScratchDatabase } from '../scratch/scratch-database';
import { endSessionsOf, sessionsReported } from '../scratch/scratch-sessions';
import type { PgBossTuning } from './pgboss-tuning';

const LEAF_QUEUE = 'leaf';
const AGGREGATE_QUEUE = 'aggregate';
/** The most dependencies `getDependencies` returns at once. */
const DEPENDENCY_PAGE = 100_000;

export interface PgBossFlowResult {
  leaves: number;
  /** Leaf jobs the leaf handler was given (N unless one was retried). */
  leafRuns: number;
  /** Dependencies the aggregate read (N when the flow held every leaf). */
  dependenciesSeen: number;
  /** From calling `flow` to the end of the aggregate's handler. */
  seconds: number;
  /** From calling `flow` until it returned (the flow committed). */
  splitSeconds: number;
  leavesPerSecond: number;
  cpu: CpuSplit;
  leafCost: LeafCost;
}

interface FlowProbe {
  leafRuns: number;
  dependenciesSeen: number;
  aggregateDoneAt: number;
  finished: Promise<void>;
  done(): void;
  fail(error: unknown): void;
}

function newProbe(): FlowProbe {
  let settle: { resolve(): void; reject(e: unknown): void } = { resolve: () => undefined, reject: () => undefined };
  const finished = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  finished.catch(() => undefined);
  return {
    leafRuns: 0,
    dependenciesSeen: 0,
    aggregateDoneAt: 0,
    finished,
    done: () => settle.resolve(),
    fail: (error) => settle.reject(error instanceof Error ? error : new Error(String(error))),
  };
}

/** Every dependency of job `id` of the aggregate queue, page by page. */
async function countDependencies(boss: PgBoss, id: string): Promise<number> {
  let seen = 0;
  let after: Awaited<ReturnType<PgBoss['getDependencies']>>[number] | undefined;
  for (;;) {
    const page = await boss.getDependencies(AGGREGATE_QUEUE, id, {
      limit: DEPENDENCY_PAGE,
      ...(after ? { after } : {}),
    });
    seen += page.length;
    if (page.length < DEPENDENCY_PAGE) return seen;
    after = page[page.length - 1];
  }
}

/** Starts pg-boss on `url` (installing its schema), creates both queues and starts both workers. */
async function startBoss(url: string, tuning: PgBossTuning, probe: FlowProbe): Promise<PgBoss> {
  // pg-boss 12 is an ES module: loaded by import(), which this CommonJS package keeps as it is.
  const { PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ connectionString: url, max: tuning.pool, flowIntervalSeconds: tuning.flowIntervalSeconds });
  boss.on('error', (error) => probe.fail(error));
  await boss.start();
  await boss.createQueue(LEAF_QUEUE);
  await boss.createQueue(AGGREGATE_QUEUE);
  const pollingIntervalSeconds = tuning.pollingIntervalMillis / 1000;
  const leafOptions = {
    batchSize: tuning.batchSize,
    localConcurrency: tuning.localConcurrency,
    pollingIntervalSeconds,
    burstWhenBatchFull: true,
  };
  await boss.work(LEAF_QUEUE, leafOptions, async (jobs) => void (probe.leafRuns += jobs.length));
  await boss.work(AGGREGATE_QUEUE, { pollingIntervalSeconds }, async ([job]) => {
    probe.dependenciesSeen = await countDependencies(boss, job.id);
    probe.aggregateDoneAt = performance.now();
    probe.done();
  });
  return boss;
}

/** N leaves and the aggregate that depends on all of them. */
function flowJobs(leaves: number): FlowJob[] {
  const jobs: FlowJob[] = Array.from({ length: leaves }, (_, i) => ({ ref: `leaf${i}`, name: LEAF_QUEUE }));
  jobs.push({ ref: 'aggregate', name: AGGREGATE_QUEUE, dependsOn: jobs.map((j) => j.ref) });
  return jobs;
}

/** The timed part of one run: the flow until the aggregate has run. */
async function timedFlow(
  scratch: ScratchDatabase,
  serverUrl: string,
  leaves: number,
  tuning: PgBossTuning,
  deadlineSeconds: number | undefined,
  print: (line: string) => void,
): Promise<Omit<PgBossFlowResult, 'leafCost'> & { cost: Awaited<ReturnType<typeof startLeafCost>> }> {
  const deadline = startDeadline(deadlineSeconds);
  const probe = newProbe();
  let boss: PgBoss | undefined;
  let started = 0;
  let flowCommitted = false;
  const progress = setInterval(() => {
    const s = (performance.now() - started) / 1000;
    print(`  ${s.toFixed(1)} s: ${probe.leafRuns} leaves run (${(probe.leafRuns / s).toFixed(0)} leaves/s)`);
  }, 2000);
  try {
    boss = await deadline.race(startBoss(scratch.url, tuning, probe));
    const jobs = flowJobs(leaves);
    const cost = await startLeafCost(scratch.url);
    started = performance.now();
    const split = startCpuSplit();
    await deadline.race(boss.flow(jobs));
    const splitDoneAt = performance.now();
    flowCommitted = true;
    await deadline.race(probe.finished);
    const cpu = split.stop();
    print(`  ${formatCpuSplit(cpu)}`);
    const seconds = (probe.aggregateDoneAt - started) / 1000;
    const splitSeconds = (splitDoneAt - started) / 1000;
    const { leafRuns, dependenciesSeen } = probe;
    return { leaves, leafRuns, dependenciesSeen, seconds, splitSeconds, leavesPerSecond: leaves / seconds, cpu, cost };
  } finally {
    clearInterval(progress);
    deadline.clear();
    if (deadline.expired) {
      print(
        `  out of time: ${flowCommitted ? 'the flow committed' : 'the flow not committed'}, ${probe.leafRuns} leaves run`,
      );
      await endSessionsOf(serverUrl, scratch.name);
    }
    const stuck = deadline.expired;
    if (boss) await settleWithin(boss.stop({ graceful: !stuck, close: true, timeout: 10_000 }), 15_000);
  }
}

/** Runs one flow of `leaves` on a scratch database of `serverUrl`; throws `DidNotFinishError` past `deadlineSeconds`. */
export async function runPgBossFlow(
  serverUrl: string,
  leaves: number,
  tuning: PgBossTuning,
  deadlineSeconds: number | undefined,
  print: (line: string) => void = () => undefined,
): Promise<PgBossFlowResult> {
  const scratch = await createScratchDatabase(serverUrl, 'fw_pgboss');
  print(`  scratch database ${scratch.name}`);
  try {
    const { cost, ...run } = await timedFlow(scratch, serverUrl, leaves, tuning, deadlineSeconds, print);
    await sessionsReported();
    const leafCost = await cost.stop(leaves);
    for (const line of formatLeafCost(leafCost)) print(line);
    return { ...run, leafCost };
  } finally {
    await scratch.drop();
  }
}
