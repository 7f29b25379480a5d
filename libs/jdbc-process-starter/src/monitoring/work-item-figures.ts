/**
 * The work items' part of the database-backed gauges of `@fw/telemetry`: `fw_work_items` (by
 * tenant, process type, worker type and status) and `fw_work_item_oldest_due_age_seconds`, from
 * ONE grouped statement on the database clock; and {@link makeQueueFiguresReader}, which adds the
 * outbox's figures for a whole `QueueFiguresReader`. Read them through `makeCachedGaugeSource`,
 * never per series or per scrape.
 *
 * @example
 * const metrics = makeFwMetrics(undefined, { gaugeSource: makeCachedGaugeSource(makeQueueFiguresReader(database)) });
 */
import { readOutboxFigures } from '@fw/process-outbox';
import type { QueueFigures, QueueFiguresReader, QueueStatus } from '@fw/telemetry';
import { sql, type Kysely } from 'kysely';
import { workItemDb } from '../schema/work-item-tables';

/** The work items' figures: what `fw_work_items` and `fw_work_item_oldest_due_age_seconds` show. */
export type WorkItemFigures = Pick<QueueFigures, 'workItems' | 'oldestDueWorkItems'>;

interface FigureRow {
  tenant: string | null;
  process_type: string;
  worker_type: string;
  status: QueueStatus;
  count: string | number;
  oldest_due_age: string | number | null;
}

/** Reads the work items' figures in one statement (SUCCESS items are not counted). */
export async function readWorkItemFigures<DB>(database: { db: Kysely<DB> } | Kysely<DB>): Promise<WorkItemFigures> {
  const { rows } = await sql<FigureRow>`
    select tenant, process_type, worker_type, status, count(*) as count,
           extract(epoch from now() - min(run_at) filter (where status = 'PENDING' and run_at <= now()))::double precision as oldest_due_age
      from fw_process_work_item
     where status in ('PENDING', 'RUNNING', 'DEAD')
     group by tenant, process_type, worker_type, status`.execute(workItemDb(database));
  const figures: WorkItemFigures = { workItems: [], oldestDueWorkItems: [] };
  for (const row of rows) {
    const group = { tenant: row.tenant, processType: row.process_type, workerType: row.worker_type };
    figures.workItems.push({ ...group, status: row.status, count: Number(row.count) });
    if (row.status === 'PENDING' && row.oldest_due_age !== null)
      figures.oldestDueWorkItems.push({ ...group, ageSeconds: Math.max(0, Number(row.oldest_due_age)) });
  }
  return figures;
}

/** Every gauge figure of a process database: its work items and its outbox, read side by side. */
export function makeQueueFiguresReader<DB>(database: { db: Kysely<DB> } | Kysely<DB>): QueueFiguresReader {
  return {
    async readFigures() {
      const [workItems, outbox] = await Promise.all([readWorkItemFigures(database), readOutboxFigures(database)]);
      return { ...workItems, ...outbox };
    },
  };
}
