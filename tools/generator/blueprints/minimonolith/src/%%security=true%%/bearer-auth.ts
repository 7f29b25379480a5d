// security=y: the built-in service's operations need `Authorization: Bearer <JWT>`, an HS256 token
// signed with {{monolithConstant}}_JWT_SECRET. The check is an @fw/service interceptor, so it guards
// HTTP, in-process and MCP calls alike, and the handler never runs for a refused caller.
import { FwError } from '@fw/core';
import type { Interceptor } from '@fw/service';
import { jwtVerify } from 'jose';

export const MIN_SECRET_LENGTH = 32;

function unauthorized(description: string): FwError {
  return new FwError({ code: 401, subErrorCode: 'AUTH401', description });
}

/**
 * @param secret the HS256 key; without one (or a short one) every call is refused, so a
 * misconfigured production host fails closed instead of running open.
 */
export function makeBearerAuthInterceptor(secret: string | undefined): Interceptor {
  const key = secret !== undefined && secret.length >= MIN_SECRET_LENGTH ? new TextEncoder().encode(secret) : undefined;
  return {
    name: 'bearer-jwt',
    async intercept(call, next) {
      if (!key) throw unauthorized(`{{monolithConstant}}_JWT_SECRET is not set to at least ${MIN_SECRET_LENGTH} characters`);
      const header = call.context.headers.authorization ?? '';
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match) throw unauthorized('missing bearer token');
      try {
        const { payload } = await jwtVerify(match[1], key, { algorithms: ['HS256'] });
        call.context.principal = { id: typeof payload.sub === 'string' ? payload.sub : 'anonymous', ...payload };
      } catch (err) {
        // The reason (expired, bad signature) helps the caller and reveals nothing about the key.
        throw unauthorized(`invalid bearer token: ${(err as Error).message}`);
      }
      return next();
    },
  };
}
