/**
 * One BullMQ flow, the in-memory (Redis) or PostgreSQL counterpart of the `fanout` bench: a parent
 * job with N leaf children added as one flow (`FlowProducer.add`), a leaf worker of concurrency 50
 * (no-op leaves), and a parent worker that runs once BullMQ has moved the parent out of
 * waiting-children (every child completed) and reads its children's values (the fan-in). Timed from
 * just before the flow is added until the parent's processor has run.
 *
 * `runFlowOn` runs it on the classes of any backend (`withBackend`); `runBullmqFlow` is the Redis
 * run, whose keys live under a prefix of their own (`fwbench_<random>`), removed at the end (SCAN +
 * UNLINK), also when the run fails. The PostgreSQL run is `bullmq-postgres-flow.ts`.
 *
 * @example
 * const result = await runBullmqFlow('redis://127.0.0.1:6379', 10_000, { concurrency: 50 }, console.log);
 * result.leavesPerSecond;
 */
import { formatCpuSplit, startCpuSplit, type CpuSplit } from '../cpu/cpu-split';
import { settleWithin, startDeadline } from '../deadline/run-deadline';
import {
  createRedisBackend,
  withBackend,
  type BackendClasses,
  type ConnectionOptions,
  type IQueueBackend,
} from 'bullmq';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { readRedisCommandCalls } from './redis-commands';

/** Leaf worker concurrency of the comparison (the setting). */
export const BULLMQ_LEAF_CONCURRENCY = 50;
const LEAF_QUEUE = 'leaf';
const PARENT_QUEUE = 'aggregate';

export interface BullmqFlowTuning {
  /** Leaf jobs processed at once by the one leaf worker. */
  concurrency: number;
  /**
   * The longest the run may take, in seconds; past it the run ends with `DidNotFinishError` after
   * closing what it opened. Default: no bound.
   */
  deadlineSeconds?: number;
}

/** What one flow did, on any backend. */
export interface BullmqFlowRun {
  leaves: number;
  /** Times the leaf processor ran. */
  leafRuns: number;
  /** Children values the parent read (N when every leaf reported). */
  childrenSeen: number;
  /** From adding the flow to the end of the parent's processor. */
  seconds: number;
  /** From adding the flow until `FlowProducer.add` returned (all N children stored). */
  splitSeconds: number;
  leavesPerSecond: number;
  /** CPU of this process and of the rest of the machine over `seconds`. */
  cpu: CpuSplit;
}

/** The Redis run: the flow, the commands it cost Redis and the keys removed afterwards. */
export interface BullmqFlowResult extends BullmqFlowRun {
  /** Keys removed at the end (0 would mean the run wrote nothing under its prefix). */
  keysRemoved: number;
  /** Commands Redis ran from just before the flow was added until the parent had run, per leaf (whole server). */
  redisCommandsPerLeaf: number;
}

/** Where a flow runs: BullMQ's classes bound to one backend and the options every instance gets. */
export interface BullmqFlowTarget<B extends IQueueBackend, C> {
  classes: BackendClasses<B, C>;
  options: { connection: C; prefix?: string };
  /** Just before the flow is added: readings that must not include the workers' start. */
  onStart?(): Promise<void>;
  /** Just after the parent has run, before anything is closed. */
  onEnd?(): Promise<void>;
  /** Once the deadline has passed, before closing: ends what the backend still runs for the flow. */
  abort?(): Promise<void>;
}

/** ioredis options from a `redis://[user:password@]host:port[/db]` URL. */
export function redisConnectionOf(url: string): ConnectionOptions {
  const u = new URL(url);
  if (u.protocol !== 'redis:') throw new Error(`not a redis:// URL: ${url}`);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    db,
    username: u.username || undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    // Workers' blocking connections must not give up on a slow command.
    maxRetriesPerRequest: null,
  };
}

/** Removes every key under `prefix:`; returns how many. */
export async function removeKeysUnder(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  try {
    let removed = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) removed += await redis.unlink(...keys);
    } while (cursor !== '0');
    return removed;
  } finally {
    redis.disconnect();
  }
}

interface FlowProbe {
  leafRuns: number;
  childrenSeen: number;
  parentDoneAt: number;
  finished: Promise<void>;
  done(): void;
  fail(error: unknown): void;
}

function newProbe(): FlowProbe {
  let settle: { resolve(): void; reject(e: unknown): void } = { resolve: () => undefined, reject: () => undefined };
  const finished = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  finished.catch(() => undefined);
  const probe: FlowProbe = {
    leafRuns: 0,
    childrenSeen: 0,
    parentDoneAt: 0,
    finished,
    done: () => settle.resolve(),
    fail: (error) => settle.reject(error instanceof Error ? error : new Error(String(error))),
  };
  return probe;
}

/** What closing needs of a worker. */
interface Closable {
  close(force?: boolean): Promise<void>;
}

