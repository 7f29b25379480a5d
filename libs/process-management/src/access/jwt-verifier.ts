/**
 * Bearer tokens (JWT) of the administration API, verified with `jose` against the identity
 * provider's key set: a JWKS URL (fetched on first use, cached, fetched again when a token names a
 * key id it does not hold — at most once per cool-down — and then refused) or a JWKS file (read at
 * start-up, and again when it changes or a token names a key id it does not hold). The issuer, the
 * audience, `exp` (required) and `nbf` are checked with a clock tolerance; only asymmetric
 * algorithms are accepted, so neither `alg: none` nor an HMAC token signed with a published public
 * key (the HS/RS confusion) can pass.
 *
 * Claims: `fw_roles` (array; the strongest known role counts, other values are ignored) and
 * `fw_tenants` (array of tenant ids, or `*` for every tenant). The actor is `jwt:<sub>`.
 *
 * @example
 * const verifier = makeJwtVerifier({ jwksUrl: 'https://idp.example.com/.well-known/jwks.json', issuer: 'https://idp.example.com/', audience: 'fw-admin' });
 * const caller = await verifier.verify(token);   // { actor: 'jwt:alice', credential: 'jwt', role: 'operator', tenants: ['acme'] }
 */
import { ConfigError, FwError, TENANT_ID_PATTERN, type Logger } from '@fw/core';
import { highestRole, ROLES, type Role } from './access-roles';
import type { Caller, TenantScope } from './caller';
import { makeFileKeySet, readKeySetFile } from './jwks-file';
import { loadJose, type Jose } from './jose-loader';

/** The algorithms accepted by default: every asymmetric JWS algorithm, nothing else. */
export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

/** Claim holding the roles. */
export const ROLES_CLAIM = 'fw_roles';
/** Claim holding the tenants. */
export const TENANTS_CLAIM = 'fw_tenants';

/** Sub-error code of a refused credential. */
export const UNAUTHORIZED_CODE = 'PM401';

/** A JSON Web Key Set as served at a JWKS URL. */
export interface JsonWebKeySetInput {
  keys: Array<Record<string, unknown>>;
}

export interface JwtVerifierOptions {
  /** The identity provider's JWKS URL (one of `jwksUrl`, `jwksFile`, `jwks`). */
  jwksUrl?: string;
  /**
   * A file holding a JWKS: read at start-up, then again when it changes (looked at, at most, every
   * `jwksFileCheckMillis`) or when a token names a key id it does not hold (at most once per
   * `jwksCooldownMillis`), so a rotation needs no restart.
   */
  jwksFile?: string;
  /** Shortest time between two looks at the JWKS file's modification (default 5 s). */
  jwksFileCheckMillis?: number;
  /** A JWKS given inline. */
  jwks?: JsonWebKeySetInput;
  /** The expected `iss`. */
  issuer: string;
  /** The expected `aud` (one of them, when several). */
  audience: string | readonly string[];
  /** Tolerated clock difference for `exp` and `nbf` (default 30 s). */
  clockToleranceSeconds?: number;
  /** Accepted algorithms (default {@link ASYMMETRIC_ALGORITHMS}); symmetric ones and `none` are refused. */
  algorithms?: readonly string[];
  /** The claim value meaning each role (default the role's own name). */
  roleNames?: Partial<Record<Role, string>>;
  /** Shortest time between two fetches of the JWKS URL, or two reads of the file for an unknown key id (default 30 s). */
  jwksCooldownMillis?: number;
  /** How long a fetched key set is trusted without a fetch (default 10 minutes). */
  jwksCacheMaxAgeMillis?: number;
  /** Timeout of one JWKS fetch (default 5 s). */
  jwksTimeoutMillis?: number;
  /** Where a JWKS file that cannot be read again is reported (the keys read before stay in use). */
  logger?: Logger;
}

export interface JwtVerifier {
  /**
   * The caller the token stands for.
   * @throws FwError 401 (`PM401`) naming the reason (expired, not yet valid, issuer, audience, signature, unknown key).
   */
  verify(token: string): Promise<Caller>;
}

type KeyResolver = Parameters<Jose['jwtVerify']>[1];

function unauthorized(message: string, cause?: unknown): FwError {
  return new FwError({ code: 401, subErrorCode: UNAUTHORIZED_CODE, description: message, cause });
}

function checkedAlgorithms(algorithms: readonly string[] | undefined): string[] {
  const chosen = [...(algorithms ?? ASYMMETRIC_ALGORITHMS)];
  const allowed = new Set<string>(ASYMMETRIC_ALGORITHMS);
  const refused = chosen.filter((alg) => !allowed.has(alg));
  if (refused.length > 0 || chosen.length === 0) {
    throw new ConfigError(
      `JWT algorithms must be asymmetric (${ASYMMETRIC_ALGORITHMS.join(', ')}); refused: ${refused.join(', ') || 'an empty list'}`,
    );
  }
  return chosen;
}

