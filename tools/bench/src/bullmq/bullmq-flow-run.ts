/**
 * One BullMQ flow on Redis, the in-memory counterpart of the `fanout` bench: a parent job with N
 * leaf children added as one flow (`FlowProducer.add`), a leaf worker of concurrency 50 (no-op
 * leaves), and a parent worker that runs once BullMQ has moved the parent out of waiting-children
 * (every child completed) and reads its children's values (the fan-in). Timed from just before the
 * flow is added until the parent's processor has run.
 *
 * Every key lives under a prefix of its own (`fwbench_<random>`), removed at the end (SCAN + UNLINK),
 * also when the run fails.
 *
 * @example
 * const result = await runBullmqFlow('redis://127.0.0.1:6379', 10_000, { concurrency: 50 }, console.log);
 * result.leavesPerSecond;
 */
import { formatCpuSplit, startCpuSplit } from '../cpu/cpu-split';
import { FlowProducer, Worker, type ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';

/** Leaf worker concurrency of the comparison (the setting). */
export const BULLMQ_LEAF_CONCURRENCY = 50;
const LEAF_QUEUE = 'leaf';
const PARENT_QUEUE = 'aggregate';

export interface BullmqFlowTuning {
  /** Leaf jobs processed at once by the one leaf worker. */
  concurrency: number;
}

export interface BullmqFlowResult {
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
  /** Keys removed at the end (0 would mean the run wrote nothing under its prefix). */
  keysRemoved: number;
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

function startWorkers(
  connection: ConnectionOptions,
  prefix: string,
  tuning: BullmqFlowTuning,
  probe: FlowProbe,
): Worker[] {
  const leafWorker = new Worker(
    LEAF_QUEUE,
    async () => {
      probe.leafRuns++;
      return 1;
    },
    { connection, prefix, concurrency: tuning.concurrency },
  );
  const parentWorker = new Worker(
    PARENT_QUEUE,
    async (job) => {
      probe.childrenSeen = Object.keys(await job.getChildrenValues()).length;
      probe.parentDoneAt = performance.now();
      probe.done();
      return probe.childrenSeen;
    },
    { connection, prefix, concurrency: 1 },
  );
  for (const w of [leafWorker, parentWorker]) {
    w.on('failed', (job, error) => probe.fail(new Error(`bullmq job ${job?.name ?? '?'} failed: ${error.message}`)));
    w.on('error', (error) => probe.fail(error));
  }
  return [leafWorker, parentWorker];
}

/** Runs one flow of `leaves` children on `redisUrl` and removes its keys before returning. */
export async function runBullmqFlow(
  redisUrl: string,
  leaves: number,
  tuning: BullmqFlowTuning,
  print: (line: string) => void = () => undefined,
): Promise<BullmqFlowResult> {
  const prefix = `fwbench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const connection = redisConnectionOf(redisUrl);
  const probe = newProbe();
  const workers = startWorkers(connection, prefix, tuning, probe);
  const producer = new FlowProducer({ connection, prefix });
  let started = 0;
  let splitDoneAt: number;
  let keysRemoved: number;
  const progress = setInterval(() => {
    const s = (performance.now() - started) / 1000;
    print(`  ${s.toFixed(1)} s: ${probe.leafRuns} leaves run (${(probe.leafRuns / s).toFixed(0)} leaves/s)`);
  }, 2000);
  try {
    await Promise.all(workers.map((w) => w.waitUntilReady()));
    const children = Array.from({ length: leaves }, () => ({ name: 'leaf', queueName: LEAF_QUEUE, data: {} }));
    started = performance.now();
    const cpu = startCpuSplit();
    await producer.add({ name: 'aggregate', queueName: PARENT_QUEUE, data: {}, children });
    splitDoneAt = performance.now();
    await probe.finished;
    print(`  ${formatCpuSplit(cpu.stop())}`);
  } finally {
    clearInterval(progress);
    await Promise.all(workers.map((w) => w.close(true)));
    await producer.close();
    keysRemoved = await removeKeysUnder(redisUrl, prefix);
  }
  const seconds = (probe.parentDoneAt - started) / 1000;
  return {
    leaves,
    leafRuns: probe.leafRuns,
    childrenSeen: probe.childrenSeen,
    seconds,
    splitSeconds: (splitDoneAt - started) / 1000,
    leavesPerSecond: leaves / seconds,
    keysRemoved,
  };
}
