/**
 * Input checks shared by the stores, the service and the router. Each throws a VALIDATION
 * {@link TriggerError} naming the field.
 *
 * @example
 * const payload = validatePayload(body.payload); // throws T001 when processDefName is missing
 */
import { TENANT_ID_PATTERN } from '@fw/core';
import { Cron } from 'croner';
import { invalid } from '../errors/trigger-error';
import { MAX_PAGE_SIZE, type PageRequest, type TriggerPayload } from './trigger-model';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID in its textual form (ids of executions and crontabs). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function validateTenant(tenant: unknown): string {
  if (typeof tenant !== 'string' || !TENANT_ID_PATTERN.test(tenant)) {
    throw invalid('tenant', 'tenant must match [A-Za-z0-9_.-]{1,128}');
  }
  return tenant;
}

/** A ProcessCreate payload: `processDefName` required, `args` an object, `description` a string. */
export function validatePayload(payload: unknown, field = 'payload'): TriggerPayload {
  if (!isPlainObject(payload)) throw invalid(field, `${field} must be an object with processDefName`);
  const { processDefName, args, description } = payload;
  if (typeof processDefName !== 'string' || processDefName.trim() === '') {
    throw invalid(`${field}.processDefName`, `${field}.processDefName is required`);
  }
  if (args !== undefined && args !== null && !isPlainObject(args))
    throw invalid(`${field}.args`, `${field}.args must be an object`);
  if (description !== undefined && description !== null && typeof description !== 'string') {
    throw invalid(`${field}.description`, `${field}.description must be a string`);
  }
  return {
    processDefName,
    ...(isPlainObject(args) ? { args } : {}),
    ...(typeof description === 'string' ? { description } : {}),
  };
}

/** An IANA time zone name that this runtime knows (for example `Europe/Berlin`, `UTC`). */
export function validateTimezone(timezone: unknown): string {
  if (typeof timezone !== 'string' || timezone.trim() === '')
    throw invalid('timezone', 'timezone must be an IANA time zone name such as Europe/Berlin');
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw invalid(
      'timezone',
      `timezone '${timezone}' is not a known IANA time zone (for example Europe/Berlin or UTC)`,
    );
  }
  return timezone;
}

/**
 * A croner expression with exactly six fields, seconds first (`sec min hour day month weekday`).
 * Returns the expression with its fields separated by single spaces.
 */
export function validateCronExpression(expression: unknown, timezone = 'UTC'): string {
  if (typeof expression !== 'string' || expression.trim() === '') {
    throw invalid(
      'cronExpression',
      'cronExpression is required: six fields, seconds first (for example "0 */5 * * * *")',
    );
  }
  const normalized = expression.trim().split(/\s+/).join(' ');
  const fields = normalized.split(' ').length;
  if (fields !== 6) {
    throw invalid(
      'cronExpression',
      `cronExpression '${expression}' has ${fields} field(s); six are required, seconds first (for example "0 */5 * * * *")`,
    );
  }
  try {
    new Cron(normalized, { timezone, mode: '6-part', paused: true });
  } catch (e) {
    const reason = e instanceof Error ? e.message.replace(/^CronPattern:\s*/, '') : String(e);
    throw invalid('cronExpression', `cronExpression '${expression}' is not valid: ${reason}`);
  }
  return normalized;
}

/** A crontab name: 1..200 characters. */
export function validateName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw invalid('name', 'name is required');
  if (name.length > 200) throw invalid('name', 'name must be at most 200 characters');
  if (name.trim() !== name) throw invalid('name', 'name must not start or end with blanks');
  return name;
}

/** A page request: `page` ≥ 0, `size` 1..100 (integers). */
export function validatePage(page: PageRequest): PageRequest {
  if (!Number.isInteger(page.page) || page.page < 0) throw invalid('page', 'page must be an integer ≥ 0');
  if (!Number.isInteger(page.size) || page.size < 1 || page.size > MAX_PAGE_SIZE)
    throw invalid('size', `size must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  return page;
}