function keySource(options: JwtVerifierOptions): (jose: Jose) => KeyResolver {
  const given = [options.jwksUrl, options.jwksFile, options.jwks].filter((v) => v !== undefined).length;
  if (given !== 1)
    throw new ConfigError('Give exactly one key set for JWT verification: a JWKS URL, a JWKS file or an inline JWKS');
  if (options.jwksUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(options.jwksUrl);
    } catch {
      throw new ConfigError(`The JWKS URL '${options.jwksUrl}' is not a URL`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new ConfigError(`The JWKS URL must be http(s), got '${url.protocol}'`);
    return (jose) =>
      jose.createRemoteJWKSet(url, {
        cooldownDuration: options.jwksCooldownMillis ?? 30_000,
        cacheMaxAge: options.jwksCacheMaxAgeMillis ?? 600_000,
        timeoutDuration: options.jwksTimeoutMillis ?? 5_000,
      });
  }
  if (options.jwksFile !== undefined) {
    const file = options.jwksFile;
    const initial = readKeySetFile(file);
    return (jose) =>
      makeFileKeySet({
        file,
        initial,
        jose,
        checkMillis: options.jwksFileCheckMillis,
        cooldownMillis: options.jwksCooldownMillis,
        logger: options.logger,
      }).resolve;
  }
  const set = options.jwks as JsonWebKeySetInput;
  if (!Array.isArray(set.keys)) throw new ConfigError('The JWKS has no "keys" array');
  return (jose) => jose.createLocalJWKSet(set as Parameters<Jose['createLocalJWKSet']>[0]);
}

/** Reads `fw_roles` through the configured names. */
function rolesOf(claim: unknown, roleNames: Partial<Record<Role, string>>): Role[] {
  if (!Array.isArray(claim)) return [];
  const values = new Set(claim.filter((v): v is string => typeof v === 'string'));
  return ROLES.filter((role) => values.has(roleNames[role] ?? role));
}

/** Reads `fw_tenants`: `*` anywhere means every tenant; malformed ids are dropped. */
function tenantsOf(claim: unknown): TenantScope {
  const values = Array.isArray(claim) ? claim : typeof claim === 'string' ? [claim] : [];
  if (values.includes('*')) return '*';
  return values.filter((v): v is string => typeof v === 'string' && TENANT_ID_PATTERN.test(v));
}

/** What a client is told about a refused token: the reason, never the token. */
function reasonOf(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  const claim = (err as { claim?: unknown }).claim;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'The bearer token has expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (claim === 'nbf') return 'The bearer token is not valid yet';
      if (claim === 'iss') return 'The bearer token was issued by another issuer';
      if (claim === 'aud') return 'The bearer token is meant for another audience';
      return `The bearer token's claim '${String(claim)}' is missing or invalid`;
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'The bearer token is signed with an algorithm that is not accepted';
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'The bearer token is signed with a key the identity provider does not publish';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'The bearer token signature is invalid';
    case 'ERR_JWKS_TIMEOUT':
    case 'ERR_JOSE_GENERIC':
      return 'The identity provider’s keys could not be read: the bearer token cannot be checked';
    default:
      return 'The bearer token is malformed or invalid';
  }
}

/** jose's refusals raised after the signature was verified: only the claims were wrong. */
const CLAIM_REFUSALS = new Set(['ERR_JWT_EXPIRED', 'ERR_JWT_CLAIM_VALIDATION_FAILED']);

/**
 * The subject of a refused token whose signature was verified (it expired, is not valid yet, or is
 * meant for another audience): the identity provider did vouch for it, so the audit trail can name
 * the actor of the refused request. Undefined for any other refusal (a bad signature, an unknown
 * key, a malformed token), whose claims nobody vouched for.
 *
 * @example
 * try { await verifier.verify(token); } catch (err) { refusedTokenSubject(err); } // 'alice' for an expired token of alice
 */
export function refusedTokenSubject(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; payload?: { sub?: unknown } } } | undefined)?.cause;
  if (cause === undefined || !CLAIM_REFUSALS.has(String(cause.code))) return undefined;
  const sub = cause.payload?.sub;
  return typeof sub === 'string' && sub !== '' ? sub : undefined;
}

/**
 * Makes the verifier.
 * @throws ConfigError for a missing issuer or audience, no (or more than one) key set, or a symmetric algorithm.
 */
export function makeJwtVerifier(options: JwtVerifierOptions): JwtVerifier {
  if (options.issuer.trim() === '')
    throw new ConfigError('The JWT issuer is empty: set the identity provider’s issuer');
  const audience = typeof options.audience === 'string' ? [options.audience] : [...options.audience];
  if (audience.length === 0 || audience.some((a) => a.trim() === ''))
    throw new ConfigError('The JWT audience is empty: set the audience tokens are issued for');
  const algorithms = checkedAlgorithms(options.algorithms);
  const makeKeys = keySource(options);
  const roleNames = options.roleNames ?? {};
  let keys: KeyResolver | undefined;

  return {
    async verify(token) {
      // A failed load is tried once more before the token is refused (see loadJose).
      const jose = await loadJose().catch(() => loadJose());
      keys ??= makeKeys(jose);
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jose.jwtVerify(token, keys, {
          issuer: options.issuer,
          audience,
          algorithms,
          clockTolerance: options.clockToleranceSeconds ?? 30,
          requiredClaims: ['exp', 'sub'],
        }));
      } catch (err) {
        throw unauthorized(reasonOf(err), err);
      }
      const subject = typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : undefined;
      if (subject === undefined) throw unauthorized("The bearer token's claim 'sub' is missing or invalid");
      return {
        actor: `jwt:${subject}`,
        credential: 'jwt',
        role: highestRole(rolesOf(payload[ROLES_CLAIM], roleNames)),
        tenants: tenantsOf(payload[TENANTS_CLAIM]),
      };
    },
  };
}
