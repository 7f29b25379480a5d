/** Assertions over the stored state of a fan-out. */
import type { Database } from '@fw/core';
import { readChildCountRecords } from '@fw/test-support';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';

export interface FanOutSummary {
  rootState: string;
  numSubProcesses: number;
  numCompletedSubProcesses: number;
  output: unknown;
  leavesProcessed: number;
  childReports: number;
  /** Processes of this tree (root + leaves) with a completion event count other than one. */
  completionAnomalies: number;
  successors: Array<{ state_id: string }>;
  outbox: Record<string, number>;
  workItems: Record<string, number>;
}

async function rows<T>(database: Database, query: ReturnType<typeof sql<T>>): Promise<T[]> {
  return (await query.execute(database.db)).rows;
}

export async function summarize(database: Database, rootId: string): Promise<FanOutSummary> {
  const [root] = await rows<{
    state_id: string;
    num_sub_processes: number;
    num_completed_sub_processes: number;
    output: unknown;
  }>(
    database,
    sql`select state_id, num_sub_processes, num_completed_sub_processes, output from fw_process where id = ${rootId}`,
  );
  const [leaves] = await rows<{ n: string }>(
    database,
    sql`select count(*) as n from fw_process where parent_id = ${rootId} and state_id = 'PROCESSED'`,
  );
  const reports = await readChildCountRecords(database, rootId);
  const [anomalies] = await rows<{ n: string }>(
    database,
    sql`select count(*) as n from fw_process p
         where (p.id = ${rootId} or p.parent_id = ${rootId})
           and (select count(*) from fw_process_completion_event e where e.process_id = p.id) <> 1`,
  );
  const successors = await rows<{ state_id: string }>(
    database,
    sql`select state_id from fw_process where predecessor_id = ${rootId}`,
  );
  const outbox = await rows<{ status: string; n: string }>(
    database,
    sql`select status, count(*) as n from fw_process_outbox group by status`,
  );
  const items = await rows<{ status: string; n: string }>(
    database,
    sql`select status, count(*) as n from fw_process_work_item group by status`,
  );
  return {
    rootState: root.state_id,
    numSubProcesses: Number(root.num_sub_processes),
    numCompletedSubProcesses: Number(root.num_completed_sub_processes),
    output: root.output,
    leavesProcessed: Number(leaves.n),
    childReports: reports.total,
    completionAnomalies: Number(anomalies.n),
    successors,
    outbox: Object.fromEntries(outbox.map((r) => [r.status, Number(r.n)])),
    workItems: Object.fromEntries(items.map((r) => [r.status, Number(r.n)])),
  };
}

/** Polls `check` until it is true (or fails after `timeoutMillis`). */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMillis: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

export const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));

/** Expected sum of 0..n-1. */
export const sumTo = (n: number) => (n * (n - 1)) / 2;

/**
 * A PostgreSQL `Database` whose pool also swallows errors of checked-out clients whose backend was
 * terminated (pg emits them as 'error' events outside any query); the query in flight fails and the
 * pool replaces the client. (`createDatabase` of @fw/core only handles idle clients' errors.)
 */
export function resilientPostgres(url: string, maxConnections = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max: maxConnections });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'postgres',
    displayUrl: url,
    db,
    async withSession(fn) {
      const client = await pool.connect();
      try {
        return await fn({
          query: async (text, params = []) => (await client.query(text, [...params])).rows,
          exec: async (script) => void (await client.query(script)),
        });
      } finally {
        client.release();
      }
    },
    close: () => db.destroy(),
  };
}
