/**
 * What the signed-in caller may do, from `GET /me`: the dashboard shows only the views, tenants
 * and actions the caller's role allows (the server enforces the same; this only keeps refused
 * buttons off the screen).
 *
 * @example
 * const { can } = usePermissions();
 * {can('addCrontab') && <Link to="cron/new">New schedule</Link>}
 */
import type { Caller } from '../../api/types';
import { useSession } from './session';

export interface Permissions {
  /** Whether the caller's role allows the operation (an operationId of the API). */
  can(operationId: string): boolean;
  /** The tenants the caller may open, or `'*'` for every tenant. */
  tenants: '*' | readonly string[];
  /** Whether the caller may open `tenant`. */
  mayOpen(tenant: string): boolean;
}

/** The permissions of a caller. */
export function permissionsOf(caller: Caller | undefined): Permissions {
  const operations = new Set(caller?.operations ?? []);
  const tenants: '*' | readonly string[] =
    caller === undefined ? [] : caller.tenants.includes('*') ? '*' : caller.tenants;
  return { can: (op) => operations.has(op), tenants, mayOpen: (tenant) => tenants === '*' || tenants.includes(tenant) };
}

/** The permissions of the signed-in caller. */
export function usePermissions(): Permissions {
  return permissionsOf(useSession().caller);
}
