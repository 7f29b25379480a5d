/**
 * The writes that renew, end or give back claims: each ONE `update … where id = any($ids) and
 * id || ':' || claim_token || ':' || status = any($keys)` per batch (every key ending in the
 * running status), so a holder whose lease expired and whose row was claimed again changes
 * nothing (its id is missing from the answer).
 */
import { sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import { nowPlusMillis } from './lease-fields';
import type { Claim, LeasedQueue } from './leased-queue-types';
import type { QueueNames } from './queue-names';
import { quote } from './sql-names';

export type FencedWrites = Pick<LeasedQueue<object>, 'renew' | 'complete' | 'retry' | 'dead' | 'release'>;

/** ONE fenced update of a queue: `set` applied to the rows of `claims` still held. */
export type FencedUpdate = (
  db: QueryExecutorProvider,
  claims: readonly Claim[],
  set: RawBuilder<unknown>,
) => Promise<Set<string>>;

/** Makes the fenced update of one queue (its SQL text built once). */
export function makeFencedUpdate(names: QueueNames): FencedUpdate {
  const { q, table } = names;
  const raw = sql.raw;
  // A row is changed when its `id:token:status` is one of the batch's `id:token:RUNNING`: one
  // hashed probe per row (PostgreSQL hashes an `= any` of a constant array of nine or more), so a
  // stale holder changes nothing, nor a row no longer running. The status is inside the key, not a
  // clause of its own, for the plan's sake: `status = RUNNING` matches the lease index's predicate,
  // and with statistics taken while few rows ran (or none: autovacuum off) PostgreSQL chose a
  // bitmap scan of every RUNNING row over the primary key (27 ms instead of 10 for 1,024 rows in
  // a fan-out of 100,000). The token looked up by the row's position in the id array
  // (`array_position`) was a linear scan per row; a join with unnest nested-looped over every
  // RUNNING row under stale statistics. The pair, not the token alone: with one token per claim
  // statement (`tokens: 'per-claim'`), a stale holder's batch may carry the token of the row's
  // new claim through another row of it.
  const running = names.statuses.running;
  const fencedHead = raw(`update ${table} as lq set `);
  const fencedIds = raw(` where lq.${q.id} = any(`);
  const fencedKeys = raw(
    `::uuid[]) and (lq.${q.id}::text || ':' || lq.${q.claimToken}::text || ':' || lq.${q.status}) = any(`,
  );
  const fencedWhere = raw(`::text[]) returning lq.${q.id} as id`);
  return async (db, claims, set) => {
    const changed = new Set<string>();
    if (claims.length === 0) return changed;
    const ids = claims.map((x) => x.id);
    // uuid text as PostgreSQL writes it (lower case), whatever case the caller's ids are in.
    const keys = claims.map((x) => `${x.id}:${x.claimToken}`.toLowerCase() + `:${running}`);
    const result = await sql<{
      id: string;
    }>`${fencedHead}${set}${fencedIds}${ids}${fencedKeys}${keys}${fencedWhere}`.execute(db);
    for (const row of result.rows) changed.add(row.id);
    return changed;
  };
}

/** Makes renew, complete, retry, dead and release of one queue. */
export function makeFencedWrites(names: QueueNames): FencedWrites {
  const { q, s } = names;
  const raw = sql.raw;
  const fenced = makeFencedUpdate(names);
  const clearClaim = raw(
    `${q.lockedBy} = null, ${q.lockedUntil} = null, ${q.claimToken} = null, ${q.updatedAt} = now()`,
  );
  const finish = raw(`${q.lockedUntil} = null, ${q.finishedAt} = now(), ${q.updatedAt} = now()`);
  return {
    renew: (db, claims, leaseMillis) =>
      fenced(db, claims, sql`${raw(q.lockedUntil)} = ${nowPlusMillis(leaseMillis)}, ${raw(q.updatedAt)} = now()`),

    complete(db, claims, options = {}) {
      const lastError =
        options.lastError === undefined ? sql`` : sql`, ${raw(q.lastError)} = ${options.lastError}::text`;
      return fenced(db, claims, sql`${raw(q.status)} = ${raw(s.done)}, ${finish}${lastError}`);
    },

    retry: (db, claims, error, delayMillis) =>
      fenced(
        db,
        claims,
        sql`${raw(q.status)} = ${raw(s.pending)}, ${raw(q.runAt)} = ${nowPlusMillis(delayMillis)}, ${raw(q.lastError)} = ${error}::text, ${clearClaim}`,
      ),

    dead(db, claims, error, options = {}) {
      const lease = options.keepLeaseMillis === undefined ? sql`null` : nowPlusMillis(options.keepLeaseMillis);
      const more = Object.entries(options.set ?? {}).map(
        ([column, value]) => sql`, ${raw(quote(column, 'column'))} = ${value}`,
      );
      return fenced(
        db,
        claims,
        sql`${raw(q.status)} = ${raw(s.dead)}, ${raw(q.lastError)} = ${error}::text, ${raw(q.lockedUntil)} = ${lease}, ${raw(q.finishedAt)} = now(), ${raw(q.updatedAt)} = now()${sql.join(more, sql``)}`,
      );
    },

    release: (db, claims) =>
      fenced(
        db,
        claims,
        sql`${raw(q.status)} = ${raw(s.pending)}, ${raw(q.attempts)} = greatest(lq.${raw(q.attempts)} - 1, 0), ${raw(q.runAt)} = now(), ${clearClaim}`,
      ),
  };
}
