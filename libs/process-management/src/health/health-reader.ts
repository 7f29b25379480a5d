/**
 * The answer of `GET /health`: per process type of a tenant, the processes finished in the last
 * hour (in all and per 5-minute bucket), the work items pending, running and dead now by worker
 * type, the age of the oldest due pending item, and the due-to-claim wait of the work items
 * finished in the last hour (p50/p95). Read from the tables the server keeps — no metrics
 * backend — and cached per tenant for a few seconds, so a dashboard on every screen of a team
 * costs one set of reads per tenant per interval.
 *
 * @example
 * const health = makeHealthReader(database.db);
 * res.json(await health.read('acme'));
 */
import type { Kysely } from 'kysely';
import type { HealthBacklogWire, HealthBucketWire, HealthRowWire, HealthWire } from '../openapi/admin-api-wire-types';
import {
  readBacklog,
  readFinished,
  readNow,
  readWaits,
  type BacklogRow,
  type FinishedRow,
  type WaitRow,
} from './health-statements';

/** The window the answer covers: the last hour. */
export const HEALTH_WINDOW_SECONDS = 3600;
/** The width of a throughput bucket: five minutes (twelve buckets in the window). */
export const HEALTH_BUCKET_SECONDS = 300;
/** How long an answer is served from memory. */
const CACHE_MILLIS = 5_000;
/** Most tenants kept in memory; the oldest answer goes first. */
const CACHE_TENANTS = 500;

export interface HealthReader {
  /** The tenant's health, at most a few seconds old. */
  read(tenant: string): Promise<HealthWire>;
}

const BUCKETS = HEALTH_WINDOW_SECONDS / HEALTH_BUCKET_SECONDS;

function rowOf(rows: Map<string, HealthRowWire>, now: Date, processType: string): HealthRowWire {
  let row = rows.get(processType);
  if (row === undefined) {
    const throughput: HealthBucketWire[] = [];
    // Oldest first: bucket i starts (BUCKETS - i) bucket widths before now.
    for (let i = 0; i < BUCKETS; i++) {
      const start = new Date(now.getTime() - (BUCKETS - i) * HEALTH_BUCKET_SECONDS * 1000);
      throughput.push({ start: start.toISOString(), succeeded: 0, failed: 0 });
    }
    row = {
      processType,
      succeeded: 0,
      failed: 0,
      throughput,
      backlog: [],
      oldestDueSeconds: null,
      waitP50Seconds: null,
      waitP95Seconds: null,
      waitSamples: 0,
    };
    rows.set(processType, row);
  }
  return row;
}

function addFinished(rows: Map<string, HealthRowWire>, now: Date, finished: readonly FinishedRow[]): void {
  for (const f of finished) {
    const row = rowOf(rows, now, f.process_type);
    const bucket = row.throughput[BUCKETS - 1 - Math.min(BUCKETS - 1, Math.max(0, Number(f.bucket)))];
    const count = Number(f.count);
    if (f.successful) {
      bucket.succeeded += count;
      row.succeeded += count;
    } else {
      bucket.failed += count;
      row.failed += count;
    }
  }
}

const STATUS_FIELD = { PENDING: 'pending', RUNNING: 'running', DEAD: 'dead' } as const;

function addBacklog(rows: Map<string, HealthRowWire>, now: Date, backlog: readonly BacklogRow[]): void {
  for (const b of backlog) {
    const row = rowOf(rows, now, b.process_type);
    let entry: HealthBacklogWire | undefined = row.backlog.find((e) => e.workerType === b.worker_type);
    if (entry === undefined) {
      entry = { workerType: b.worker_type, pending: 0, running: 0, dead: 0 };
      row.backlog.push(entry);
    }
    entry[STATUS_FIELD[b.status]] += Number(b.count);
    if (b.oldest_due_age !== null) {
      const age = Math.max(0, Number(b.oldest_due_age));
      row.oldestDueSeconds = Math.max(row.oldestDueSeconds ?? 0, age);
    }
  }
}

function addWaits(rows: Map<string, HealthRowWire>, now: Date, waits: readonly WaitRow[]): void {
  for (const w of waits) {
    const row = rowOf(rows, now, w.process_type);
    row.waitP50Seconds = w.p50 === null ? null : Number(w.p50);
    row.waitP95Seconds = w.p95 === null ? null : Number(w.p95);
    row.waitSamples = Number(w.samples);
  }
}

async function readHealth(db: Kysely<unknown>, tenant: string): Promise<HealthWire> {
  const now = await readNow(db);
  const [finished, backlog, waits] = await Promise.all([
    readFinished(db, tenant, now, HEALTH_WINDOW_SECONDS, HEALTH_BUCKET_SECONDS),
    readBacklog(db, tenant, now),
    readWaits(db, tenant, now, HEALTH_WINDOW_SECONDS),
  ]);
  const rows = new Map<string, HealthRowWire>();
  addFinished(rows, now, finished);
  addBacklog(rows, now, backlog);
  addWaits(rows, now, waits);
  for (const row of rows.values()) row.backlog.sort((a, b) => a.workerType.localeCompare(b.workerType));
  return {
    tenant,
    generatedAt: now.toISOString(),
    windowSeconds: HEALTH_WINDOW_SECONDS,
    bucketSeconds: HEALTH_BUCKET_SECONDS,
    processTypes: [...rows.values()].sort((a, b) => a.processType.localeCompare(b.processType)),
  };
}

/** Makes the reader over the process database; answers are shared by concurrent callers of a tenant. */
export function makeHealthReader(db: Kysely<unknown>): HealthReader {
  const cache = new Map<string, { at: number; answer: Promise<HealthWire> }>();
  return {
    read(tenant) {
      const cached = cache.get(tenant);
      if (cached !== undefined && Date.now() - cached.at < CACHE_MILLIS) return cached.answer;
      cache.delete(tenant);
      if (cache.size >= CACHE_TENANTS) cache.delete(cache.keys().next().value as string);
      const answer = readHealth(db, tenant);
      cache.set(tenant, { at: Date.now(), answer });
      // A failed read is not kept: the next call tries again.
      answer.catch(() => {
        if (cache.get(tenant)?.answer === answer) cache.delete(tenant);
      });
      return answer;
    },
  };
}
