/**
 * A queue spec compiled into SQL text once: the table, every lease column quoted, the status
 * literals, the partition column and its filter.
 */
import { sql, type RawBuilder } from 'kysely';
import { DEFAULT_LEASE_COLUMNS, type LeasedQueueColumns, type LeasedQueueSpec } from './leased-queue-types';
import { literal, quote } from './sql-names';

/** The status values as SQL literals (`'RUNNING'`). */
export interface StatusLiterals {
  pending: string;
  running: string;
  done: string;
  dead: string;
}

/** What a spec compiles to. */
export interface QueueNames {
  /** The column names as given (or defaulted). */
  columns: LeasedQueueColumns;
  /** The column names quoted. */
  q: LeasedQueueColumns;
  /** The table name quoted. */
  table: string;
  s: StatusLiterals;
  /** The status values as given. */
  statuses: LeasedQueueSpec['statuses'];
  /** `and <partition column> = any($partitions)`, or nothing (no partitions, or no partition column). */
  partitionFilter(partitions: readonly string[] | undefined): RawBuilder<unknown>;
}

/** `and <column> = any($partitions::text[])`, or nothing when either is undefined. */
export function partitionFilterOf(
  column: string | undefined,
  partitions: readonly string[] | undefined,
): RawBuilder<unknown> {
  return partitions === undefined || column === undefined
    ? sql``
    : sql` and ${sql.raw(column)} = any(${[...partitions]}::text[])`;
}

/** Validates and quotes a spec's names; throws `TypeError` naming the first that is not plain. */
export function compileQueueNames(
  spec: Pick<LeasedQueueSpec, 'table' | 'statuses' | 'columns' | 'partitionColumn'>,
): QueueNames {
  const columns = { ...DEFAULT_LEASE_COLUMNS, ...spec.columns };
  const q = Object.fromEntries(
    Object.entries(columns).map(([k, v]) => [k, quote(v, `column ${k}`)]),
  ) as unknown as LeasedQueueColumns;
  const table = quote(spec.table, 'table');
  const s = {
    pending: literal(spec.statuses.pending, 'pending'),
    running: literal(spec.statuses.running, 'running'),
    done: literal(spec.statuses.done, 'done'),
    dead: literal(spec.statuses.dead, 'dead'),
  };
  const partition = spec.partitionColumn === undefined ? undefined : quote(spec.partitionColumn, 'partition column');
  return {
    columns,
    q,
    table,
    s,
    statuses: spec.statuses,
    partitionFilter: (partitions) => partitionFilterOf(partition, partitions),
  };
}
