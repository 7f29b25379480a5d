/**
 * Finding and removing finished process trees: the expired roots in creation order (one index of
 * roots only), the removal of a group of trees in one short transaction, and the removal of one
 * named tree for `DELETE /processes/{id}`.
 *
 * @example
 * const store = makeHistoryRetentionStore(database);
 * const roots = await store.expiredRoots(rules, undefined, 500);
 * const outcome = await store.removeRoots(roots.map((r) => r.id));   // { removed: { processes, … }, skipped }
 */
import type { Database } from '@fw/core';
import { TERMINAL_STATES } from '@fw/process-api';
import { sql, type Kysely } from 'kysely';
import type { ChangeOptions } from '../ports/management-ports';
import type { RetentionRule, RetentionRules } from './retention-settings';
import { lockFinishedRoots, noRowsRemoved, removeIdleTrees, type RemovedRows } from './tree-removal-statements';

/** A root whose tree has expired. */
export interface ExpiredRoot {
  id: string;
  createdTime: Date;
  /** Its direct children: an estimate of the tree's size, for grouping trees into transactions. */
  children: number;
}

/** Where a sweep pass continues: after this root in (created_time, id) order. */
export interface SweepCursor {
  createdTime: Date;
  id: string;
}

/** What removing a group of roots did. */
export interface GroupRemoval {
  removed: RemovedRows;
  /** Roots removed with their trees. */
  roots: number;
  /** Roots left alone: taken by another transaction, or with work still to do. */
  skipped: number;
}

/** Why `removeOne` did not remove a tree. */
export type RemoveOneOutcome = 'removed' | 'not-found' | 'not-root' | 'running';

export interface HistoryRetentionStore {
  /** Up to `limit` expired finished roots after `after`, oldest first. */
  expiredRoots(rules: RetentionRules, after: SweepCursor | undefined, limit: number): Promise<ExpiredRoot[]>;
  /** Removes the trees of `ids` that are finished and idle, in one transaction. */
  removeRoots(ids: readonly string[]): Promise<GroupRemoval>;
  /**
   * Removes the finished tree of root `id` in `tenant` now, whatever its age. `inTransaction` runs
   * in the removal's transaction once the tree is gone (the audit row of the removal).
   */
  removeOne(
    tenant: string,
    id: string,
    options?: ChangeOptions,
  ): Promise<{ outcome: RemoveOneOutcome; removed: RemovedRows }>;
}

/** How long a removal waits for a row lock before it gives up (it never needs to: finished trees are idle). */
const LOCK_TIMEOUT = '2s';

function rulesJson(rules: readonly RetentionRule[]): string {
  return JSON.stringify(rules.map((r) => ({ k: r.key, s: r.succeededSeconds, f: r.failedSeconds })));
}

/** Makes the store over the process database (every table of the fw schema present). */
export function makeHistoryRetentionStore(database: Pick<Database, 'db'>): HistoryRetentionStore {
  const db = database.db as Kysely<unknown>;
  const terminal = sql.join(TERMINAL_STATES.map((s) => sql.lit(s)));

  /**
   * A removal transaction. Every statement of it walks a tree through indexes, a few thousand
   * rows at a time; left to itself the planner would hash-join a tree against a whole table once
   * it is large (seen at 100,000 processes: a sequential scan per level) and compile JIT code for
   * it, so joins are nested loops over index scans here, without JIT.
   */
  async function inTransaction<T>(fn: (trx: Kysely<unknown>) => Promise<T>): Promise<T> {
    return db.transaction().execute(async (trx) => {
      await sql`select set_config('lock_timeout', ${LOCK_TIMEOUT}, true), set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true),
        set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`.execute(trx);
      return fn(trx);
    });
  }

  return {
    async expiredRoots(rules, after, limit) {
      const afterClause =
        after === undefined
          ? sql``
          : sql`and (r.created_time, r.id) > (${after.createdTime}::timestamptz, ${after.id}::uuid)`;
      // created_time bounds the index range (no root created later can have expired); the rules
      // then decide per root: its definition's retention, else its tenant's, else the default.
      const rows = await sql<{ id: string; created_time: Date | string; num_sub_processes: number }>`
        select r.id, r.created_time, r.num_sub_processes
        from fw_process r
        left join jsonb_to_recordset(${rulesJson(rules.definitions)}::jsonb) as d(k text, s double precision, f double precision) on d.k = r.process_type
        left join jsonb_to_recordset(${rulesJson(rules.tenants)}::jsonb) as t(k text, s double precision, f double precision) on t.k = r.tenant
        where r.parent_id is null
          and r.created_time < now() - make_interval(secs => ${rules.shortestSeconds})
          ${afterClause}
          and r.state_id in (${terminal})
          and r.last_modified_time < now() - make_interval(secs => case when r.state_id = 'PROCESSED'
                then coalesce(d.s, t.s, ${rules.succeededSeconds}) else coalesce(d.f, t.f, ${rules.failedSeconds}) end)
        order by r.created_time, r.id
        limit ${limit}`.execute(db);
      return rows.rows.map((r) => ({
        id: r.id,
        createdTime: new Date(r.created_time),
        children: Number(r.num_sub_processes),
      }));
    },

    async removeRoots(ids) {
      return inTransaction(async (trx) => {
        const { removed, roots } = await removeIdleTrees(trx, await lockFinishedRoots(trx, ids));
        return { removed, roots, skipped: ids.length - roots };
      });
    },

    async removeOne(tenant, id, options) {
      const row = await sql<{ parent_id: string | null; state_id: string }>`
        select parent_id, state_id from fw_process where id = ${id}::uuid and tenant = ${tenant}`.execute(db);
      const found = row.rows[0];
      if (!found) return { outcome: 'not-found', removed: noRowsRemoved() };
      if (found.parent_id !== null) return { outcome: 'not-root', removed: noRowsRemoved() };
      return inTransaction(async (trx) => {
        const { removed, roots } = await removeIdleTrees(trx, await lockFinishedRoots(trx, [id]));
        if (roots === 1) await options?.inTransaction?.(trx);
        return { outcome: roots === 1 ? ('removed' as const) : ('running' as const), removed };
      });
    },
  };
}