function startWorkers<B extends IQueueBackend, C>(
  target: BullmqFlowTarget<B, C>,
  tuning: BullmqFlowTuning,
  probe: FlowProbe,
): Array<Closable & { waitUntilReady(): Promise<unknown> }> {
  const { Worker: FlowWorker } = target.classes;
  const leafWorker = new FlowWorker(
    LEAF_QUEUE,
    async () => {
      probe.leafRuns++;
      return 1;
    },
    { ...target.options, concurrency: tuning.concurrency },
  );
  const parentWorker = new FlowWorker(
    PARENT_QUEUE,
    async (job) => {
      probe.childrenSeen = Object.keys(await job.getChildrenValues()).length;
      probe.parentDoneAt = performance.now();
      probe.done();
      return probe.childrenSeen;
    },
    { ...target.options, concurrency: 1 },
  );
  for (const w of [leafWorker, parentWorker]) {
    w.on('failed', (job, error) => probe.fail(new Error(`bullmq job ${job?.name ?? '?'} failed: ${error.message}`)));
    w.on('error', (error) => probe.fail(error));
  }
  return [leafWorker, parentWorker];
}

/**
 * Closes the workers and the producer. After a run that ran out of time their connections may be
 * stuck (the backend has been told to end them): then each close gets 10 s at most.
 */
async function closeFlow(workers: Closable[], producer: { close(): Promise<void> }, stuck: boolean): Promise<void> {
  if (!stuck) {
    await Promise.all(workers.map((w) => w.close(true)));
    await producer.close();
    return;
  }
  await settleWithin(Promise.all([...workers.map((w) => w.close(true)), producer.close()]), 10_000);
}

/**
 * Runs one flow of `leaves` children on `target` and closes its workers and producer before
 * returning; throws `DidNotFinishError` when `tuning.deadlineSeconds` passes first.
 */
export async function runFlowOn<B extends IQueueBackend, C>(
  target: BullmqFlowTarget<B, C>,
  leaves: number,
  tuning: BullmqFlowTuning,
  print: (line: string) => void = () => undefined,
): Promise<BullmqFlowRun> {
  const deadline = startDeadline(tuning.deadlineSeconds);
  const probe = newProbe();
  const workers = startWorkers(target, tuning, probe);
  const producer = new target.classes.FlowProducer(target.options);
  let started = 0;
  let splitDoneAt = 0;
  let cpu: CpuSplit;
  const progress = setInterval(() => {
    const s = (performance.now() - started) / 1000;
    print(`  ${s.toFixed(1)} s: ${probe.leafRuns} leaves run (${(probe.leafRuns / s).toFixed(0)} leaves/s)`);
  }, 2000);
  try {
    await deadline.race(Promise.all(workers.map((w) => w.waitUntilReady())));
    const children = Array.from({ length: leaves }, () => ({ name: 'leaf', queueName: LEAF_QUEUE, data: {} }));
    await target.onStart?.();
    started = performance.now();
    const split = startCpuSplit();
    await deadline.race(producer.add({ name: 'aggregate', queueName: PARENT_QUEUE, data: {}, children }));
    splitDoneAt = performance.now();
    await deadline.race(probe.finished);
    cpu = split.stop();
    await target.onEnd?.();
    print(`  ${formatCpuSplit(cpu)}`);
  } finally {
    clearInterval(progress);
    deadline.clear();
    if (deadline.expired) {
      const stored = started > 0 && splitDoneAt > 0 ? 'stored' : 'not stored (FlowProducer.add had not returned)';
      print(`  out of time: the flow ${stored}, ${probe.leafRuns} leaves run`);
      // Sessions ended while BullMQ's PostgreSQL backend is still starting its workers sent it into
      // a loop that never yields (seen with a bound of 1 ms on a loaded machine): let them start first.
      await settleWithin(Promise.all(workers.map((w) => w.waitUntilReady())), 10_000);
      await target.abort?.();
    }
    await closeFlow(workers, producer, deadline.expired);
  }
  const seconds = (probe.parentDoneAt - started) / 1000;
  return {
    leaves,
    leafRuns: probe.leafRuns,
    childrenSeen: probe.childrenSeen,
    seconds,
    splitSeconds: (splitDoneAt - started) / 1000,
    leavesPerSecond: leaves / seconds,
    cpu,
  };
}

/** Runs one flow of `leaves` children on `redisUrl` and removes its keys before returning. */
export async function runBullmqFlow(
  redisUrl: string,
  leaves: number,
  tuning: BullmqFlowTuning,
  print: (line: string) => void = () => undefined,
): Promise<BullmqFlowResult> {
  const prefix = `fwbench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  // A connection of its own for INFO, so that reading the counters waits for no worker.
  const stats = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  const calls = { before: 0, after: 0 };
  let run: BullmqFlowRun;
  let keysRemoved: number;
  try {
    run = await runFlowOn(
      {
        classes: withBackend(createRedisBackend),
        options: { connection: redisConnectionOf(redisUrl), prefix },
        onStart: async () => void (calls.before = await readRedisCommandCalls(stats)),
        onEnd: async () => void (calls.after = await readRedisCommandCalls(stats)),
      },
      leaves,
      tuning,
      print,
    );
  } finally {
    stats.disconnect();
    keysRemoved = await removeKeysUnder(redisUrl, prefix);
  }
  return { ...run, keysRemoved, redisCommandsPerLeaf: (calls.after - calls.before) / leaves };
}
