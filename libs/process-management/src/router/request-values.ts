/**
 * Reading request values of the administration API: the tenant header, the query filters and the
 * shapes of the bodies (which the operation binding has checked against their schemas).
 *
 * @example
 * router.use(requireTenant());
 * const tenant = tenantOf(res);
 * const status = optionalQuery(req.query, 'status');
 */
import { TENANT_HEADER, TENANT_ID_PATTERN } from '@fw/core';
import type { RequestHandler, Response } from 'express';
import { badRequest } from '../http/management-errors';
import type { TriggerPayload } from '../ports/management-ports';

const TENANT_LOCAL = 'fwManagementTenant';

/** 400 unless `x-fw-tenant-id` matches `[A-Za-z0-9_.-]{1,128}`; stores the tenant for {@link tenantOf}. */
export function requireTenant(): RequestHandler {
  return (req, res, next) => {
    const raw = req.headers[TENANT_HEADER];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined || value === '') {
      next(badRequest(`Missing header ${TENANT_HEADER}`));
      return;
    }
    if (!TENANT_ID_PATTERN.test(value)) {
      next(badRequest(`Header ${TENANT_HEADER} must match [A-Za-z0-9_.-]{1,128}`));
      return;
    }
    res.locals[TENANT_LOCAL] = value;
    next();
  };
}

/** The tenant checked by {@link requireTenant}. */
export function tenantOf(res: Response): string {
  const tenant: unknown = res.locals[TENANT_LOCAL];
  if (typeof tenant !== 'string') throw new Error('requireTenant() did not run before this handler');
  return tenant;
}

/**
 * A query parameter the operation declares, already checked against its schema (a single,
 * non-empty text) by the operation binding; undefined when absent.
 */
export function optionalQuery(query: Record<string, unknown>, name: string): string | undefined {
  const raw = query[name];
  return typeof raw === 'string' ? raw : undefined;
}

/** `payload` of POST /triggers and of crontab writes, as TriggerPayloadInput admits it. */
export interface TriggerPayloadBody {
  processDefName: string;
  args?: Record<string, unknown> | null;
  description?: string | null;
}

/** POST /triggers, as TriggerRequest admits it. */
export interface TriggerBody {
  triggerId?: string | null;
  payload: TriggerPayloadBody;
}

/** POST and PUT /crontabs, as CrontabInput / CrontabUpdate admit them. */
export interface CrontabBody {
  name?: string;
  cronExpression?: string;
  timezone?: string;
  enabled?: boolean;
  payload?: TriggerPayloadBody;
}

/** The payload as it is dispatched and stored: `args` always an object, no null description. */
export function triggerPayloadOf(body: TriggerPayloadBody): TriggerPayload {
  return {
    processDefName: body.processDefName,
    args: body.args ?? {},
    ...(typeof body.description === 'string' ? { description: body.description } : {}),
  };
}
