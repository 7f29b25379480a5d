// Security (generated with security=y): every operation of {{service}} needs
// `Authorization: Bearer <JWT>`, verified with jose against a shared secret (HS256/384/512) or the
// keys of a JWKS URL (RS*, ES*, PS*, EdDSA). A call without a token, with a bad signature, an expired
// token, or the wrong issuer or audience is refused with 401 SVC401 before the handler runs. The
// token's `sub` becomes the caller (`ctx.principal.id`), its `roles` claim (a list of strings) the
// principal's roles. The info endpoints (/info, /service-info, /health-check, /openapi.json) stay
// open: they carry no secrets.
import { FwError } from '@fw/core';
import { ServiceErrorCodes, type Interceptor, type Principal } from '@fw/service';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';

export interface JwtSettings {
  /** A shared secret of at least 32 characters (HMAC); or give `jwksUrl`. */
  secret?: string;
  /** Where the issuer publishes its public keys (`https://issuer/.well-known/jwks.json`). */
  jwksUrl?: string;
  /** When set, the token's `iss` must equal it. */
  issuer?: string;
  /** When set, the token's `aud` must contain it. */
  audience?: string;
  /** Tolerated clock difference in seconds (default 30). */
  clockToleranceSeconds?: number;
}

export const MIN_SECRET_LENGTH = 32;

function unauthorized(description: string): FwError {
  return new FwError({ code: 401, subErrorCode: ServiceErrorCodes.unauthorized, description });
}

/** Why a token was refused, in words that help the caller without telling an attacker much. */
function reasonOf(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'The bearer token has expired';
  if (err instanceof errors.JWTClaimValidationFailed) return `The bearer token's '${err.claim}' claim is not accepted`;
  return 'The bearer token is not valid';
}

function principalOf(payload: JWTPayload): Principal {
  const roles = Array.isArray(payload.roles) ? payload.roles.filter((r): r is string => typeof r === 'string') : [];
  return { id: payload.sub ?? 'unknown', roles };
}

/** @throws Error at startup when neither or both of `secret` and `jwksUrl` are given, or the secret is short. */
export function makeBearerJwtInterceptor(settings: JwtSettings): Interceptor {
  if ((settings.secret === undefined) === (settings.jwksUrl === undefined)) {
    throw new Error('bearer JWT security needs exactly one of a secret ({{serviceConstant}}_JWT_SECRET) or a JWKS URL ({{serviceConstant}}_JWKS_URL)');
  }
  if (settings.secret !== undefined && settings.secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`the JWT secret is too short (${settings.secret.length} characters): give at least ${MIN_SECRET_LENGTH}`);
  }
  const key: Uint8Array | JWTVerifyGetKey = settings.secret !== undefined ? new TextEncoder().encode(settings.secret) : createRemoteJWKSet(new URL(settings.jwksUrl as string));
  const options = {
    issuer: settings.issuer,
    audience: settings.audience,
    clockTolerance: settings.clockToleranceSeconds ?? 30,
    // A shared secret only ever signs with HMAC; a JWKS only with public-key algorithms. Pinning
    // them stops a token signed with the "wrong kind" of key from being tried at all.
    algorithms: settings.secret !== undefined ? ['HS256', 'HS384', 'HS512'] : ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'],
  };
  return {
    name: 'bearer-jwt',
    async intercept(call, next) {
      const header = call.context.headers.authorization;
      const match = header === undefined ? null : /^Bearer\s+(\S+)$/i.exec(header);
      if (match === null) throw unauthorized('Missing bearer token (Authorization: Bearer <JWT>)');
      let payload: JWTPayload;
      try {
        // Two overloads (a key, or a function finding one): narrow so each call sees one.
        payload = typeof key === 'function' ? (await jwtVerify(match[1], key, options)).payload : (await jwtVerify(match[1], key, options)).payload;
      } catch (err) {
        // The token is not at fault when the JWKS could not be fetched: say so (503), so the caller
        // retries rather than asking for a new token.
        if (err instanceof errors.JWKSTimeout || !(err instanceof errors.JOSEError)) {
          call.context.logger.error({ err }, 'the JWKS could not be read');
          throw new FwError({ code: 503, subErrorCode: 'FW503', description: 'The keys to check bearer tokens cannot be read right now; try again later' });
        }
        throw unauthorized(reasonOf(err));
      }
      call.context.principal = principalOf(payload);
      return next();
    },
  };
}
