// Bearer tokens (security = yes). The tests sign HS256 tokens with the app's shared secret
// (IT_JWT_SECRET), as the app's identity provider would, with the issuer and audience the app
// checks when IT_JWT_ISSUER / IT_JWT_AUDIENCE are set. The reference app checks them with the same
// rules as an fw-service app: a missing or invalid token is 401 SVC401 before the handler runs.
import { FwError } from '@fw/core';
import type { Interceptor } from '@fw/service';
import { jwtVerify, SignJWT } from 'jose';

export const MIN_SECRET_LENGTH = 32;

export interface TokenSettings {
  secret: string;
  issuer?: string;
  audience?: string;
}

function key(secret: string): Uint8Array {
  if (secret.length < MIN_SECRET_LENGTH) throw new Error(`the JWT secret must be at least ${MIN_SECRET_LENGTH} characters (IT_JWT_SECRET)`);
  return new TextEncoder().encode(secret);
}

/** A token for subject `it-runner`, valid for ten minutes: longer than any test run. */
export async function signToken(settings: TokenSettings, claims: Record<string, unknown> = {}): Promise<string> {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject('it-runner').setIssuedAt().setExpirationTime('10m');
  if (settings.issuer) jwt = jwt.setIssuer(settings.issuer);
  if (settings.audience) jwt = jwt.setAudience(settings.audience);
  return jwt.sign(key(settings.secret));
}

/** The reference app's security interceptor. */
export function makeJwtInterceptor(settings: TokenSettings): Interceptor {
  const secret = key(settings.secret);
  const refuse = (description: string) => new FwError({ code: 401, subErrorCode: 'SVC401', description, severity: 'WARN' });
  return {
    name: 'bearer-jwt',
    async intercept(call, next) {
      const match = /^Bearer\s+(\S+)$/i.exec(call.context.headers.authorization ?? '');
      if (!match) throw refuse('A bearer token is required');
      try {
        await jwtVerify(match[1], secret, { algorithms: ['HS256'], ...(settings.issuer ? { issuer: settings.issuer } : {}), ...(settings.audience ? { audience: settings.audience } : {}) });
      } catch {
        throw refuse('The bearer token is not valid');
      }
      return next();
    },
  };
}
