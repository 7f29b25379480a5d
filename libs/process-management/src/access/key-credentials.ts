/**
 * Administration keys as credentials. Several keys may be valid at once (a rotation: the new key
 * is added, clients move over, the old one is removed), each with its own role and tenants. A
 * presented key is compared with every configured key in constant time (SHA-256 of both sides,
 * then `crypto.timingSafeEqual`), without stopping at the first match, so timing tells neither
 * which key matched nor how many there are. Keys are never logged: the actor recorded for a key
 * is a fingerprint (the first 12 hex digits of its SHA-256).
 *
 * @example
 * const keys = makeKeyCredentials([{ key: process.env.PROCESS_MANAGEMENT_API_KEY! }]);
 * keys.match(req.headers['x-process-management-key']); // Caller | undefined
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { assertManagementKey } from '../auth/key-guard';
import type { Role } from './access-roles';
import type { Caller, TenantScope } from './caller';

/** One accepted key: admin over every tenant unless narrowed. */
export interface KeyCredential {
  key: string;
  /** Default `admin`. */
  role?: Role;
  /** Default `'*'` (every tenant). */
  tenants?: TenantScope;
}

export interface KeyCredentials {
  /** How many keys are configured. */
  readonly size: number;
  /** The caller of the key that matches `presented`, or undefined. */
  match(presented: string | undefined): Caller | undefined;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** `key:` and the first 12 hex digits of the key's SHA-256: tells keys apart in the audit trail, reveals nothing. */
export function keyFingerprint(key: string): string {
  return `key:${digest(key).toString('hex').slice(0, 12)}`;
}

/**
 * Makes the key set.
 * @throws ConfigError when a key is shorter than 32 characters.
 */
export function makeKeyCredentials(
  keys: readonly KeyCredential[],
  setting = 'PROCESS_MANAGEMENT_API_KEY',
): KeyCredentials {
  const entries = keys.map((credential) => {
    const key = assertManagementKey(credential.key, setting);
    const caller: Caller = {
      actor: keyFingerprint(key),
      credential: 'key',
      role: credential.role ?? 'admin',
      tenants: credential.tenants ?? '*',
    };
    return { digest: digest(key), caller };
  });
  return {
    size: entries.length,
    match(presented) {
      if (presented === undefined || presented === '') return undefined;
      const candidate = digest(presented);
      let found: Caller | undefined;
      for (const entry of entries) {
        // Every entry is compared: no early exit that timing could reveal.
        if (timingSafeEqual(entry.digest, candidate) && found === undefined) found = entry.caller;
      }
      return found;
    },
  };
}
