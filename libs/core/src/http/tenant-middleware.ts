import type { RequestHandler } from 'express';
import { makeRequestContext } from '../tenant/request-context';
import { runWithContext, TENANT_HEADER, TRIGGER_ID_HEADER } from '../tenant/tenant-context';

function present(raw: string | undefined): string | undefined {
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

/**
 * Express middleware that creates the request context for the rest of the request: the tenant of
 * `x-fw-tenant-id`, the trigger id of `x-fw-trigger-id` and every `x-fw-*` header. An empty
 * header counts as absent.
 */
export function tenantContextMiddleware(): RequestHandler {
  return (req, _res, next) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (name.startsWith('x-fw-') && typeof value === 'string') headers[name] = value;
    }
    const tenantId = present(headers[TENANT_HEADER]);
    const triggerId = present(headers[TRIGGER_ID_HEADER]);
    const context = makeRequestContext({
      tenantId,
      trigger: triggerId === undefined ? null : { id: triggerId },
      headers,
    });
    runWithContext(context, () => next());
  };
}
