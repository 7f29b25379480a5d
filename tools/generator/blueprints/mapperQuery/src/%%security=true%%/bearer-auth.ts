// Bearer JWT check for the query routes (security = yes): HS256 tokens signed with a shared
// secret, verified with jose (signature, expiry, and issuer/audience when configured). A missing,
// malformed, expired or wrongly signed token is 401 with the framework's error envelope and a
// `WWW-Authenticate: Bearer` header; the claims of a valid one are kept for the authorizer.
import { errorEnvelope, FwError } from '@fw/core';
import type { NextFunction, Request, Response } from 'express';
import { jwtVerify, type JWTPayload } from 'jose';

export interface BearerAuthOptions {
  /** The HS256 secret, at least 32 characters (QUERY_JWT_SECRET). */
  secret: string;
  issuer?: string;
  audience?: string;
}

export const MIN_SECRET_LENGTH = 32;

const claimsByRequest = new WeakMap<Request, JWTPayload>();

export function secretKey(secret: string): Uint8Array {
  if (secret.length < MIN_SECRET_LENGTH) throw new Error(`the JWT secret must be at least ${MIN_SECRET_LENGTH} characters`);
  return new TextEncoder().encode(secret);
}

function refuse(res: Response, description: string): void {
  const error = new FwError({ code: 401, subErrorCode: 'AUTH401', description, severity: 'WARN' });
  res.status(401).set('WWW-Authenticate', 'Bearer').json(errorEnvelope(error));
}

export function makeBearerAuth(options: BearerAuthOptions): (req: Request, res: Response, next: NextFunction) => void {
  const key = secretKey(options.secret);
  return (req, res, next) => {
    const match = /^Bearer\s+(\S+)$/i.exec(req.header('authorization') ?? '');
    if (!match) {
      refuse(res, 'A bearer token is required');
      return;
    }
    jwtVerify(match[1], key, { algorithms: ['HS256'], ...(options.issuer ? { issuer: options.issuer } : {}), ...(options.audience ? { audience: options.audience } : {}) }).then(
      ({ payload }) => {
        claimsByRequest.set(req, payload);
        next();
      },
      // The reason (expired, bad signature…) is not told to the caller: it helps an attacker more than a client.
      () => refuse(res, 'The bearer token is not valid'),
    );
  };
}

/** The `roles` claim of the request's verified token ([] when absent). */
export function rolesOf(req: Request): string[] {
  const roles = claimsByRequest.get(req)?.roles;
  return Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : [];
}
