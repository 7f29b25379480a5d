/**
 * The claim of a leased queue: ONE `update … where id = any(array(expired leases union all due
 * rows, each scan for update skip locked, limit n))` that sets the lease, a fresh claim token and
 * counts the attempt.
 */
import { sql, type QueryExecutorProvider } from 'kysely';
import { randomUUID } from 'node:crypto';
import { leasedClaimOf, nowPlusMillis, type LeaseFields } from './lease-fields';
import type { ClaimRequest, LeasedClaim, LeasedQueueSpec } from './leased-queue-types';
import { makeExpiredLeaseScan } from './expired-lease-scan';
import type { QueueNames } from './queue-names';
import { quote } from './sql-names';

export type ClaimStatement<Row> = (db: QueryExecutorProvider, request: ClaimRequest) => Promise<LeasedClaim<Row>[]>;

/** Makes the claim of one queue (its SQL text built once: only values travel as parameters). */
export function makeClaimStatement<Row extends object>(spec: LeasedQueueSpec, names: QueueNames): ClaimStatement<Row> {
  const { q, table, s, columns } = names;
  const order = (spec.claimOrder ?? [columns.runAt]).map((o) => quote(o, 'claim order column')).join(', ');
  const extra = (spec.returning ?? []).map((r) => `, ${quote(r, 'returning column')}`).join('');
  const perClaimToken = spec.tokens === 'per-claim';
  const raw = sql.raw;
  const expired = makeExpiredLeaseScan({
    table: spec.table,
    running: spec.statuses.running,
    columns: spec.columns,
    partitionColumn: spec.partitionColumn,
  });

  // The expired-lease scan is a CTE so that the returned rows can say which came from it
  // (`lq_lease_expired`): it runs once, and the update and its `returning` read the same rows.
  const claimHead = raw(`with lq_expired_ids as (`);
  const claimSet = raw(`) update ${table} set ${q.status} = ${s.running}, ${q.lockedBy} = `);
  // The due rows come from two index-friendly scans (expired leases first: they are few, and
  // must not starve behind a long backlog; then due PENDING rows in claim order), and the update
  // finds them through the primary key (`= any(array(…))`). One OR-ed scan with `where id in (…)`
  // made PostgreSQL read and sort every PENDING row, and hash the whole table, on every claim.
  const claimedAt = spec.claimedAtColumn ? `, ${quote(spec.claimedAtColumn, 'claimedAt column')} = now()` : '';
  const claimDue = raw(
    `, ${q.attempts} = ${q.attempts} + 1${claimedAt}, ${q.updatedAt} = now() where ${q.id} = any(array(select lq_due.lq_id from (` +
      `select lq_expired.${q.id} as lq_id from lq_expired_ids as lq_expired union all select lq_pending.${q.id} from (select ${q.id} from ${table} where ${q.status} = ${s.pending} and ${q.runAt} <= now()`,
  );
  const claimTail = raw(` order by ${order} for update skip locked limit `);
  // (UNION does not take FOR UPDATE, so each locking scan is a sub-select of its own.)
  const claimClose = raw(`) as lq_pending) as lq_due limit `);
  const claimReturning = raw(
    `)) returning ${q.id} as lq_id, ${q.claimToken} as lq_claim_token, ${q.attempts} as lq_attempts, ${q.maxAttempts} as lq_max_attempts, ` +
      `${q.lastError} as lq_last_error, ${q.lockedBy} as lq_locked_by, ${q.lockedUntil} as lq_locked_until, ` +
      `${q.id} = any(array(select lq_x.${q.id} from lq_expired_ids as lq_x)) as lq_lease_expired${extra}`,
  );

  return async (db, request) => {
    const token = perClaimToken ? sql`${randomUUID()}::uuid` : sql`gen_random_uuid()`;
    const { limit, partitions } = request;
    const result = await sql<
      LeaseFields & Row
    >`${claimHead}${expired({ limit, partitions })}${claimSet}${request.workerId}, ${raw(q.lockedUntil)} = ${nowPlusMillis(request.leaseMillis)}, ${raw(q.claimToken)} = ${token}${claimDue}${names.partitionFilter(partitions)}${claimTail}${limit}${claimClose}${limit}${claimReturning}`.execute(
      db,
    );
    return result.rows.map(leasedClaimOf);
  };
}
