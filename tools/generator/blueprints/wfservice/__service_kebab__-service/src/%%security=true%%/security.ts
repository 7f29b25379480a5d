// Bearer JWTs in front of the {{service}} operations (the generator's security answer): a call needs
// `Authorization: Bearer <token>`, a JWT signed with HS256 by the shared secret, not expired, and —
// when configured — from the expected issuer for the expected audience. The token's `sub` becomes
// the caller (`ctx.principal`). The introspection operations (flows, diagram, test cases) describe
// the flow, not an entity: like every fw info endpoint they stay readable without a token.
import { ConfigError, FwError } from '@fw/core';
import { ServiceErrorCodes, type Interceptor } from '@fw/service';

export interface BearerOptions {
  /** The HS256 secret shared with whoever issues the tokens; at least 32 characters. */
  secret: string;
  issuer?: string;
  audience?: string;
}

const INTROSPECTION = new Set(['info', 'flow', 'diagram', 'allowedActions', 'testCases']);
const MIN_SECRET_LENGTH = 32;

/** {{serviceConstant}}_JWT_SECRET (required), {{serviceConstant}}_JWT_ISSUER, {{serviceConstant}}_JWT_AUDIENCE. */
export function bearerOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): BearerOptions {
  const secret = env.{{serviceConstant}}_JWT_SECRET;
  if (secret === undefined || secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`{{serviceConstant}}_JWT_SECRET must be set to a secret of at least ${MIN_SECRET_LENGTH} characters (the HS256 key the tokens are signed with)`);
  }
  return { secret, ...(env.{{serviceConstant}}_JWT_ISSUER ? { issuer: env.{{serviceConstant}}_JWT_ISSUER } : {}), ...(env.{{serviceConstant}}_JWT_AUDIENCE ? { audience: env.{{serviceConstant}}_JWT_AUDIENCE } : {}) };
}

function unauthorized(why: string): FwError {
  return new FwError({ code: 401, subErrorCode: ServiceErrorCodes.unauthorized, description: why });
}

export function makeBearerInterceptor(options: BearerOptions): Interceptor {
  if (options.secret.length < MIN_SECRET_LENGTH) throw new ConfigError(`the JWT secret must have at least ${MIN_SECRET_LENGTH} characters`);
  const key = new TextEncoder().encode(options.secret);
  return {
    name: 'bearer-jwt',
    async intercept(call, next) {
      if (INTROSPECTION.has(call.context.operation)) return next();
      const token = /^Bearer\s+(\S+)$/i.exec(call.context.headers['authorization'] ?? '')?.[1];
      if (token === undefined) throw unauthorized('a bearer token is required (Authorization: Bearer <jwt>)');
      // jose is an ES module; this package compiles to CommonJS, which reaches it through import().
      const { jwtVerify } = await import('jose');
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: options.issuer, audience: options.audience });
        call.context.principal = { id: typeof payload.sub === 'string' ? payload.sub : 'anonymous' };
      } catch {
        // The reason (expired, bad signature, wrong audience) is not told to the caller.
        throw unauthorized('the bearer token is not valid');
      }
      return next();
    },
  };
}
