/**
 * Who may use the administration API of the admin server, from the environment:
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | `PROCESS_MANAGEMENT_API_KEYS` | — | further keys, comma-separated (a rotation: add the new key, move clients, drop the old one) |
 * | `PROCESS_MANAGEMENT_KEY_ROLE` | `admin` | the role of every key: `viewer`, `operator` or `admin` |
 * | `PROCESS_MANAGEMENT_KEY_TENANTS` | `*` | the tenants of every key, comma-separated, or `*` |
 * | `PROCESS_MANAGEMENT_JWKS_URL` / `PROCESS_MANAGEMENT_JWKS_FILE` | — | bearer tokens verified against this key set (one of the two) |
 * | `PROCESS_MANAGEMENT_JWT_ISSUER`, `PROCESS_MANAGEMENT_JWT_AUDIENCE` | — | required with a key set; the audience may list several, comma-separated |
 * | `PROCESS_MANAGEMENT_JWT_CLOCK_SKEW` | 30 | seconds of clock difference tolerated for `exp` and `nbf` |
 * | `PROCESS_MANAGEMENT_JWT_ROLE_NAMES` | — | the `fw_roles` values meaning each role, e.g. `viewer=ops-read,admin=ops-admin` |
 *
 * @example
 * const access = accessConfigFromEnv(process.env, process.cwd());
 * // { keys: [...], keyRole: 'admin', keyTenants: '*', jwt: { jwksUrl, issuer, audience } }
 */
import { ConfigError, TENANT_ID_PATTERN } from '@fw/core';
import {
  assertManagementKey,
  isRole,
  ROLES,
  type JwtVerifierOptions,
  type Role,
  type TenantScope,
} from '@fw/process-management';
import * as path from 'node:path';

export interface AdminAccessConfig {
  /** Keys of `PROCESS_MANAGEMENT_API_KEYS` (the single key stays `apiKey`). */
  keys: string[];
  keyRole: Role;
  keyTenants: TenantScope;
  jwt?: JwtVerifierOptions;
}

function listOf(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function roleOf(raw: string | undefined): Role {
  if (raw === undefined || raw.trim() === '') return 'admin';
  const value = raw.trim();
  if (!isRole(value))
    throw new ConfigError(`PROCESS_MANAGEMENT_KEY_ROLE must be one of ${ROLES.join(', ')}, got '${raw}'`);
  return value;
}

function tenantsOf(raw: string | undefined): TenantScope {
  const values = listOf(raw);
  if (values.length === 0 || values.includes('*')) return '*';
  const bad = values.filter((v) => !TENANT_ID_PATTERN.test(v));
  if (bad.length > 0)
    throw new ConfigError(`PROCESS_MANAGEMENT_KEY_TENANTS: '${bad[0]}' is not a tenant id ([A-Za-z0-9_.-]{1,128})`);
  return values;
}

function roleNamesOf(raw: string | undefined): Partial<Record<Role, string>> {
  const names: Partial<Record<Role, string>> = {};
  for (const pair of listOf(raw)) {
    const [role, name] = pair.split('=').map((v) => v.trim());
    if (!isRole(role) || name === undefined || name === '')
      throw new ConfigError(
        `PROCESS_MANAGEMENT_JWT_ROLE_NAMES: '${pair}' must be <role>=<claim value> with a role of ${ROLES.join(', ')}`,
      );
    names[role] = name;
  }
  return names;
}

function jwtOf(env: NodeJS.ProcessEnv, cwd: string): JwtVerifierOptions | undefined {
  const url = env.PROCESS_MANAGEMENT_JWKS_URL?.trim() || undefined;
  const file = env.PROCESS_MANAGEMENT_JWKS_FILE?.trim() || undefined;
  if (url === undefined && file === undefined) return undefined;
  if (url !== undefined && file !== undefined)
    throw new ConfigError('Set PROCESS_MANAGEMENT_JWKS_URL or PROCESS_MANAGEMENT_JWKS_FILE, not both');
  const issuer = env.PROCESS_MANAGEMENT_JWT_ISSUER?.trim();
  const audience = listOf(env.PROCESS_MANAGEMENT_JWT_AUDIENCE);
  if (!issuer)
    throw new ConfigError(
      'PROCESS_MANAGEMENT_JWT_ISSUER is not set: bearer tokens need the issuer they must come from',
    );
  if (audience.length === 0)
    throw new ConfigError(
      'PROCESS_MANAGEMENT_JWT_AUDIENCE is not set: bearer tokens need the audience they are issued for',
    );
  const skew = env.PROCESS_MANAGEMENT_JWT_CLOCK_SKEW?.trim();
  if (skew && !/^\d{1,4}$/.test(skew))
    throw new ConfigError(`PROCESS_MANAGEMENT_JWT_CLOCK_SKEW must be a number of seconds (0–9999), got '${skew}'`);
  return {
    ...(url === undefined ? { jwksFile: path.resolve(cwd, file as string) } : { jwksUrl: url }),
    issuer,
    audience,
    ...(skew ? { clockToleranceSeconds: Number(skew) } : {}),
    roleNames: roleNamesOf(env.PROCESS_MANAGEMENT_JWT_ROLE_NAMES),
  };
}

/**
 * Reads the access settings.
 * @throws ConfigError naming the variable to fix (a short key, a bad role or tenant, a key set without issuer or audience).
 */
export function accessConfigFromEnv(env: NodeJS.ProcessEnv, cwd: string): AdminAccessConfig {
  const keys = listOf(env.PROCESS_MANAGEMENT_API_KEYS).map((key) =>
    assertManagementKey(key, 'PROCESS_MANAGEMENT_API_KEYS'),
  );
  const jwt = jwtOf(env, cwd);
  return {
    keys,
    keyRole: roleOf(env.PROCESS_MANAGEMENT_KEY_ROLE),
    keyTenants: tenantsOf(env.PROCESS_MANAGEMENT_KEY_TENANTS),
    ...(jwt === undefined ? {} : { jwt }),
  };
}
