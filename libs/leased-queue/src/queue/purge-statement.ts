/**
 * Retention's statement: deletes up to `limit` done rows finished before `now() - olderThanMillis`
 * (and their dependent rows) in ONE statement, skipping rows another purge has locked.
 */
import { sql } from 'kysely';
import type { LeasedQueue } from './leased-queue-types';
import type { QueueNames } from './queue-names';
import { quote } from './sql-names';

/** Makes `purgeFinished` of one queue. */
export function makePurgeStatement(names: QueueNames): LeasedQueue<object>['purgeFinished'] {
  const { q, table, s } = names;
  const raw = sql.raw;
  return async (db, request) => {
    const dependents = (request.dependents ?? []).map((d, i) => {
      const scope =
        d.scope === undefined
          ? sql``
          : sql`${raw(quote(d.scope.column, 'dependent scope column'))} = any(${[...d.scope.values]}::text[]) and `;
      return sql`, ${raw(`lq_dependent_${i}`)} as (delete from ${raw(quote(d.table, 'dependent table'))} where ${scope}${raw(quote(d.column, 'dependent column'))} in (select id from lq_gone))`;
    });
    // SKIP LOCKED: purges of several instances take disjoint rows instead of waiting on (or
    // deadlocking with) each other.
    const result = await sql<{ purged: number | string }>`
        with lq_gone as (
          delete from ${raw(table)} where ${raw(q.id)} in (
            select ${raw(q.id)} from ${raw(table)}
             where ${raw(q.status)} = ${raw(s.done)} and ${raw(q.finishedAt)} < now() - (${Math.max(0, Math.round(request.olderThanMillis))}::double precision * interval '1 millisecond')${names.partitionFilter(request.partitions)}
             limit ${request.limit} for update skip locked)
          returning ${raw(q.id)} as id)${sql.join(dependents, sql``)}
        select count(*) as purged from lq_gone`.execute(db);
    return Number(result.rows[0]?.purged ?? 0);
  };
}
