/**
 * The types of a leased queue: what it is made over (table, columns, statuses), a claim, the
 * requests of its statements, and the port with every statement.
 */
import type { QueryExecutorProvider, RawBuilder } from 'kysely';

/** Column names of the lease mechanics (see {@link DEFAULT_LEASE_COLUMNS}). */
export interface LeasedQueueColumns {
  /** Primary key (uuid). */
  id: string;
  status: string;
  /** Attempts made; a claim adds one, a release takes it back. */
  attempts: string;
  maxAttempts: string;
  /** Earliest claim (backoff after a failed attempt). */
  runAt: string;
  lockedBy: string;
  lockedUntil: string;
  /** uuid that fences every write of one claim. */
  claimToken: string;
  lastError: string;
  updatedAt: string;
  /** Set when a row becomes done or DEAD; retention reads it. */
  finishedAt: string;
}

/** The snake_case names used by `fw_process_work_item` and `fw_process_outbox`. */
export const DEFAULT_LEASE_COLUMNS: Readonly<LeasedQueueColumns> = {
  id: 'id',
  status: 'status',
  attempts: 'attempts',
  maxAttempts: 'max_attempts',
  runAt: 'run_at',
  lockedBy: 'locked_by',
  lockedUntil: 'locked_until',
  claimToken: 'claim_token',
  lastError: 'last_error',
  updatedAt: 'updated_at',
  finishedAt: 'finished_at',
};

/** The values stored in the status column. */
export interface LeasedQueueStatuses {
  /** Waiting (claimable once `run_at` has passed). */
  pending: string;
  /** Claimed under a lease (claimable again once `locked_until` has passed). */
  running: string;
  /** Finished successfully (deleted by retention). */
  done: string;
  /** Failed for good (kept: the failure record). */
  dead: string;
}

/** What the queue is made over. Names are validated and quoted; statuses become SQL literals. */
export interface LeasedQueueSpec {
  /** Table name, optionally schema-qualified (`app.job`). */
  table: string;
  statuses: LeasedQueueStatuses;
  /** Column names; each defaults to {@link DEFAULT_LEASE_COLUMNS}. */
  columns?: Partial<LeasedQueueColumns>;
  /** Further columns a claim returns (the payload and the domain's fields), as `row`. */
  returning?: readonly string[];
  /** Claim order (default `[runAt]`). */
  claimOrder?: readonly string[];
  /** Text column that the `partitions` of a claim or purge filter on (e.g. the type). */
  partitionColumn?: string;
  /**
   * A `timestamptz` column each claim sets to `now()`: when the row was last claimed, kept after
   * the lease is gone (`claimed_at - run_at` is the wait from due to claimed). None by default.
   */
  claimedAtColumn?: string;
  /**
   * `'per-row'` (default): every claimed row gets its own token (`gen_random_uuid()`).
   * `'per-claim'`: the rows of one claim share one token, so a group of them is fenced together.
   */
  tokens?: 'per-row' | 'per-claim';
}

/** A held claim: what fences a write. */
export interface Claim {
  readonly id: string;
  readonly claimToken: string;
}

/** A claimed row: the lease fields, and the `returning` columns as `row`. */
export interface LeasedClaim<Row> extends Claim {
  /** Attempts made, this one included. */
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  lockedBy: string;
  lockedUntil: Date;
  /**
   * True when the row came from the expired-lease branch of the claim: it was RUNNING and its
   * holder's lease had run out, so this claim took it over.
   */
  leaseExpired: boolean;
  /** The row as returned (the `returning` columns by name; `lq_*` keys are the lease fields). */
  row: Row;
}

export interface ClaimRequest {
  /** Claimant identity stored in `locked_by`. */
  workerId: string;
  /** Most rows claimed by this statement. */
  limit: number;
  leaseMillis: number;
  /** Only rows whose partition column is one of these (default all). */
  partitions?: readonly string[];
}

/** Rows of another table that belong to a purged row and go with it (for example receipts). */
export interface DependentRows {
  table: string;
  /** Column holding the queue row's id. */
  column: string;
  /**
   * Only rows with one of these values in `column` of the scope: lets an index that leads with it
   * (a primary key `(consumer, command_id)`) serve the delete.
   */
  scope?: { column: string; values: readonly string[] };
}

export interface PurgeRequest {
  /** Done rows finished longer ago than this are deleted. */
  olderThanMillis: number;
  /** Most rows deleted by this statement. */
  limit: number;
  partitions?: readonly string[];
  /** Deleted in the same statement, for the rows purged. */
  dependents?: readonly DependentRows[];
}

export interface DeadOptions {
  /** Keep the lease this long (the holder still has work to do on the DEAD row); default: cleared. */
  keepLeaseMillis?: number;
  /** Further columns to set, e.g. `{ failure_reported_at: sql\`now()\` }`. */
  set?: Readonly<Record<string, RawBuilder<unknown>>>;
}

/**
 * The port: every statement of a leased queue. Each takes the Kysely handle to use (a database or a
 * transaction), so a write can join the caller's transaction.
 */
export interface LeasedQueue<Row> {
  /** Claims up to `limit` due PENDING or lease-expired RUNNING rows in ONE statement (SKIP LOCKED). */
  claim(db: QueryExecutorProvider, request: ClaimRequest): Promise<LeasedClaim<Row>[]>;
  /** Extends the leases of running claims (ONE statement); the ids renewed (a lost claim is absent). */
  renew(db: QueryExecutorProvider, claims: readonly Claim[], leaseMillis: number): Promise<Set<string>>;
  /** RUNNING → done, fenced; `lastError` given: also sets `last_error` (e.g. to null). The ids changed. */
  complete(
    db: QueryExecutorProvider,
    claims: readonly Claim[],
    options?: { lastError?: string | null },
  ): Promise<Set<string>>;
  /** RUNNING → PENDING, claimable again after `delayMillis`; the claim is cleared. The ids changed. */
  retry(db: QueryExecutorProvider, claims: readonly Claim[], error: string, delayMillis: number): Promise<Set<string>>;
  /** RUNNING → DEAD, fenced. The ids changed. */
  dead(db: QueryExecutorProvider, claims: readonly Claim[], error: string, options?: DeadOptions): Promise<Set<string>>;
  /** RUNNING → PENDING now, the interrupted attempt not counted (graceful stop). The ids changed. */
  release(db: QueryExecutorProvider, claims: readonly Claim[]): Promise<Set<string>>;
  /**
   * Deletes up to `limit` done rows finished before `now() - olderThanMillis` (and their
   * dependents) in ONE statement; rows locked by another purge are skipped. The number deleted.
   */
  purgeFinished(db: QueryExecutorProvider, request: PurgeRequest): Promise<number>;
}
