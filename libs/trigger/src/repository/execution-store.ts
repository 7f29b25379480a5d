/**
 * Execution history (`fw_trigger_execution`): one row per accepted dispatch, written RUNNING
 * before the dispatch and finished COMPLETED or FAILED after it. Lists are tenant-scoped and
 * newest first.
 *
 * @example
 * const executions = makeExecutionStore(triggerDb(database));
 * const page = await executions.list({ tenant: 't1', status: 'FAILED' }, { page: 0, size: 25 });
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { FwTriggerExecutionTable, TriggerTables } from '../schema/trigger-tables';
import type {
  ExecutionFilter,
  Page,
  PageRequest,
  TriggerExecution,
  TriggerExecutionStatus,
  TriggerPayload,
  TriggerSource,
} from '../model/trigger-model';
import { isUuid, validatePage, validateTenant } from '../model/trigger-validation';

export interface NewExecution {
  id: string;
  triggerId: string;
  tenant: string;
  source: TriggerSource;
  scheduledTime: Date | null;
  receivedTime: Date;
  startTime: Date;
  eventName: string;
  payload: TriggerPayload;
  cronId: string | null;
  logId: string;
  eventId: string;
}

export interface ExecutionOutcome {
  status: Exclude<TriggerExecutionStatus, 'RUNNING'>;
  finishTime: Date;
  processId?: string | null;
  failureMessage?: string | null;
  failureStack?: string | null;
}

export interface ExecutionStore {
  /** Writes the RUNNING row. */
  insertRunning(execution: NewExecution): Promise<void>;
  /** Records how the dispatch ended. */
  finish(id: string, outcome: ExecutionOutcome): Promise<void>;
  /** One execution of the tenant, or undefined. */
  get(id: string, tenant: string): Promise<TriggerExecution | undefined>;
  /** The tenant's executions matching every given filter, newest first. */
  list(filter: ExecutionFilter, page: PageRequest): Promise<Page<TriggerExecution>>;
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

function toExecution(row: Selectable<FwTriggerExecutionTable>): TriggerExecution {
  return {
    id: row.id,
    triggerId: row.trigger_id,
    tenant: row.tenant,
    source: row.source as TriggerSource,
    scheduledTime: iso(row.scheduled_time),
    receivedTime: row.received_time.toISOString(),
    startTime: iso(row.start_time),
    finishTime: iso(row.finish_time),
    eventName: row.event_name,
    payload: row.payload as TriggerPayload,
    status: row.status as TriggerExecutionStatus,
    failureMessage: row.failure_message,
    failureStack: row.failure_stack,
    cronId: row.cron_id,
    processId: row.process_id,
    logId: row.log_id,
    eventId: row.event_id,
  };
}

/** An empty page (for filters that can match nothing, such as a crontab id that is no UUID). */
export function emptyPage<T>(page: PageRequest): Page<T> {
  return { content: [], totalElements: 0, page: page.page, size: page.size, totalPages: 0 };
}

/** Makes the store over a Kysely handle. */
export function makeExecutionStore(db: Kysely<TriggerTables>): ExecutionStore {
  return {
    async insertRunning(e) {
      await db
        .insertInto('fw_trigger_execution')
        .values({
          id: e.id,
          trigger_id: e.triggerId,
          tenant: e.tenant,
          source: e.source,
          scheduled_time: e.scheduledTime,
          received_time: e.receivedTime,
          start_time: e.startTime,
          finish_time: null,
          event_name: e.eventName,
          payload: JSON.stringify(e.payload),
          status: 'RUNNING',
          failure_message: null,
          failure_stack: null,
          cron_id: e.cronId,
          process_id: null,
          log_id: e.logId,
          event_id: e.eventId,
        })
        .execute();
    },
    async finish(id, o) {
      await db
        .updateTable('fw_trigger_execution')
        .set({
          status: o.status,
          finish_time: o.finishTime,
          process_id: o.processId ?? null,
          failure_message: o.failureMessage ?? null,
          failure_stack: o.failureStack ?? null,
        })
        .where('id', '=', id)
        .execute();
    },
    async get(id, tenant) {
      if (!isUuid(id)) return undefined;
      const row = await db
        .selectFrom('fw_trigger_execution')
        .selectAll()
        .where('id', '=', id)
        .where('tenant', '=', tenant)
        .executeTakeFirst();
      return row ? toExecution(row) : undefined;
    },
    async list(filter, pageRequest) {
      const page = validatePage(pageRequest);
      const tenant = validateTenant(filter.tenant);
      if (filter.crontabId !== undefined && !isUuid(filter.crontabId)) return emptyPage(page);
      let query = db.selectFrom('fw_trigger_execution').where('tenant', '=', tenant);
      if (filter.triggerId !== undefined) query = query.where('trigger_id', '=', filter.triggerId);
      if (filter.crontabId !== undefined) query = query.where('cron_id', '=', filter.crontabId);
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      if (filter.source !== undefined) query = query.where('source', '=', filter.source);
      if (filter.processType !== undefined)
        query = query.where(sql<string>`payload->>'processDefName'`, '=', filter.processType);
      const count = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      const totalElements = Number(count.n);
      const rows = await query
        .selectAll()
        .orderBy('seq', 'desc')
        .limit(page.size)
        .offset(page.page * page.size)
        .execute();
      return {
        content: rows.map(toExecution),
        totalElements,
        page: page.page,
        size: page.size,
        totalPages: Math.ceil(totalElements / page.size),
      };
    },
  };
}
