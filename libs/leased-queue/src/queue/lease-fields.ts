/**
 * The lease fields of a claimed row and the database-clock lease end: shared by the queue's own
 * claim and by claim statements written elsewhere (such as a fair claim).
 */
import { sql, type RawBuilder } from 'kysely';
import type { LeasedClaim } from './leased-queue-types';

/** `now() + n milliseconds`, on the database clock (holders' clocks never matter). */
export function nowPlusMillis(millis: number): RawBuilder<Date> {
  return sql<Date>`now() + (${Math.max(0, Math.round(millis))}::double precision * interval '1 millisecond')`;
}

/**
 * The lease fields of a claim's row, under names no domain column uses. A claim statement written
 * outside this module (a queue's own claim order, such as a fair claim) returns them under these
 * names and reads its rows with {@link leasedClaimOf}.
 */
export interface LeaseFields {
  lq_id: string;
  lq_claim_token: string;
  lq_attempts: number | string;
  lq_max_attempts: number | string;
  lq_last_error: string | null;
  lq_locked_by: string;
  lq_locked_until: Date | string;
  /**
   * True for a row the claim took from the expired-lease branch (a holder's lease ran out); a
   * claim statement that does not return it claims no expired leases as such.
   */
  lq_lease_expired?: boolean | null;
}

/**
 * A claimed row as a {@link LeasedClaim}: the `lq_*` lease fields typed, the row kept whole.
 *
 * @example
 * const claims = (await sql<LeaseFields & MyColumns>`update … returning …`.execute(db)).rows.map(leasedClaimOf);
 */
export function leasedClaimOf<Row extends LeaseFields>(row: Row): LeasedClaim<Row> {
  return {
    id: row.lq_id,
    claimToken: row.lq_claim_token,
    attempts: Number(row.lq_attempts),
    maxAttempts: Number(row.lq_max_attempts),
    lastError: row.lq_last_error,
    lockedBy: row.lq_locked_by,
    lockedUntil: new Date(row.lq_locked_until),
    leaseExpired: row.lq_lease_expired === true,
    row,
  };
}
