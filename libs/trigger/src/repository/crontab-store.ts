/**
 * Durable crontabs (`fw_crontab`): ProcessCreate schedules per tenant, names unique per tenant.
 * Expressions are validated with croner (six fields, seconds first) in their IANA time zone.
 * After a change, call `CronScheduler.reload()` so the schedule takes effect.
 *
 * @example
 * const crontabs = makeCrontabStore(database);
 * const tab = await crontabs.add('t1', { name: 'nightly', cronExpression: '0 0 2 * * *', timezone: 'Europe/Berlin',
 *   enabled: true, payload: { processDefName: 'nightly-import', args: {} } });
 * await crontabs.update(tab.id, 't1', { enabled: false });
 */
import type { Database } from '@fw/core';
import { sql, type Selectable } from 'kysely';
import { randomUUID } from 'node:crypto';
import { invalid, TriggerError } from '../errors/trigger-error';
import type { Crontab, CrontabUpdate, NewCrontab, Page, PageRequest, TriggerPayload } from '../model/trigger-model';
import {
  isUuid,
  validateCronExpression,
  validateName,
  validatePage,
  validatePayload,
  validateTenant,
  validateTimezone,
} from '../model/trigger-validation';
import { triggerDb, type FwCrontabTable } from '../schema/trigger-tables';
import { emptyPage } from './execution-store';

