/**
 * The writes that renew, end or give back claims: each ONE `update … where id = any($ids) and
 * id || ':' || claim_token = any($pairs) and status = <running>` per batch, so a holder whose
 * lease expired and whose row was claimed again changes nothing (its id is missing from the
 * answer).
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
  const { q, table, s } = names;
  const raw = sql.raw;
  // Fenced writes find their rows through the primary key (no join with unnest: with stale
  // statistics PostgreSQL nested-looped it over every RUNNING row) and check each row's
  // `id:token` pair against the batch's pairs. PostgreSQL hashes an `= any` of a constant array of
  // nine or more, so that check is one probe per row; the token looked up by the row's position in
  // the id array (`array_position`) was a linear scan per row, 131,000 comparisons for a batch of
  // 512 and the most expensive statement of a fan-out. The pair, not the token alone: with one token
  // per claim statement (`tokens: 'per-claim'`), a stale holder's batch may carry the token of the
  // row's new claim through another row of it.
  const fencedHead = raw(`update ${table} as lq set `);
  const fencedIds = raw(` where lq.${q.id} = any(`);
  const fencedPairs = raw(`::uuid[]) and (lq.${q.id}::text || ':' || lq.${q.claimToken}::text) = any(`);
  const fencedWhere = raw(`::text[]) and lq.${q.status} = ${s.running} returning lq.${q.id} as id`);
  return async (db, claims, set) => {
    const changed = new Set<string>();
    if (claims.length === 0) return changed;
    const ids = claims.map((x) => x.id);
    // uuid text as PostgreSQL writes it (lower case), whatever case the caller's ids are in.
    const pairs = claims.map((x) => `${x.id}:${x.claimToken}`.toLowerCase());
    const result = await sql<{
      id: string;
    }>`${fencedHead}${set}${fencedIds}${ids}${fencedPairs}${pairs}${fencedWhere}`.execute(db);
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
