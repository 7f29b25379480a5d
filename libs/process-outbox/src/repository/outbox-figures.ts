/**
 * The outbox's part of the database-backed gauges of `@fw/telemetry`: `fw_outbox_commands` (by
 * tenant and status) and `fw_outbox_lag_seconds` (age of the oldest due PENDING command, per
 * tenant), from ONE grouped statement on the database clock. Read it through
 * `makeCachedGaugeSource`, never per series or per scrape.
 *
 * @example
 * const figures = await readOutboxFigures(database);
 * // { outboxCommands: [{ tenant: 'acme', status: 'PENDING', count: 3 }], outboxLag: [{ tenant: 'acme', ageSeconds: 1.2 }] }
 */
import type { QueueFigures, QueueStatus } from '@fw/telemetry';
import { sql, type Kysely } from 'kysely';
import { outboxDb } from '../schema/outbox-tables';

/** The outbox's figures: what `fw_outbox_commands` and `fw_outbox_lag_seconds` show. */
export type OutboxFigures = Pick<QueueFigures, 'outboxCommands' | 'outboxLag'>;

interface FigureRow {
  tenant: string | null;
  status: QueueStatus;
  count: string | number;
  oldest_due_age: string | number | null;
}

/**
 * The grouped statement behind {@link readOutboxFigures}. The statuses are ORs, not `status in
 * (…)`, so that PostgreSQL reads the partial index of each (PENDING, RUNNING, DEAD) instead of
 * scanning every DONE command the table still holds.
 */
export function outboxFiguresStatement() {
  return sql<FigureRow>`
    select tenant, status, count(*) as count,
           extract(epoch from now() - min(run_at) filter (where status = 'PENDING' and run_at <= now()))::double precision as oldest_due_age
      from fw_process_outbox
     where status = 'PENDING' or status = 'RUNNING' or status = 'DEAD'
     group by tenant, status`;
}

/** Reads the outbox's figures in one statement (DONE commands are not counted, nor read). */
export async function readOutboxFigures<DB>(database: { db: Kysely<DB> } | Kysely<DB>): Promise<OutboxFigures> {
  const { rows } = await outboxFiguresStatement().execute(outboxDb(database));
  const figures: OutboxFigures = { outboxCommands: [], outboxLag: [] };
  for (const row of rows) {
    figures.outboxCommands.push({ tenant: row.tenant, status: row.status, count: Number(row.count) });
    if (row.status === 'PENDING' && row.oldest_due_age !== null)
      figures.outboxLag.push({ tenant: row.tenant, ageSeconds: Math.max(0, Number(row.oldest_due_age)) });
  }
  return figures;
}
