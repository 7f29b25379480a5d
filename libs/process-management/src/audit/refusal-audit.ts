/**
 * Writes refused before their operation's handler could run, because no credential was accepted
 * (401): each is recorded as a `refused` row of the operation it asked for, with the actor when it
 * is known (`jwt:<sub>` of a token the identity provider signed whose claims were refused, such as
 * an expired one), else `anonymous`; the kind of credential presented (null for none); the tenant
 * header when it is a valid tenant id; the id or name in the path; the request id. Reads, and
 * paths that are no operation, are not recorded. The 403 refusals happen once the operation is
 * known and are recorded by the operation gate.
 *
 * A row is written before the 401 leaves; if it cannot be stored the refusal is logged and
 * answered all the same. Addresses that keep failing are stopped by the failure limit (429,
 * not recorded), so this cannot fill the trail faster than that limit allows.
 *
 * @example
 * router.use(makeAccessGuard(access, { logger, onRefused: makeRefusalAudit({ audit, logger, operations: ADMIN_API_OPERATIONS }) }));
 */
import { TENANT_HEADER, TENANT_ID_PATTERN, type Logger } from '@fw/core';
import type { Request, Response } from 'express';
import type { CredentialRefusal } from '../access/access-guard';
import { isAudited } from '../access/operation-access-table';
import type { ApiMethod } from '../openapi/admin-api-operations';
import { requestIdOf } from '../router/request-id';
import type { AuditStore } from './audit-store';

/** An operation of the API as far as its refusals are concerned. */
export interface RefusableOperation {
  operationId: string;
  method: ApiMethod;
  /** Relative to the mount path, with `{name}` parameters. */
  path: string;
}

export interface RefusalAuditOptions {
  audit: AuditStore;
  logger: Logger;
  operations: readonly RefusableOperation[];
}

/** The actor of a refused request whose caller is not known. */
export const ANONYMOUS_ACTOR = 'anonymous';

/** Longest target stored for a refused request (the path is the caller's to choose). */
const MAX_TARGET_LENGTH = 512;

interface PathMatcher {
  operation: RefusableOperation;
  pattern: RegExp;
}

function matcherOf(operation: RefusableOperation): PathMatcher {
  const source = operation.path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return { operation, pattern: new RegExp(`^${source}/?$`) };
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function tenantHeaderOf(req: Request): string | null {
  const raw = req.headers[TENANT_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value !== undefined && TENANT_ID_PATTERN.test(value) ? value : null;
}

/** The guard's `onRefused` that records refused writes. */
export function makeRefusalAudit(
  options: RefusalAuditOptions,
): (req: Request, res: Response, refusal: CredentialRefusal) => Promise<void> {
  // Literal paths first: POST /definitions/refresh is that operation, not /definitions/{name}.
  const matchers = options.operations
    .filter((op) => isAudited(op.method))
    .map(matcherOf)
    .sort((a, b) => Number(a.operation.path.includes('{')) - Number(b.operation.path.includes('{')));
  return async (req, res, refusal) => {
    const method = req.method.toLowerCase();
    let target: string | null = null;
    const found = matchers.find((m) => {
      if (m.operation.method !== method) return false;
      const match = m.pattern.exec(req.path);
      if (match === null) return false;
      target = match[1] === undefined ? null : decoded(match[1]).slice(0, MAX_TARGET_LENGTH);
      return true;
    });
    if (found === undefined) return;
    const entry = {
      actor: refusal.actor ?? ANONYMOUS_ACTOR,
      credential: refusal.credential,
      tenant: tenantHeaderOf(req),
      action: found.operation.operationId,
      target,
      outcome: 'refused' as const,
      requestId: requestIdOf(res),
    };
    try {
      await options.audit.record(entry);
    } catch (err) {
      options.logger.error(
        { err, action: entry.action, requestId: entry.requestId },
        'administration API: the audit row of a refused request could not be written',
      );
    }
  };
}
