/**
 * Reading request values of the administration API: the tenant header, query filters and small
 * body checks, each failing with a 400 `{ message }` naming the field.
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

/** A single-valued optional query parameter (400 when repeated or empty). */
export function optionalQuery(query: Record<string, unknown>, name: string): string | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw badRequest(`Query parameter '${name}' must be given once, as text`);
  if (raw === '') throw badRequest(`Query parameter '${name}' must not be empty`);
  return raw;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body as an object (400 otherwise). */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw badRequest('The request body must be a JSON object');
  return body;
}

/** `payload: { processDefName, args }` of triggers and crontabs. */
export function parseTriggerPayload(value: unknown, field = 'payload'): TriggerPayload {
  if (!isRecord(value)) throw badRequest(`'${field}' must be an object with processDefName and args`);
  const name = value.processDefName;
  if (typeof name !== 'string' || name.trim() === '') throw badRequest(`'${field}.processDefName' must be a non-empty string`);
  const args = value.args;
  if (args !== undefined && args !== null && !isRecord(args)) throw badRequest(`'${field}.args' must be an object`);
  return { processDefName: name, args: isRecord(args) ? args : {} };
}

export function requiredString(body: Record<string, unknown>, field: string, maxLength = 200): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') throw badRequest(`'${field}' must be a non-empty string`);
  if (value.length > maxLength) throw badRequest(`'${field}' must be at most ${maxLength} characters`);
  return value;
}

export function requiredBoolean(body: Record<string, unknown>, field: string): boolean {
  const value = body[field];
  if (typeof value !== 'boolean') throw badRequest(`'${field}' must be true or false`);
  return value;
}
