/**
 * Authentication and authorisation of the administration API.
 *
 * `makeAccessGuard` accepts a request that carries either an administration key
 * (`X-Process-Management-Key`, one of several during a rotation) or `Authorization: Bearer <JWT>`
 * (when a key set is configured), stores the caller and lets it through; a missing or refused
 * credential answers 401 (the error envelope; its `message` says why). Refused credentials are counted per source address: past
 * the limit the address gets 429 until its window ends.
 *
 * `authorizationProblem` is the per-operation decision the router takes once it knows the
 * operation and the tenant: the role from the operation table, and the tenant within the caller's
 * scope. The answer for a tenant outside the scope does not depend on whether that tenant has any
 * data, so it reveals nothing about it.
 *
 * @example
 * const access = resolveManagementAccess({ apiKey, access: { jwt: { jwksUrl, issuer, audience } } });
 * router.use(makeAccessGuard(access, { logger }));
 */
import { ConfigError, type Logger } from '@fw/core';
import type { Request, RequestHandler } from 'express';
import { managementErrorBody } from '../http/management-errors';
import { MANAGEMENT_KEY_HEADER } from '../auth/key-guard';
import { roleAllows, type Role } from './access-roles';
import { makeAuthFailureLimiter, type AuthFailureLimitOptions, type AuthFailureLimiter } from './auth-failure-limiter';
import { scopeIncludes, setCaller, type Caller } from './caller';
import { makeKeyCredentials, type KeyCredential, type KeyCredentials } from './key-credentials';
import { makeJwtVerifier, type JwtVerifier, type JwtVerifierOptions } from './jwt-verifier';

/** Who may use the administration API. */
export interface ManagementAccessOptions {
  /** Administration keys (several at once during a rotation), each with its role and tenants. */
  keys?: readonly KeyCredential[];
  /** Bearer tokens: the verifier, or its options. */
  jwt?: JwtVerifier | JwtVerifierOptions;
  /** Limit of refused credentials per source address (default 20 per minute). */
  failureLimit?: AuthFailureLimitOptions;
}

/** The credentials of a router or guard, checked and ready. */
export interface ResolvedAccess {
  keys: KeyCredentials;
  jwt: JwtVerifier | undefined;
  limiter: AuthFailureLimiter;
}

/**
 * Builds the credentials from a host's options: the legacy single `apiKey` (admin over every
 * tenant) joins the listed keys.
 * @throws ConfigError when a key is shorter than 32 characters, the JWT options are unusable, or no credential at all is configured.
 */
export function resolveManagementAccess(input: {
  apiKey?: string;
  access?: ManagementAccessOptions | ResolvedAccess;
  logger: Logger;
}): ResolvedAccess {
  // Already resolved (a host sharing one key set, token cache and failure count between the API and its other routes).
  if (input.access !== undefined && 'limiter' in input.access) {
    if (input.apiKey !== undefined)
      throw new ConfigError('Give the administration key inside the resolved access, not beside it');
    return input.access;
  }
  const listed = input.access?.keys ?? [];
  const keys = makeKeyCredentials([...(input.apiKey === undefined ? [] : [{ key: input.apiKey }]), ...listed]);
  const jwtOption = input.access?.jwt;
  const jwt = jwtOption === undefined ? undefined : 'verify' in jwtOption ? jwtOption : makeJwtVerifier(jwtOption);
  if (keys.size === 0 && jwt === undefined)
    throw new ConfigError(
      'The administration API needs a credential: an administration key of at least 32 characters, or a JWT key set',
    );
  return { keys, jwt, limiter: makeAuthFailureLimiter({ ...input.access?.failureLimit, logger: input.logger }) };
}

export interface AccessGuardOptions {
  logger: Logger;
  /**
   * Writes an error body (default: the error envelope with `PM401`, `PM403` or `PM429`, whose
   * `message` is the refusal). Kept for hosts that wrote their own envelope; not needed any more.
   */
  errorBody?: (status: number, message: string) => unknown;
  /**
   * For routes outside the operation table (a host's `/process` routes): the role every request
   * needs, and whether the caller must see every tenant. The administration API itself decides
   * per operation instead.
   */
  require?: { role: Role; allTenants: boolean };
}

const BEARER = /^Bearer[ \t]+([A-Za-z0-9\-_.~+/]+=*)[ \t]*$/i;

function headerValue(req: Request, name: string): string | undefined {
  const raw = req.headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value === undefined || value === '' ? undefined : value;
}

/** The address a failure is counted against (express' `req.ip` honours the host's `trust proxy`). */
function sourceOf(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** Middleware: 429 for a blocked source, 401 without an accepted credential, else the caller is stored and the request goes on. */
export function makeAccessGuard(access: ResolvedAccess, options: AccessGuardOptions): RequestHandler {
  const body = options.errorBody ?? managementErrorBody;
  return async (req, res, next) => {
    const source = sourceOf(req);
    const wait = access.limiter.blockedFor(source);
    if (wait > 0) {
      res.setHeader('Retry-After', String(Math.ceil(wait / 1000)));
      res.status(429).json(body(429, 'Too many failed authentications from this address: try again later'));
      return;
    }
    const refuse = (message: string, counted: boolean): void => {
      if (counted) access.limiter.recordFailure(source);
      res.status(401).json(body(401, message));
    };
    const key = headerValue(req, MANAGEMENT_KEY_HEADER);
    const authorization = headerValue(req, 'authorization');
    let caller: Caller | undefined;
    if (key !== undefined) {
      caller = access.keys.match(key);
      if (caller === undefined) return refuse('Invalid X-Process-Management-Key', true);
    } else if (authorization !== undefined) {
      const token = BEARER.exec(authorization)?.[1];
      if (token === undefined) return refuse('The Authorization header must be "Bearer <token>"', true);
      if (access.jwt === undefined)
        return refuse('Bearer tokens are not accepted by this server: use X-Process-Management-Key', true);
      try {
        caller = await access.jwt.verify(token);
      } catch (err) {
        // The reason is the verifier's own wording (expired, issuer, signature…), never the token.
        const reason = (err as { description?: unknown }).description;
        // Anything but the verifier's own refusal is a fault of this server: logged (never the token).
        if (typeof reason !== 'string') options.logger.error({ err }, 'a bearer token could not be checked');
        return refuse(typeof reason === 'string' ? reason : 'The bearer token is invalid', true);
      }
    } else {
      return refuse('Missing header X-Process-Management-Key (or Authorization: Bearer <token>)', false);
    }
    if (options.require !== undefined) {
      const problem =
        authorizationProblem(caller, options.require.role, undefined) ??
        (options.require.allTenants && caller.tenants !== '*'
          ? 'These routes need a credential for every tenant'
          : undefined);
      if (problem !== undefined) {
        res.status(403).json(body(403, problem));
        return;
      }
    }
    setCaller(res, caller);
    next();
  };
}

/**
 * Why `caller` may not run an operation needing `role` for `tenant` (undefined when it may). The
 * tenant answer is the same whether or not the tenant exists.
 */
export function authorizationProblem(caller: Caller, role: Role, tenant: string | undefined): string | undefined {
  if (!roleAllows(caller.role, role)) {
    return caller.role === null
      ? `This operation needs role ${role}; the credential carries no role`
      : `This operation needs role ${role}; the credential has role ${caller.role}`;
  }
  // Not naming the tenant keeps the answer the same for every tenant outside the scope.
  if (tenant !== undefined && !scopeIncludes(caller.tenants, tenant))
    return 'The credential is not allowed for this tenant';
  return undefined;
}
