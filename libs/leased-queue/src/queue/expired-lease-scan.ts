/**
 * The expired-lease branch of a claim: running rows whose lease has run out, oldest lease first,
 * locked with `for update skip locked`, at most `limit`. A claim takes these before anything new
 * (a crashed holder's work comes back first; there are few of them, so they must not starve behind
 * a long backlog). The queue's own claim and claim statements written elsewhere (the fair claim of
 * the work-item runner) use this one builder, so both read the lease index the same way.
 *
 * @example
 * const expired = makeExpiredLeaseScan({ table: 'job', running: 'RUNNING', partitionColumn: 'type' });
 * sql`… where id = any(array(select id from (${expired({ limit: 50 })}) as e union all …))`;
 */
import { sql, type RawBuilder } from 'kysely';
import { DEFAULT_LEASE_COLUMNS, type LeasedQueueColumns } from './leased-queue-types';
import { partitionFilterOf } from './queue-names';
import { literal, quote } from './sql-names';

/** The table and names the scan reads (validated and quoted once). */
export interface ExpiredLeaseScanSpec {
  /** Table name, optionally schema-qualified. */
  table: string;
  /** The running status value. */
  running: string;
  /** Column names; each defaults to {@link DEFAULT_LEASE_COLUMNS}. */
  columns?: Partial<Pick<LeasedQueueColumns, 'id' | 'status' | 'lockedUntil'>>;
  /** Text column that the `partitions` of a scan filter on. */
  partitionColumn?: string;
}

export interface ExpiredLeaseScanRequest {
  /** Most rows. */
  limit: number;
  /** Only rows whose partition column is one of these (default all). */
  partitions?: readonly string[];
}

/**
 * `select <id> from <table> where <status> = <running> and <locked_until> < now() [and <partition> =
 * any($partitions)] order by <locked_until> for update skip locked limit $limit` — a sub-select
 * for a claim (UNION does not take FOR UPDATE, so it needs a sub-select of its own).
 */
export type ExpiredLeaseScan = (request: ExpiredLeaseScanRequest) => RawBuilder<unknown>;

/** Makes the scan of one table; throws `TypeError` for a name that is not a plain identifier. */
export function makeExpiredLeaseScan(spec: ExpiredLeaseScanSpec): ExpiredLeaseScan {
  const id = quote(spec.columns?.id ?? DEFAULT_LEASE_COLUMNS.id, 'column id');
  const status = quote(spec.columns?.status ?? DEFAULT_LEASE_COLUMNS.status, 'column status');
  const lockedUntil = quote(spec.columns?.lockedUntil ?? DEFAULT_LEASE_COLUMNS.lockedUntil, 'column lockedUntil');
  const partition = spec.partitionColumn === undefined ? undefined : quote(spec.partitionColumn, 'partition column');
  const head = sql.raw(
    `select ${id} from ${quote(spec.table, 'table')} where ${status} = ${literal(spec.running, 'running')} and ${lockedUntil} < now()`,
  );
  const tail = sql.raw(` order by ${lockedUntil} for update skip locked limit `);
  return (request) => sql`${head}${partitionFilterOf(partition, request.partitions)}${tail}${request.limit}`;
}
