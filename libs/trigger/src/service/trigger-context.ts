/**
 * The request context of a trigger: created once per claimed trigger by the trigger service (the
 * edge every trigger source goes through) and handed unchanged to the dispatch, which gives it to
 * the process service, which stores its tenant and trigger id on the process row.
 *
 * @example
 * const context = triggerContext({ source: 'CRON', triggerId: 'cron:…' }, 't1', executionId);
 * // { tenantId: 't1', trigger: { id: 'cron:…', source: 'CRON' }, requestId: executionId, headers: {…} }
 */
import { currentContext, makeRequestContext, type RequestContext } from '@fw/core';
import type { TriggerInput } from '../model/trigger-model';

/**
 * The context of one trigger. A trigger raised inside an HTTP request (POST /triggers of the
 * administration API) keeps that request's id and authenticated caller; a cron firing has neither,
 * so its request id is `requestId` (the execution id).
 */
export function triggerContext(
  input: Pick<TriggerInput, 'source' | 'triggerId'>,
  tenant: string,
  requestId: string,
): RequestContext {
  const outer = currentContext();
  return makeRequestContext({
    tenantId: tenant,
    trigger: { id: input.triggerId, source: input.source },
    requestId: outer?.requestId ?? requestId,
    caller: outer?.caller ?? null,
  });
}
