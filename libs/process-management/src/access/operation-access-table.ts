/**
 * The role each operation of the administration API needs, by method and path — the one table the
 * router enforces and the tests are generated from. viewer: every read; operator: also manual
 * triggers, retries and switching a crontab on or off; admin: also definition and crontab writes,
 * deletes, retention runs and the audit trail. Every operation that is not a GET is a change and
 * is written to the audit trail (refused, failed or done).
 *
 * An operation missing from the table needs admin (the router fails closed), and the tests check
 * that every operation of the OpenAPI document is listed.
 *
 * @example
 * accessOf('put', '/crontabs/{id}'); // { role: 'admin', narrower: { role: 'operator', ... } }
 */
import type { ApiMethod } from '../openapi/admin-api-operations';
import type { Role } from './access-roles';

/** A weaker role allowed for a narrower form of the request (enabling or disabling a crontab). */
export interface NarrowerAccess {
  role: Role;
  /** What the narrower request is, in words (documentation and test names). */
  when: string;
  /** Whether a request body is of the narrower form. */
  matches(body: unknown): boolean;
}

export interface OperationAccess {
  role: Role;
  narrower?: NarrowerAccess;
}

/** PUT /crontabs/{id} with `{ enabled }` alone switches a schedule on or off. */
const ONLY_ENABLED: NarrowerAccess = {
  role: 'operator',
  when: 'the body holds only "enabled" (switching the crontab on or off)',
  matches: (body) =>
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    Object.keys(body).length === 1 &&
    typeof (body as { enabled?: unknown }).enabled === 'boolean',
};

/** `<METHOD> <path>` (path relative to the mount path, OpenAPI notation) → the access it needs. */
export const OPERATION_ACCESS: Readonly<Record<string, OperationAccess>> = {
  'GET /openapi.json': { role: 'viewer' },
  'GET /me': { role: 'viewer' },
  'GET /info': { role: 'viewer' },
  'GET /crontabs': { role: 'viewer' },
  'GET /crontabs/{id}': { role: 'viewer' },
  'POST /crontabs': { role: 'admin' },
  'PUT /crontabs/{id}': { role: 'admin', narrower: ONLY_ENABLED },
  'DELETE /crontabs/{id}': { role: 'admin' },
  'POST /triggers': { role: 'operator' },
  'GET /executions': { role: 'viewer' },
  'GET /definitions': { role: 'viewer' },
  'GET /definitions/{name}': { role: 'viewer' },
  'POST /definitions': { role: 'admin' },
  'PUT /definitions/{name}': { role: 'admin' },
  'DELETE /definitions/{name}': { role: 'admin' },
  'POST /definitions/refresh': { role: 'admin' },
  'GET /processes': { role: 'viewer' },
  'GET /processes/{id}': { role: 'viewer' },
  'DELETE /processes/{id}': { role: 'admin' },
  'GET /trace': { role: 'viewer' },
  'GET /health': { role: 'viewer' },
  'GET /audit': { role: 'admin' },
};

const FAIL_CLOSED: OperationAccess = { role: 'admin' };

/** The table's key of an operation. */
export function accessKey(method: ApiMethod, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

/** The access an operation needs (admin when the table does not list it). */
export function accessOf(method: ApiMethod, path: string): OperationAccess {
  return OPERATION_ACCESS[accessKey(method, path)] ?? FAIL_CLOSED;
}

/** The role a request needs: the narrower role when its body is of the narrower form. */
export function requiredRoleFor(method: ApiMethod, path: string, body: unknown): Role {
  const access = accessOf(method, path);
  return access.narrower !== undefined && access.narrower.matches(body) ? access.narrower.role : access.role;
}

/** Changes are audited: every operation that is not a read. */
export function isAudited(method: ApiMethod): boolean {
  return method !== 'get';
}
