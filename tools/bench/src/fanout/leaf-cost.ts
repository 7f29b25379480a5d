/**
 * What one leaf costs PostgreSQL, from the statistics of the run's scratch database: transactions
 * (`pg_stat_database`), rows inserted, updated (HOT or not) and deleted per table
 * (`pg_stat_user_tables`), the index entries those writes made (an insert or a non-HOT update
 * writes an entry in every index whose predicate the new row version meets, a HOT update none:
 * counted exactly for full indexes and taken from the growth of each partial index's size for the
 * others would be guesswork, so partial indexes are given apart, by their growth in bytes), the
 * WAL the server wrote (cluster-wide: exact only when nothing else writes), and the statements
 * this process sent (counted at `pg.Client#query`). Read before and after a run; the difference
 * divided by the leaves is the cost per leaf.
 *
 * @example
 * const cost = await startLeafCost(scratch.url);
 * // … the run, then close the pool (its backends report their last figures as they exit) …
 * for (const line of formatLeafCost(await cost.stop(leaves))) print(line);
 */
import pg from 'pg';
import { withClient } from '../scratch/scratch-database';

/** Write counters of one table. */
export interface TableWrites {
  inserted: number;
  updated: number;
  hotUpdated: number;
  deleted: number;
  /** Full (not partial) indexes of the table: one entry each per insert or non-HOT update. */
  fullIndexes: number;
  /** Bytes of the table's partial indexes (their entries depend on each row version's values). */
  partialIndexBytes: number;
}

/** The counters of one reading. */
export interface LeafCostCounters {
  commits: number;
  rollbacks: number;
  /** `pg_current_wal_lsn()` in bytes. */
  walBytes: number;
  tables: Record<string, TableWrites>;
}

/** Per-leaf figures of a run. */
export interface LeafCost {
  transactions: number;
  statements: number | undefined;
  rowsWritten: number;
  /** Entries written into full indexes. */
  indexEntries: number;
  /** Growth of the partial indexes, bytes. */
  partialIndexBytes: number;
  /** WAL written by the whole server, bytes. */
  walBytes: number;
  /** Per table: rows inserted, updated (of which HOT) and deleted per leaf, full-index entries, partial-index growth. */
  tables: Array<{ table: string } & Omit<TableWrites, 'fullIndexes'> & { indexEntries: number }>;
}

/**
 * Reads the counters of the database at `url`. PostgreSQL reports a backend's figures when it goes
 * idle (at most once a second) or exits: wait a second after the last statement, or close the pool.
 */
export async function readLeafCostCounters(url: string): Promise<LeafCostCounters> {
  return withClient(url, async (client) => {
    const { rows: db } = await client.query<{ commits: string; rollbacks: string; wal: string }>(
      `select xact_commit as commits, xact_rollback as rollbacks, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') as wal
         from pg_stat_database where datname = current_database()`,
    );
    const { rows } = await client.query<{
      table: string;
      inserted: string;
      updated: string;
      hot_updated: string;
      deleted: string;
      full_indexes: string;
      partial_bytes: string;
    }>(
      `select t.relname as table, t.n_tup_ins as inserted, t.n_tup_upd as updated, t.n_tup_hot_upd as hot_updated,
              t.n_tup_del as deleted,
              (select count(*) from pg_index i where i.indrelid = t.relid and i.indpred is null) as full_indexes,
              (select coalesce(sum(pg_relation_size(i.indexrelid)), 0) from pg_index i
                where i.indrelid = t.relid and i.indpred is not null) as partial_bytes
         from pg_stat_user_tables t`,
    );
    const tables: Record<string, TableWrites> = {};
    for (const r of rows)
      tables[r.table] = {
        inserted: Number(r.inserted),
        updated: Number(r.updated),
        hotUpdated: Number(r.hot_updated),
        deleted: Number(r.deleted),
        fullIndexes: Number(r.full_indexes),
        partialIndexBytes: Number(r.partial_bytes),
      };
    return { commits: Number(db[0].commits), rollbacks: Number(db[0].rollbacks), walBytes: Number(db[0].wal), tables };
  });
}

