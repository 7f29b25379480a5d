import type { RequestHandler } from 'express';
import { runWithContext, TENANT_HEADER } from '../tenant/tenant-context';

/**
 * Express middleware that puts `x-fw-tenant-id` (and every other `x-fw-*` header) into the
 * request context for the rest of the request. An empty header counts as absent.
 */
export function tenantContextMiddleware(): RequestHandler {
  return (req, _res, next) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (name.startsWith('x-fw-') && typeof value === 'string') headers[name] = value;
    }
    const raw = headers[TENANT_HEADER];
    const tenantId = raw === undefined || raw.trim() === '' ? undefined : raw.trim();
    runWithContext({ tenantId, headers }, () => next());
  };
}
