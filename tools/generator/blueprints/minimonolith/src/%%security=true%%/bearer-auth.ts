// security=y: the built-in service's operations need `Authorization: Bearer <JWT>`, an HS256 token
// signed with {{monolithConstant}}_JWT_SECRET. The check is an @fw/service interceptor, so it guards
// HTTP, in-process and MCP calls alike, and the handler never runs for a refused caller.
{{#enableQueryController}}
// The named queries (/q) are not operations of a service (the query controller serves them), so
// the same check guards them as express middleware.
{{/enableQueryController}}
import { {{#enableQueryController}}errorEnvelope, {{/enableQueryController}}FwError } from '@fw/core';
import type { Interceptor } from '@fw/service';
{{#enableQueryController}}
import type { RequestHandler } from 'express';
{{/enableQueryController}}
import { jwtVerify, type JWTPayload } from 'jose';

export const MIN_SECRET_LENGTH = 32;

function unauthorized(description: string): FwError {
  return new FwError({ code: 401, subErrorCode: 'AUTH401', description });
}

function keyOf(secret: string | undefined): Uint8Array | undefined {
  return secret !== undefined && secret.length >= MIN_SECRET_LENGTH ? new TextEncoder().encode(secret) : undefined;
}

/** The verified claims of `Authorization: Bearer <JWT>`. @throws FwError 401 */
async function verifyBearer(key: Uint8Array | undefined, header: string | undefined): Promise<JWTPayload> {
  if (!key) throw unauthorized(`{{monolithConstant}}_JWT_SECRET is not set to at least ${MIN_SECRET_LENGTH} characters`);
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!match) throw unauthorized('missing bearer token');
  try {
    return (await jwtVerify(match[1], key, { algorithms: ['HS256'] })).payload;
  } catch (err) {
    // The reason (expired, bad signature) helps the caller and reveals nothing about the key.
    throw unauthorized(`invalid bearer token: ${(err as Error).message}`);
  }
}

/**
 * @param secret the HS256 key; without one (or a short one) every call is refused, so a
 * misconfigured production host fails closed instead of running open.
 */
export function makeBearerAuthInterceptor(secret: string | undefined): Interceptor {
  const key = keyOf(secret);
  return {
    name: 'bearer-jwt',
    async intercept(call, next) {
      const payload = await verifyBearer(key, call.context.headers.authorization);
      call.context.principal = { id: typeof payload.sub === 'string' ? payload.sub : 'anonymous', ...payload };
      return next();
    },
  };
}
{{#enableQueryController}}

/** The same check in front of routes that are not service operations: a refusal is the 401 envelope. */
export function makeBearerAuthMiddleware(secret: string | undefined): RequestHandler {
  const key = keyOf(secret);
  return (req, res, next) => {
    verifyBearer(key, req.header('authorization')).then(
      () => next(),
      (err: FwError) => {
        res.status(401).set('WWW-Authenticate', 'Bearer').json(errorEnvelope(err));
      },
    );
  };
}
{{/enableQueryController}}
