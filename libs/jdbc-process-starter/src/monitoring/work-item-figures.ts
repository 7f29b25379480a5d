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

/**
 * The grouped statement behind {@link readWorkItemFigures}. The three statuses are written as ORs,
 * not `status in (…)`: PostgreSQL matches each arm of an OR to the partial index of that status
 * (PENDING, RUNNING, DEAD) and reads only those entries, while an `in` list matches none of them
 * and scans the whole table, SUCCESS rows and all: 150 ms of wall time and three processes' CPU
 * for each read on a million finished items, where the ORs take 2 ms.
 */
export function workItemFiguresStatement() {
  return sql<FigureRow>`
    select tenant, process_type, worker_type, status, count(*) as count,
           extract(epoch from now() - min(run_at) filter (where status = 'PENDING' and run_at <= now()))::double precision as oldest_due_age
      from fw_process_work_item
     where status = 'PENDING' or status = 'RUNNING' or status = 'DEAD'
     group by tenant, process_type, worker_type, status`;
}

/** Reads the work items' figures in one statement (SUCCESS items are not counted, nor read). */
export async function readWorkItemFigures<DB>(database: { db: Kysely<DB> } | Kysely<DB>): Promise<WorkItemFigures> {
  const { rows } = await workItemFiguresStatement().execute(workItemDb(database));
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
