/**
 * The statements of a leased queue over any table that has the lease columns (status, attempts,
 * max_attempts, run_at, locked_by, locked_until, claim_token, last_error, updated_at, finished_at;
 * names configurable). Every statement is set-based: a claim is ONE `update … where id = any(array(
 * expired leases union all due rows, each scan for update skip locked, limit n))`, and every write
 * that ends, extends or gives back a claim is ONE `update … where id = any($ids)` fenced by each
 * row's claim token, so a holder whose lease expired and whose row was claimed again changes
 * nothing (its id is missing from the answer). All times come from the database clock.
 *
 * @example
 * const queue = makeLeasedQueue<{ payload: unknown }>({
 *   table: 'job',
 *   statuses: { pending: 'PENDING', running: 'RUNNING', done: 'DONE', dead: 'DEAD' },
 *   returning: ['payload'],
 * });
 * const claims = await queue.claim(db, { workerId: 'w1', limit: 100, leaseMillis: 30_000 });
 * const done = await queue.complete(db, claims); // ids acknowledged; a lost claim is absent
 */
import { makeClaimStatement } from './claim-statement';
import { makeFencedWrites } from './fenced-writes';
import type { LeasedQueue, LeasedQueueSpec } from './leased-queue-types';
import { makePurgeStatement } from './purge-statement';
import { compileQueueNames } from './queue-names';

export { DEFAULT_LEASE_COLUMNS } from './leased-queue-types';
export type {
  LeasedQueue,
  LeasedQueueSpec,
  LeasedQueueColumns,
  LeasedQueueStatuses,
  Claim,
  LeasedClaim,
  ClaimRequest,
  DeadOptions,
  PurgeRequest,
  DependentRows,
} from './leased-queue-types';
export { nowPlusMillis, leasedClaimOf } from './lease-fields';
export type { LeaseFields } from './lease-fields';

/** Makes the statements of one queue table (validated once; stateless afterwards). */
export function makeLeasedQueue<Row extends object = Record<string, unknown>>(spec: LeasedQueueSpec): LeasedQueue<Row> {
  const names = compileQueueNames(spec);
  return {
    claim: makeClaimStatement<Row>(spec, names),
    ...makeFencedWrites(names),
    purgeFinished: makePurgeStatement(names),
  };
}
