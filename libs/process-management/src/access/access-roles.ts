/**
 * The roles of the administration API, weakest first. Each role may do everything the roles
 * before it may: viewer reads, operator also triggers, retries and switches crontabs on and off,
 * admin also writes definitions and crontabs, deletes, and reads the audit trail.
 *
 * @example
 * roleAllows('operator', 'viewer');   // true
 * highestRole(['viewer', 'admin']);   // 'admin'
 */

/** Every role, weakest first. */
export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Whether `held` is `required` or stronger. */
export function roleAllows(held: Role | null, required: Role): boolean {
  return held !== null && ROLES.indexOf(held) >= ROLES.indexOf(required);
}

/** The strongest of `roles`, or null when there is none. */
export function highestRole(roles: readonly Role[]): Role | null {
  let best: Role | null = null;
  for (const role of roles) if (best === null || ROLES.indexOf(role) > ROLES.indexOf(best)) best = role;
  return best;
}

/** Narrows a text to a role name. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
