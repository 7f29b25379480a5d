/**
 * Errors of the trigger layer. A {@link TriggerError} is an `FwError` (so the framework error
 * middleware maps it to its HTTP status) with a `reason` that callers switch on.
 *
 * @example
 * try { await crontabs.add('t1', input); }
 * catch (e) { if (isTriggerError(e) && e.reason === 'DUPLICATE') return reuseExisting(); throw e; }
 */
import { FwError } from '@fw/core';

/** Why a trigger-layer call was refused. */
export type TriggerErrorReason = 'VALIDATION' | 'DUPLICATE' | 'NOT_FOUND' | 'CONFLICT';

/**
 * Sub-error codes (`subErrorCode` of the envelope) owned by the trigger layer: `T` and three
 * digits from `T001`, never an HTTP status (the status is in brackets). The former spellings
 * (`T400`…`T410`) are carried as `legacyCode` for one release.
 */
export const TriggerErrorCodes = {
  /** [400] Invalid input: missing tenant or processDefName, bad cron expression or time zone, bad page. */
  invalid: 'T001', // formerly T400
  /** [404] No crontab with this id in this tenant. */
  notFound: 'T002', // formerly T404
  /** [409] A crontab of this name already exists in this tenant. */
  duplicateName: 'T003', // formerly T409
  /** [409] The trigger id is already logged for another tenant. */
  tenantConflict: 'T004', // formerly T410
} as const;

const STATUS: Record<TriggerErrorReason, number> = { VALIDATION: 400, NOT_FOUND: 404, DUPLICATE: 409, CONFLICT: 409 };
const CODE: Record<TriggerErrorReason, string> = {
  VALIDATION: TriggerErrorCodes.invalid,
  NOT_FOUND: TriggerErrorCodes.notFound,
  DUPLICATE: TriggerErrorCodes.duplicateName,
  CONFLICT: TriggerErrorCodes.tenantConflict,
};

export class TriggerError extends FwError {
  readonly reason: TriggerErrorReason;

  constructor(reason: TriggerErrorReason, message: string, options: { field?: string; cause?: unknown } = {}) {
    super({
      code: STATUS[reason],
      subErrorCode: CODE[reason],
      description: message,
      field: options.field,
      cause: options.cause,
    });
    this.name = 'TriggerError';
    this.reason = reason;
  }
}

/** True for a {@link TriggerError} (also from another copy of this package). */
export function isTriggerError(value: unknown): value is TriggerError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { name?: unknown }).name === 'TriggerError' &&
    typeof (value as { reason?: unknown }).reason === 'string'
  );
}

/** Shorthand for a VALIDATION error on one field. */
export function invalid(field: string, message: string): TriggerError {
  return new TriggerError('VALIDATION', message, { field });
}
