/**
 * /me and /audit: the caller as the server sees it, and the audit trail of changes.
 *
 * | method | path | answer |
 * |---|---|---|
 * | GET | /me | `{ actor, credential, role, tenants, operations }` (no tenant header needed) |
 * | GET | /audit?actor&action&from&to&page&size | Page of audit entries of the tenant, newest first (admin) |
 */
import { roleAllows } from '../access/access-roles';
import { callerOf } from '../access/caller';
import { accessOf } from '../access/operation-access-table';
import type { AuditStore } from '../audit/audit-store';
import { parsePageRequest } from '../http/pagination';
import { ADMIN_API_OPERATIONS } from '../openapi/admin-api-operations';
import type { OperationBinder } from './operation-binding';
import { optionalQuery, tenantOf } from './request-values';

/** The caller's view; bound before the tenant header is required. */
export function addWhoamiRoute(bind: OperationBinder): void {
  bind('whoami', (_req, res) => {
    const caller = callerOf(res);
    const operations = ADMIN_API_OPERATIONS.filter((op) => {
      const access = accessOf(op.method, op.path);
      return (
        roleAllows(caller.role, access.role) ||
        (access.narrower !== undefined && roleAllows(caller.role, access.narrower.role))
      );
    }).map((op) => op.operationId);
    res.json({
      actor: caller.actor,
      credential: caller.credential,
      role: caller.role,
      tenants: caller.tenants === '*' ? ['*'] : [...caller.tenants],
      operations,
    });
  });
}

/** The audit trail of the tenant. */
export function addAuditRoutes(bind: OperationBinder, audit: AuditStore): void {
  bind('listAudit', async (req, res) => {
    const from = optionalQuery(req.query, 'from');
    const to = optionalQuery(req.query, 'to');
    const page = await audit.list(
      {
        tenant: tenantOf(res),
        actor: optionalQuery(req.query, 'actor'),
        action: optionalQuery(req.query, 'action'),
        ...(from === undefined ? {} : { from: new Date(from) }),
        ...(to === undefined ? {} : { to: new Date(to) }),
      },
      parsePageRequest(req.query),
    );
    res.json(page);
  });
}