export interface CrontabStore {
  /** The tenant's crontabs, newest first. */
  list(tenant: string, page: PageRequest): Promise<Page<Crontab>>;
  /** One crontab of the tenant, or undefined. */
  get(id: string, tenant: string): Promise<Crontab | undefined>;
  /** Adds a crontab (VALIDATION error for bad input, DUPLICATE when the tenant has one of that name). */
  add(tenant: string, input: NewCrontab): Promise<Crontab>;
  /** Changes the given fields (NOT_FOUND outside the tenant, VALIDATION, DUPLICATE on a taken name). */
  update(id: string, tenant: string, changes: CrontabUpdate): Promise<Crontab>;
  /** Deletes the tenant's crontab; false when there is none with that id in the tenant. */
  remove(id: string, tenant: string): Promise<boolean>;
  /** Crontabs of every tenant whose payload starts `processDefName` (for the definition's delete). */
  countUsing(processDefName: string): Promise<number>;
  /** Every enabled crontab of every tenant (what a scheduler runs). */
  listEnabled(): Promise<Crontab[]>;
  /** Records a firing (`last_fired_at`, `last_scheduled_time`). */
  markFired(id: string, firedAt: Date, scheduledTime: Date): Promise<void>;
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

function toCrontab(row: Selectable<FwCrontabTable>): Crontab {
  return {
    id: row.id,
    tenant: row.tenant,
    name: row.name,
    cronExpression: row.cron_expression,
    timezone: row.timezone,
    enabled: row.enabled,
    payload: row.payload as TriggerPayload,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    lastFiredAt: iso(row.last_fired_at),
    lastScheduledTime: iso(row.last_scheduled_time),
  };
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

function duplicate(name: string): TriggerError {
  return new TriggerError('DUPLICATE', `a crontab named '${name}' already exists`, { field: 'name' });
}

function validateEnabled(enabled: unknown): boolean {
  if (typeof enabled !== 'boolean') throw invalid('enabled', 'enabled must be true or false');
  return enabled;
}

/** Makes the store over the trigger tables of `database`. */
export function makeCrontabStore(database: Pick<Database, 'db'>): CrontabStore {
  const db = triggerDb(database);

  async function nameTaken(tenant: string, name: string, exceptId?: string): Promise<boolean> {
    let query = db.selectFrom('fw_crontab').select('id').where('tenant', '=', tenant).where('name', '=', name);
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  const store: CrontabStore = {
    async list(tenant, pageRequest) {
      const page = validatePage(pageRequest);
      validateTenant(tenant);
      const count = await db
        .selectFrom('fw_crontab')
        .where('tenant', '=', tenant)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      const totalElements = Number(count.n);
      if (totalElements === 0) return emptyPage(page);
      const rows = await db
        .selectFrom('fw_crontab')
        .selectAll()
        .where('tenant', '=', tenant)
        .orderBy('seq', 'desc')
        .limit(page.size)
        .offset(page.page * page.size)
        .execute();
      return {
        content: rows.map(toCrontab),
        totalElements,
        page: page.page,
        size: page.size,
        totalPages: Math.ceil(totalElements / page.size),
      };
    },
    async remove(id, tenant) {
      if (!isUuid(id)) return false;
      const result = await db
        .deleteFrom('fw_crontab')
        .where('id', '=', id)
        .where('tenant', '=', tenant)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
    async countUsing(processDefName) {
      const row = await db
        .selectFrom('fw_crontab')
        .where(sql<boolean>`payload->>'processDefName' = ${processDefName}`)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async get(id, tenant) {
      if (!isUuid(id)) return undefined;
      const row = await db
        .selectFrom('fw_crontab')
        .selectAll()
        .where('id', '=', id)
        .where('tenant', '=', tenant)
        .executeTakeFirst();
      return row ? toCrontab(row) : undefined;
    },
    async add(tenant, input) {
      validateTenant(tenant);
      if (typeof input !== 'object' || input === null)
        throw invalid('body', 'a crontab needs name, cronExpression, timezone, enabled and payload');
      const name = validateName(input.name);
      const timezone = validateTimezone(input.timezone ?? 'UTC');
      const cronExpression = validateCronExpression(input.cronExpression, timezone);
      const enabled = validateEnabled(input.enabled ?? true);
      const payload = validatePayload(input.payload);
      const now = new Date();
      const row = await db
        .insertInto('fw_crontab')
        .values({
          id: randomUUID(),
          tenant,
          name,
          cron_expression: cronExpression,
          timezone,
          enabled,
          payload: JSON.stringify(payload),
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(['tenant', 'name']).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!row) throw duplicate(name);
      return toCrontab(row);
    },
    async update(id, tenant, changes) {
      const current = await store.get(id, tenant);
      if (!current) throw new TriggerError('NOT_FOUND', `no crontab ${id}`, { field: 'id' });
      if (typeof changes !== 'object' || changes === null) throw invalid('body', 'the changes must be an object');
      const name = changes.name === undefined ? current.name : validateName(changes.name);
      const timezone = changes.timezone === undefined ? current.timezone : validateTimezone(changes.timezone);
      const cronExpression = validateCronExpression(changes.cronExpression ?? current.cronExpression, timezone);
      const enabled = changes.enabled === undefined ? current.enabled : validateEnabled(changes.enabled);
      const payload = changes.payload === undefined ? current.payload : validatePayload(changes.payload);
      if (name !== current.name && (await nameTaken(tenant, name, id))) throw duplicate(name);
      try {
        const row = await db
          .updateTable('fw_crontab')
          .set({
            name,
            timezone,
            cron_expression: cronExpression,
            enabled,
            payload: JSON.stringify(payload),
            updated_at: new Date(),
          })
          .where('id', '=', id)
          .where('tenant', '=', tenant)
          .returningAll()
          .executeTakeFirst();
        if (!row) throw new TriggerError('NOT_FOUND', `no crontab ${id}`, { field: 'id' });
        return toCrontab(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate(name);
        throw error;
      }
    },
    async listEnabled() {
      const rows = await db
        .selectFrom('fw_crontab')
        .selectAll()
        .where('enabled', '=', true)
        .orderBy('seq', 'asc')
        .execute();
      return rows.map(toCrontab);
    },
    async markFired(id, firedAt, scheduledTime) {
      await db
        .updateTable('fw_crontab')
        .set({ last_fired_at: firedAt, last_scheduled_time: scheduledTime })
        .where('id', '=', id)
        .execute();
    },
  };
  return store;
}