/**
 * Counts the statements every `pg` client of this process sends from now until `stop()` (the
 * benchmark's own reads included: a handful per run).
 */
export function countStatements(): { stop(): number } {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  let count = 0;
  proto.query = function countedQuery(this: unknown, ...args: unknown[]) {
    count++;
    return original.apply(this, args);
  };
  return {
    stop() {
      proto.query = original;
      return count;
    },
  };
}

/** The difference of two readings per leaf. */
export function leafCostOf(
  before: LeafCostCounters,
  after: LeafCostCounters,
  statements: number | undefined,
  leaves: number,
): LeafCost {
  const tables: LeafCost['tables'] = [];
  for (const [table, a] of Object.entries(after.tables)) {
    const b = before.tables[table] ?? {
      inserted: 0,
      updated: 0,
      hotUpdated: 0,
      deleted: 0,
      fullIndexes: a.fullIndexes,
      partialIndexBytes: 0,
    };
    const d = {
      inserted: a.inserted - b.inserted,
      updated: a.updated - b.updated,
      hotUpdated: a.hotUpdated - b.hotUpdated,
      deleted: a.deleted - b.deleted,
    };
    if (d.inserted + d.updated + d.deleted === 0) continue;
    tables.push({
      table,
      inserted: d.inserted / leaves,
      updated: d.updated / leaves,
      hotUpdated: d.hotUpdated / leaves,
      deleted: d.deleted / leaves,
      indexEntries: ((d.inserted + d.updated - d.hotUpdated) * a.fullIndexes) / leaves,
      partialIndexBytes: (a.partialIndexBytes - b.partialIndexBytes) / leaves,
    });
  }
  tables.sort((x, y) => x.table.localeCompare(y.table));
  const sum = (pick: (t: LeafCost['tables'][number]) => number) => tables.reduce((n, t) => n + pick(t), 0);
  return {
    transactions: (after.commits + after.rollbacks - before.commits - before.rollbacks) / leaves,
    statements: statements === undefined ? undefined : statements / leaves,
    rowsWritten: sum((t) => t.inserted + t.updated + t.deleted),
    indexEntries: sum((t) => t.indexEntries),
    partialIndexBytes: sum((t) => t.partialIndexBytes),
    walBytes: (after.walBytes - before.walBytes) / leaves,
    tables,
  };
}

/** `cost per leaf: …` and one line per table written. */
export function formatLeafCost(cost: LeafCost): string[] {
  const f = (n: number) => n.toFixed(2);
  return [
    `  cost per leaf: ${f(cost.transactions)} transactions, ${cost.statements === undefined ? '?' : f(cost.statements)} statements, ${f(cost.rowsWritten)} rows written, ${f(cost.indexEntries)} full-index entries + ${cost.partialIndexBytes.toFixed(0)} B of partial indexes, ${cost.walBytes.toFixed(0)} B of WAL (whole server)`,
    ...cost.tables.map(
      (t) =>
        `    ${t.table}: inserted ${f(t.inserted)}, updated ${f(t.updated)} (HOT ${f(t.hotUpdated)}), deleted ${f(t.deleted)}; full-index entries ${f(t.indexEntries)}, partial indexes +${t.partialIndexBytes.toFixed(0)} B`,
    ),
  ];
}

/**
 * Starts measuring the database at `url`: waits a little over a second so that what ran before
 * (the migration) is reported, reads the counters and starts counting statements. `stop(leaves)`
 * (after the pool is closed) reads them again and divides.
 */
export async function startLeafCost(url: string): Promise<{ stop(leaves: number): Promise<LeafCost> }> {
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const before = await readLeafCostCounters(url);
  const statements = countStatements();
  return {
    async stop(leaves) {
      const sent = statements.stop();
      return leafCostOf(before, await readLeafCostCounters(url), sent, leaves);
    },
  };
}
