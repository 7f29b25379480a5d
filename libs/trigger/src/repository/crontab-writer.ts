/**
 * The writing half of the crontab store: validates input (VALIDATION errors), keeps names unique
 * per tenant (DUPLICATE) and records firings. Each change runs in a transaction of its own, in
 * which the caller's `inTransaction` (its audit row) runs too, so both commit or neither does.
 */
import { randomUUID } from 'node:crypto';
import { invalid } from '../errors/trigger-error';
import type { Crontab, CrontabUpdate, NewCrontab, WriteOptions } from '../model/trigger-model';
import {
  isUuid,
  validateCronExpression,
  validateName,
  validatePayload,
  validateTenant,
  validateTimezone,
} from '../model/trigger-validation';
import type { TriggerDb } from '../schema/trigger-tables';
import { crontabNotFound, duplicateCrontabName, isUniqueViolation, toCrontab, validateEnabled } from './crontab-row';

/** The write methods of the crontab store. */
export interface CrontabWriter {
  /** Adds a crontab (VALIDATION error for bad input, DUPLICATE when the tenant has one of that name). */
  add(tenant: string, input: NewCrontab, options?: WriteOptions<Crontab>): Promise<Crontab>;
  /** Changes the given fields (NOT_FOUND outside the tenant, VALIDATION, DUPLICATE on a taken name). */
  update(id: string, tenant: string, changes: CrontabUpdate, options?: WriteOptions<Crontab>): Promise<Crontab>;
  /** Deletes the tenant's crontab; false when there is none with that id in the tenant. */
  remove(id: string, tenant: string, options?: WriteOptions): Promise<boolean>;
  /** Records a firing (`last_fired_at`, `last_scheduled_time`). */
  markFired(id: string, firedAt: Date, scheduledTime: Date): Promise<void>;
}

type CrontabFields = Pick<Crontab, 'name' | 'timezone' | 'cronExpression' | 'enabled' | 'payload'>;

/** The validated fields of a new crontab (VALIDATION error for bad input; time zone UTC and enabled by default). */
function validateNewCrontab(input: NewCrontab): CrontabFields {
  if (typeof input !== 'object' || input === null)
    throw invalid('body', 'a crontab needs name, cronExpression, timezone, enabled and payload');
  const name = validateName(input.name);
  const timezone = validateTimezone(input.timezone ?? 'UTC');
  const cronExpression = validateCronExpression(input.cronExpression, timezone);
  const enabled = validateEnabled(input.enabled ?? true);
  const payload = validatePayload(input.payload);
  return { name, timezone, cronExpression, enabled, payload };
}

/** `current` with the validated `changes` applied (VALIDATION error for a bad change). */
function applyChanges(current: Crontab, changes: CrontabUpdate): CrontabFields {
  if (typeof changes !== 'object' || changes === null) throw invalid('body', 'the changes must be an object');
  const name = changes.name === undefined ? current.name : validateName(changes.name);
  const timezone = changes.timezone === undefined ? current.timezone : validateTimezone(changes.timezone);
  const cronExpression = validateCronExpression(changes.cronExpression ?? current.cronExpression, timezone);
  const enabled = changes.enabled === undefined ? current.enabled : validateEnabled(changes.enabled);
  const payload = changes.payload === undefined ? current.payload : validatePayload(changes.payload);
  return { name, timezone, cronExpression, enabled, payload };
}

async function nameTaken(trx: TriggerDb, tenant: string, name: string, exceptId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('fw_crontab')
    .select('id')
    .where('tenant', '=', tenant)
    .where('name', '=', name)
    .where('id', '<>', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The tenant's crontab, locked until the transaction ends (two partial updates cannot undo each other). */
async function lockedCrontab(trx: TriggerDb, id: string, tenant: string): Promise<Crontab | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await trx
    .selectFrom('fw_crontab')
    .selectAll()
    .where('id', '=', id)
    .where('tenant', '=', tenant)
    .forUpdate()
    .executeTakeFirst();
  return row ? toCrontab(row) : undefined;
}

/** Changes the fields of crontab `id` inside `trx` (the update's transaction). */
async function updateIn(trx: TriggerDb, id: string, tenant: string, changes: CrontabUpdate): Promise<Crontab> {
  const current = await lockedCrontab(trx, id, tenant);
  if (!current) throw crontabNotFound(id);
  const { name, timezone, cronExpression, enabled, payload } = applyChanges(current, changes);
  if (name !== current.name && (await nameTaken(trx, tenant, name, id))) throw duplicateCrontabName(name);
  const row = await trx
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
  if (!row) throw crontabNotFound(id);
  return toCrontab(row);
}

/** Makes the writer over the trigger tables. */
export function makeCrontabWriter(db: TriggerDb): CrontabWriter {
  return {
    async remove(id, tenant, options) {
      if (!isUuid(id)) return false;
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('fw_crontab')
          .where('id', '=', id)
          .where('tenant', '=', tenant)
          .executeTakeFirst();
        const removed = Number(result.numDeletedRows) === 1;
        if (removed) await options?.inTransaction?.(trx);
        return removed;
      });
    },
    async add(tenant, input, options) {
      validateTenant(tenant);
      const { name, timezone, cronExpression, enabled, payload } = validateNewCrontab(input);
      const now = new Date();
      return db.transaction().execute(async (trx) => {
        const row = await trx
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
        if (!row) throw duplicateCrontabName(name);
        const created = toCrontab(row);
        await options?.inTransaction?.(trx, created);
        return created;
      });
    },
    async update(id, tenant, changes, options) {
      try {
        return await db.transaction().execute(async (trx) => {
          const updated = await updateIn(trx, id, tenant, changes);
          await options?.inTransaction?.(trx, updated);
          return updated;
        });
      } catch (error) {
        // A concurrent rename to the same name, caught by the unique index.
        if (isUniqueViolation(error)) throw duplicateCrontabName(String(changes.name));
        throw error;
      }
    },
    async markFired(id, firedAt, scheduledTime) {
      await db
        .updateTable('fw_crontab')
        .set({ last_fired_at: firedAt, last_scheduled_time: scheduledTime })
        .where('id', '=', id)
        .execute();
    },
  };
}
