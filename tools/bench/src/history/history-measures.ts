/**
 * What the `history` bench measures besides fan-outs: table and index sizes, the process list's
 * page and total as the administration API computes them (p50/p95), and a reader that holds a
 * snapshot open (held xmin) while work goes on.
 *
 * @example
 * printSizes(io, 'before', await tableSizes(database));
 * const latency = await pageLatency(database, 50);
 */
import type { Database } from '@fw/core';
import { boundedCount, makeProcessQueries, type ProcessFilter } from '@fw/process-management';
import { processDb } from '@fw/process-service';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { BenchIo } from '../bench-types';
import { HISTORY_TENANT } from './history-seed';

/** The tables a process run writes, in the order printed. */
export const HISTORY_TABLES = [
  'fw_process',
  'fw_process_completion_event',
  'fw_process_child_report',
  'fw_process_error',
  'fw_process_work_item',
  'fw_trigger_execution',
  'fw_trigger_log',
  'fw_process_outbox',
] as const;

export interface TableSize {
  table: string;
  liveRows: number;
  deadRows: number;
  heapBytes: number;
  indexBytes: number;
}

/** Sizes and live/dead tuples of {@link HISTORY_TABLES} (statistics as of now: call after ANALYZE for exact figures). */
export async function tableSizes(database: Database): Promise<TableSize[]> {
  const rows = await sql<{ table: string; live: string; dead: string; heap: string; indexes: string }>`
    select c.relname as table, coalesce(s.n_live_tup, 0) as live, coalesce(s.n_dead_tup, 0) as dead,
      pg_table_size(c.oid) as heap, pg_indexes_size(c.oid) as indexes
    from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
    where c.relname in (${sql.join(HISTORY_TABLES.map((t) => sql.lit(t)))}) and c.relkind = 'r'`.execute(database.db);
  const byName = new Map(rows.rows.map((r) => [r.table, r]));
  return HISTORY_TABLES.map((table) => {
    const r = byName.get(table);
    return {
      table,
      liveRows: Number(r?.live ?? 0),
      deadRows: Number(r?.dead ?? 0),
      heapBytes: Number(r?.heap ?? 0),
      indexBytes: Number(r?.indexes ?? 0),
    };
  });
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Prints one line per table and the sum. */
export function printSizes(io: BenchIo, label: string, sizes: readonly TableSize[]): void {
  io.out(`  sizes ${label}: table | live rows | dead rows | heap | indexes`);
  for (const s of sizes)
    io.out(
      `    ${s.table} | ${s.liveRows.toLocaleString('en')} | ${s.deadRows.toLocaleString('en')} | ${mb(s.heapBytes)} | ${mb(s.indexBytes)}`,
    );
  const sum = (f: (s: TableSize) => number) => sizes.reduce((n, s) => n + f(s), 0);
  io.out(
    `    all | ${sum((s) => s.liveRows).toLocaleString('en')} | ${sum((s) => s.deadRows).toLocaleString('en')} | ${mb(sum((s) => s.heapBytes))} | ${mb(sum((s) => s.indexBytes))}`,
  );
}

/** p50 and p95 of `samples` (milliseconds). */
export function percentiles(samples: readonly number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95) };
}

/**
 * The processes page with its total as the administration API answers `GET /processes` (the same
 * queries: page 25 rows newest first, total exact up to the limit, else the planner's estimate),
 * timed `runs` times per shape; plus one full `count(*)` for comparison.
 */
export async function pageLatency(database: Database, runs: number, io: BenchIo): Promise<void> {
  const queries = makeProcessQueries(processDb(database), { countExactLimit: 100_000 });
  const shapes: Array<[string, ProcessFilter, number]> = [
    ['first page', {}, 0],
    ['first page, roots only', { rootsOnly: true }, 0],
    ['100th page', {}, 99],
    ['status PROCESSED_WITH_ERRORS', { status: 'PROCESSED_WITH_ERRORS' }, 0],
  ];
  for (const [label, filter, page] of shapes) {
    const times: number[] = [];
    let last: { totalElements: number; totalElementsEstimated?: true } | undefined;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      last = await queries.listProcesses(HISTORY_TENANT, filter, { page, size: 25 });
      times.push(performance.now() - started);
    }
    const { p50, p95 } = percentiles(times);
    io.out(
      `  processes page (${label}): p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms; total ${last?.totalElementsEstimated ? 'about ' : ''}${last?.totalElements.toLocaleString('en')}`,
    );
  }
  await rareStatusParts(database, io);
  const started = performance.now();
  const exact = await sql<{ n: string }>`select count(*) as n from fw_process where tenant = ${HISTORY_TENANT}`.execute(
    database.db as Kysely<unknown>,
  );
  io.out(
    `  for comparison, an exact count(*) of the tenant's ${Number(exact.rows[0].n).toLocaleString('en')} processes: ${(performance.now() - started).toFixed(0)} ms`,
  );
}

