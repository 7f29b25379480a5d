/**
 * Mapping between `fw_crontab` rows and {@link Crontab}, and the errors and checks the crontab
 * reader and writer share.
 */
import type { Selectable } from 'kysely';
import { invalid, TriggerError } from '../errors/trigger-error';
import type { Crontab, TriggerPayload } from '../model/trigger-model';
import type { FwCrontabTable } from '../schema/trigger-tables';

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

/** The crontab a row holds (times as ISO-8601). */
export function toCrontab(row: Selectable<FwCrontabTable>): Crontab {
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

/** True for PostgreSQL's unique violation (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** The DUPLICATE error for a crontab name the tenant already uses. */
export function duplicateCrontabName(name: string): TriggerError {
  return new TriggerError('DUPLICATE', `a crontab named '${name}' already exists`, { field: 'name' });
}

/** The NOT_FOUND error for a crontab id the tenant does not have. */
export function crontabNotFound(id: string): TriggerError {
  return new TriggerError('NOT_FOUND', `no crontab ${id}`, { field: 'id' });
}

/** `enabled` as given, or a VALIDATION error when it is not a boolean. */
export function validateEnabled(enabled: unknown): boolean {
  if (typeof enabled !== 'boolean') throw invalid('enabled', 'enabled must be true or false');
  return enabled;
}
