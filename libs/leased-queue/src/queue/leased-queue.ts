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
import { sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import { randomUUID } from 'node:crypto';

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

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const STATUS = /^[A-Za-z0-9_-]+$/;

function quote(name: string, what: string): string {
  const parts = name.split('.');
  if (parts.length > 2 || !parts.every((p) => IDENTIFIER.test(p)))
    throw new TypeError(`leased queue: ${what} '${name}' is not a plain SQL identifier`);
  return parts.map((p) => `"${p}"`).join('.');
}

function literal(value: string, what: string): string {
  if (!STATUS.test(value))
    throw new TypeError(`leased queue: status ${what} '${value}' may only use letters, digits, '_' and '-'`);
  return `'${value}'`;
}

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
    row,
  };
}

/** Makes the statements of one queue table (validated once; stateless afterwards). */
export function makeLeasedQueue<Row extends object = Record<string, unknown>>(spec: LeasedQueueSpec): LeasedQueue<Row> {
  const c = { ...DEFAULT_LEASE_COLUMNS, ...spec.columns };
  const q = Object.fromEntries(
    Object.entries(c).map(([k, v]) => [k, quote(v, `column ${k}`)]),
  ) as unknown as LeasedQueueColumns;
  const table = quote(spec.table, 'table');
  const s = {
    pending: literal(spec.statuses.pending, 'pending'),
    running: literal(spec.statuses.running, 'running'),
    done: literal(spec.statuses.done, 'done'),
    dead: literal(spec.statuses.dead, 'dead'),
  };
  const partition = spec.partitionColumn === undefined ? undefined : quote(spec.partitionColumn, 'partition column');
  const order = (spec.claimOrder ?? [c.runAt]).map((o) => quote(o, 'claim order column')).join(', ');
  const extra = (spec.returning ?? []).map((r) => `, ${quote(r, 'returning column')}`).join('');
  const perClaimToken = spec.tokens === 'per-claim';
  const raw = sql.raw;

  // Fixed SQL text, built once: only values travel as parameters.
  const claimSet = raw(`update ${table} set ${q.status} = ${s.running}, ${q.lockedBy} = `);
  // The due rows come from two index-friendly scans (expired leases first: they are few, and
  // must not starve behind a long backlog; then due PENDING rows in claim order), and the update
  // finds them through the primary key (`= any(array(…))`). One OR-ed scan with `where id in (…)`
  // made PostgreSQL read and sort every PENDING row, and hash the whole table, on every claim.
  const claimDue = raw(
    `, ${q.attempts} = ${q.attempts} + 1, ${q.updatedAt} = now() where ${q.id} = any(array(select lq_due.lq_id from (` +
      `select lq_expired.${q.id} as lq_id from (select ${q.id} from ${table} where ${q.status} = ${s.running} and ${q.lockedUntil} < now()`,
  );
  const claimExpiredTail = raw(` order by ${q.lockedUntil} for update skip locked limit `);
  const claimPending = raw(
    `) as lq_expired union all select lq_pending.${q.id} from (select ${q.id} from ${table} where ${q.status} = ${s.pending} and ${q.runAt} <= now()`,
  );
  const claimTail = raw(` order by ${order} for update skip locked limit `);
  // (UNION does not take FOR UPDATE, so each locking scan is a sub-select of its own.)
  const claimClose = raw(`) as lq_pending) as lq_due limit `);
  const claimReturning = raw(
    `)) returning ${q.id} as lq_id, ${q.claimToken} as lq_claim_token, ${q.attempts} as lq_attempts, ${q.maxAttempts} as lq_max_attempts, ` +
      `${q.lastError} as lq_last_error, ${q.lockedBy} as lq_locked_by, ${q.lockedUntil} as lq_locked_until${extra}`,
  );
  // Fenced writes find their rows through the primary key and check each row's token by its
  // position in the arrays (no join with unnest: with stale statistics PostgreSQL nested-looped it
  // over every RUNNING row).
  const fencedHead = raw(`update ${table} as lq set `);
  const fencedIds = raw(` where lq.${q.id} = any(`);
  const fencedToken = raw(`::uuid[]) and lq.${q.claimToken} = (`);
  const fencedPosition = raw(`::uuid[])[array_position(`);
  const fencedWhere = raw(`::uuid[], lq.${q.id})] and lq.${q.status} = ${s.running} returning lq.${q.id} as id`);

  const partitionFilter = (partitions: readonly string[] | undefined) =>
    partitions === undefined || partition === undefined
      ? sql``
      : sql` and ${raw(partition)} = any(${[...partitions]}::text[])`;

  /** ONE `update … where id = any(ids)` fenced by each row's token and the RUNNING status. */
  async function fenced(
    db: QueryExecutorProvider,
    claims: readonly Claim[],
    set: RawBuilder<unknown>,
  ): Promise<Set<string>> {
    const changed = new Set<string>();
    if (claims.length === 0) return changed;
    const ids = claims.map((x) => x.id);
    const tokens = claims.map((x) => x.claimToken);
    const result = await sql<{
      id: string;
    }>`${fencedHead}${set}${fencedIds}${ids}${fencedToken}${tokens}${fencedPosition}${ids}${fencedWhere}`.execute(db);
    for (const row of result.rows) changed.add(row.id);
    return changed;
  }

  const clearClaim = raw(
    `${q.lockedBy} = null, ${q.lockedUntil} = null, ${q.claimToken} = null, ${q.updatedAt} = now()`,
  );
  const finish = raw(`${q.lockedUntil} = null, ${q.finishedAt} = now(), ${q.updatedAt} = now()`);

  return {
    async claim(db, request) {
      const token = perClaimToken ? sql`${randomUUID()}::uuid` : sql`gen_random_uuid()`;
      const result = await sql<
        LeaseFields & Row
      >`${claimSet}${request.workerId}, ${raw(q.lockedUntil)} = ${nowPlusMillis(request.leaseMillis)}, ${raw(q.claimToken)} = ${token}${claimDue}${partitionFilter(request.partitions)}${claimExpiredTail}${request.limit}${claimPending}${partitionFilter(request.partitions)}${claimTail}${request.limit}${claimClose}${request.limit}${claimReturning}`.execute(
        db,
      );
      return result.rows.map(leasedClaimOf);
    },

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

    async purgeFinished(db, request) {
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
             where ${raw(q.status)} = ${raw(s.done)} and ${raw(q.finishedAt)} < now() - (${Math.max(0, Math.round(request.olderThanMillis))}::double precision * interval '1 millisecond')${partitionFilter(request.partitions)}
             limit ${request.limit} for update skip locked)
          returning ${raw(q.id)} as id)${sql.join(dependents, sql``)}
        select count(*) as purged from lq_gone`.execute(db);
      return Number(result.rows[0]?.purged ?? 0);
    },
  };
}
