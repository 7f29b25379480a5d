/**
 * Who is calling the administration API, once a credential was accepted: the actor recorded in the
 * audit trail, the kind of credential, the strongest role it carries and the tenants it may see.
 *
 * @example
 * const caller = callerOf(res);
 * caller.tenants === '*' || caller.tenants.includes(tenant);
 */
import type { Response } from 'express';
import type { Role } from './access-roles';

/** The tenants a caller may see: every one (`'*'`) or those listed. */
export type TenantScope = '*' | readonly string[];

export interface Caller {
  /** `key:<fingerprint>` for a key (never the key itself), `jwt:<sub>` for a token. */
  actor: string;
  credential: 'key' | 'jwt';
  /** The strongest role, or null when the credential carries none (every operation is then refused). */
  role: Role | null;
  tenants: TenantScope;
}

const CALLER_LOCAL = 'fwManagementCaller';

/** Stores the authenticated caller for the handlers after the guard. */
export function setCaller(res: Response, caller: Caller): void {
  res.locals[CALLER_LOCAL] = caller;
}

/** The caller the guard accepted, or undefined before it ran. */
export function findCaller(res: Response): Caller | undefined {
  const caller: unknown = res.locals[CALLER_LOCAL];
  return typeof caller === 'object' && caller !== null ? (caller as Caller) : undefined;
}

/** The caller the guard accepted. */
export function callerOf(res: Response): Caller {
  const caller = findCaller(res);
  if (caller === undefined) throw new Error('the access guard did not run before this handler');
  return caller;
}

/** Whether the scope includes `tenant`. */
export function scopeIncludes(scope: TenantScope, tenant: string): boolean {
  return scope === '*' || scope.includes(tenant);
}