/** Median milliseconds of `runs` calls of `fn`, and its last result. */
async function timed<T>(runs: number, fn: () => Promise<T>): Promise<{ p50: number; last: T }> {
  const times: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    last = await fn();
    times.push(performance.now() - started);
  }
  return { p50: percentiles(times).p50, last: last as T };
}

/** Rows an executed plan's nodes read (returned plus removed by their filters), summed over the plan's scans. */
function rowsRead(node: Record<string, unknown>): number {
  const own =
    typeof node['Relation Name'] === 'string'
      ? Number(node['Actual Rows'] ?? 0) + Number(node['Rows Removed by Filter'] ?? 0)
      : 0;
  const children = (node.Plans as Array<Record<string, unknown>> | undefined) ?? [];
  return own + children.reduce((n, child) => n + rowsRead(child), 0);
}

/**
 * The rare-status page in its parts: its total as the API counts it now (rows read bounded by the
 * limit), the total as it was counted before (matches counted up to the limit, which reads the
 * whole tenant when they are fewer), and the page of 25 rows alone with the rows it read to find
 * them (newest first, until 25 match). Five runs each, the medians printed.
 */
async function rareStatusParts(database: Database, io: BenchIo): Promise<void> {
  const db = processDb(database);
  const status = 'PROCESSED_WITH_ERRORS';
  const tenantRows = db.selectFrom('fw_process').where('tenant', '=', HISTORY_TENANT);
  const total = await timed(5, () =>
    boundedCount(db as Kysely<unknown>, tenantRows, 100_000, (eb) => eb('state_id', '=', status)),
  );
  const former = await timed(5, () =>
    sql<{ n: string }>`select count(*) as n from (select 1 from fw_process
      where tenant = ${HISTORY_TENANT} and state_id = ${status} limit 100001) as bounded`.execute(db),
  );
  const pageQuery = tenantRows
    .where('state_id', '=', status)
    .selectAll()
    .orderBy('created_time', 'desc')
    .orderBy('seq', 'desc')
    .limit(25);
  const pageAlone = await timed(5, () => pageQuery.execute());
  const compiled = pageQuery.compile();
  const plan = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`explain (analyze, format json) ${compiled.sql}`, [...compiled.parameters]),
  );
  const raw = plan.rows[0]['QUERY PLAN'];
  const root = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: Record<string, unknown> }>;
  io.out(
    `    status ${status} in parts: total ${total.last.estimated ? 'about ' : ''}${total.last.count.toLocaleString('en')} in p50 ${total.p50.toFixed(1)} ms (before: ${Number(former.last.rows[0].n).toLocaleString('en')} exact in p50 ${former.p50.toFixed(0)} ms); the page alone p50 ${pageAlone.p50.toFixed(1)} ms, reading ${rowsRead(root[0].Plan).toLocaleString('en')} rows newest first to find its 25`,
  );
}

/** A reader on its own connection holding one snapshot open (REPEATABLE READ) until `release()`. */
export async function holdSnapshot(url: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin isolation level repeatable read');
  await client.query('select count(*) from fw_process_outbox');
  return {
    async release() {
      await client.query('commit');
      await client.end();
    },
  };
}

/** Dead tuples of the tables a fan-out churns (process rows, work items, outbox commands). */
export async function churnDeadTuples(database: Database): Promise<string> {
  const rows = await sql<{ relname: string; dead: string }>`
    select relname, n_dead_tup as dead from pg_stat_user_tables where relname in ('fw_process', 'fw_process_work_item', 'fw_process_outbox') order by relname`.execute(
    database.db,
  );
  return rows.rows.map((r) => `${r.relname} ${Number(r.dead).toLocaleString('en')}`).join(', ');
}
