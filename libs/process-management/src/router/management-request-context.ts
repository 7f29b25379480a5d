/**
 * The request context of an administration API call, created once at this edge after the access
 * guard, the request id and the tenant header did their work: the handlers and everything they
 * call in process (the trigger service, the process manager) read it from `@fw/core`'s
 * `currentContext()` instead of being handed its parts one by one.
 *
 * @example
 * api.use(assignRequestId(), makeAccessGuard(access), requireTenant(), enterRequestContext());
 */
import { makeRequestContext, runWithContext } from '@fw/core';
import type { RequestHandler } from 'express';
import { findCaller } from '../access/caller';
import { requestIdOf } from './request-id';
import { tenantOf } from './request-values';

/** Middleware: runs the rest of the request in its context (tenant, request id, authenticated caller). */
export function enterRequestContext(): RequestHandler {
  return (_req, res, next) => {
    const caller = findCaller(res);
    const context = makeRequestContext({
      tenantId: tenantOf(res),
      requestId: requestIdOf(res),
      caller: caller === undefined ? null : { actor: caller.actor, credential: caller.credential, role: caller.role },
    });
    runWithContext(context, () => next());
  };
}
