/**
 * Authentication and authorisation of the administration API.
 *
 * `makeAccessGuard` accepts a request that carries either an administration key
 * (`X-Process-Management-Key`, one of several during a rotation) or `Authorization: Bearer <JWT>`
 * (when a key set is configured), stores the caller and lets it through; a missing or refused
 * credential answers 401 (the error envelope; its `message` says why). Refused credentials, and
 * writes without any, are counted per source address: past the limit the address gets 429 until
 * its window ends.
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
import type { Request, RequestHandler, Response } from 'express';
import { managementErrorBody } from '../http/management-errors';
import { MANAGEMENT_KEY_HEADER } from '../auth/key-guard';
import { roleAllows, type Role } from './access-roles';
import { makeAuthFailureLimiter, type AuthFailureLimitOptions, type AuthFailureLimiter } from './auth-failure-limiter';
import { scopeIncludes, setCaller, type Caller } from './caller';
import { makeKeyCredentials, type KeyCredential, type KeyCredentials } from './key-credentials';
import { makeJwtVerifier, refusedTokenSubject, type JwtVerifier, type JwtVerifierOptions } from './jwt-verifier';

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
  const jwt =
    jwtOption === undefined
      ? undefined
      : 'verify' in jwtOption
        ? jwtOption
        : makeJwtVerifier({ logger: input.logger, ...jwtOption });
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
  /**
   * Runs before a 401 is answered (the administration API records refused writes in its audit
   * trail); it must not throw. Not called for the 429 of a blocked address.
   */
  onRefused?: (req: Request, res: Response, refusal: CredentialRefusal) => Promise<void>;
}

const BEARER = /^Bearer[ \t]+([A-Za-z0-9\-_.~+/]+=*)[ \t]*$/i;

/** A credential refused with 401, as the audit trail records it. */
export interface CredentialRefusal {
  /** The kind of credential presented; null when none was. */
  credential: 'key' | 'jwt' | null;
  /** `jwt:<sub>` of a token the identity provider signed but whose claims were refused (expired, another audience); else undefined. */
  actor: string | undefined;
}

/** Why a request has no caller: the 401's message, whether it counts against the address, what was presented. */
interface Refusal extends CredentialRefusal {
  message: string;
  counted: boolean;
}

function headerValue(req: Request, name: string): string | undefined {
  const raw = req.headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value === undefined || value === '' ? undefined : value;
}

/** The address a failure is counted against (express' `req.ip` honours the host's `trust proxy`). */
function sourceOf(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** Reads are not counted without a credential (a browser opening the dashboard); writes are. */
function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

async function tokenCaller(token: string, access: ResolvedAccess, logger: Logger): Promise<Caller | Refusal> {
  if (access.jwt === undefined)
    return {
      message: 'Bearer tokens are not accepted by this server: use X-Process-Management-Key',
      counted: true,
      credential: 'jwt',
      actor: undefined,
    };
  try {
    return await access.jwt.verify(token);
  } catch (err) {
    // The reason is the verifier's own wording (expired, issuer, signature…), never the token.
    const reason = (err as { description?: unknown }).description;
    // Anything but the verifier's own refusal is a fault of this server: logged (never the token).
    if (typeof reason !== 'string') logger.error({ err }, 'a bearer token could not be checked');
    const subject = refusedTokenSubject(err);
    return {
      message: typeof reason === 'string' ? reason : 'The bearer token is invalid',
      counted: true,
      credential: 'jwt',
      actor: subject === undefined ? undefined : `jwt:${subject}`,
    };
  }
}

/** The caller of the request's credential, or why there is none. */
async function callerOrRefusal(req: Request, access: ResolvedAccess, logger: Logger): Promise<Caller | Refusal> {
  const key = headerValue(req, MANAGEMENT_KEY_HEADER);
  if (key !== undefined)
    return (
      access.keys.match(key) ?? {
        message: 'Invalid X-Process-Management-Key',
        counted: true,
        credential: 'key',
        actor: undefined,
      }
    );
  const authorization = headerValue(req, 'authorization');
  if (authorization === undefined)
    return {
      message: 'Missing header X-Process-Management-Key (or Authorization: Bearer <token>)',
      counted: !isRead(req.method),
      credential: null,
      actor: undefined,
    };
  const token = BEARER.exec(authorization)?.[1];
  if (token === undefined)
    return {
      message: 'The Authorization header must be "Bearer <token>"',
      counted: true,
      credential: 'jwt',
      actor: undefined,
    };
  return tokenCaller(token, access, logger);
}

/** The 403 of routes that need one role and perhaps every tenant, or undefined. */
function requirementProblem(caller: Caller, require: AccessGuardOptions['require']): string | undefined {
  if (require === undefined) return undefined;
  return (
    authorizationProblem(caller, require.role, undefined) ??
    (require.allTenants && caller.tenants !== '*' ? 'These routes need a credential for every tenant' : undefined)
  );
}

/**
 * Middleware: 429 for a blocked source, 401 without an accepted credential (counted against the
 * source, except a read without any credential; `onRefused` runs before the answer), else the
 * caller is stored and the request goes on.
 */
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
    const found = await callerOrRefusal(req, access, options.logger);
    if ('message' in found) {
      if (found.counted) access.limiter.recordFailure(source);
      await options.onRefused?.(req, res, { credential: found.credential, actor: found.actor });
      res.status(401).json(body(401, found.message));
      return;
    }
    const problem = requirementProblem(found, options.require);
    if (problem !== undefined) {
      res.status(403).json(body(403, problem));
      return;
    }
    setCaller(res, found);
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
