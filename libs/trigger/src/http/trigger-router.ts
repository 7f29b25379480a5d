/**
 * The HTTP trigger adapter for EXTERNAL sources, answering with the framework envelope:
 *
 *     POST /triggers   headers x-fw-tenant-id (required), x-fw-trigger-id (optional key)
 *     { "triggerId"?: "order-4711", "payload": { "processDefName": "import", "args": { ... } } }
 *     → 200 { success: true, code: 200, payload: { triggerId, eventId, logId, dispatched, duplicate, ... } }
 *
 * The client key (body `triggerId`, else header `x-fw-trigger-id`, else a random UUID; at most
 * 80 characters) is namespaced by tenant: the stored trigger id is `external:<tenant>:<key>`, so
 * a retry with the same key is answered as a duplicate and never creates a second process.
 * A dispatch that fails is recorded FAILED and answered with its 4xx error, or a generic 500.
 * Authentication is the host's business (mount the router behind it).
 *
 * @example
 * app.use(makeTriggerRouter({ triggerService }));
 */
import { createLogger, FwError, successEnvelope, TENANT_HEADER, CoreErrorCodes, type Logger } from '@fw/core';
import { makeErrorMiddleware, rejectControlCharacters, requireJsonBody } from '@fw/core/http';
import { TRIGGER_HEADER } from '@fw/process-api';
import express, { type Router } from 'express';
import { randomUUID } from 'node:crypto';
import { invalid, TriggerError } from '../errors/trigger-error';
import { externalTriggerId, MAX_CLIENT_TRIGGER_ID_LENGTH, type TriggerPayload } from '../model/trigger-model';
import { validateTenant } from '../model/trigger-validation';
import type { TriggerService } from '../service/trigger-service';

export interface TriggerRouterOptions {
  triggerService: Pick<TriggerService, 'trigger'>;
  /** Route path. Default `/triggers`. */
  path?: string;
  logger?: Logger;
  /** Largest accepted JSON body (express notation). Default `1mb`. */
  bodyLimit?: string;
}

function header(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/** The client's trigger key: a non-empty string of at most 80 characters. */
export function validateClientTriggerKey(key: unknown): string {
  if (typeof key !== 'string' || key.trim() === '') throw invalid('triggerId', 'triggerId must be a non-empty string');
  if (key.length > MAX_CLIENT_TRIGGER_ID_LENGTH)
    throw invalid('triggerId', `triggerId must be at most ${MAX_CLIENT_TRIGGER_ID_LENGTH} characters`);
  return key;
}

/** Makes the express router of the external trigger ingress. */
export function makeTriggerRouter(options: TriggerRouterOptions): Router {
  const logger = options.logger ?? createLogger({ name: 'trigger-router' });
  const router = express.Router();
  router.use(requireJsonBody());
  router.use(express.json({ limit: options.bodyLimit ?? '1mb' }));
  router.use(rejectControlCharacters());

  router.post(options.path ?? '/triggers', async (req, res) => {
    const tenantHeader = header(req.headers[TENANT_HEADER]);
    if (tenantHeader === undefined)
      throw new TriggerError('VALIDATION', `header ${TENANT_HEADER} is required`, { field: TENANT_HEADER });
    const tenant = validateTenant(tenantHeader);
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw invalid('body', 'the body must be an object with payload');
    const { triggerId, eventName, payload } = body as { triggerId?: unknown; eventName?: unknown; payload?: unknown };
    const rawKey = triggerId ?? header(req.headers[TRIGGER_HEADER]);
    const key = rawKey === undefined || rawKey === null ? randomUUID() : validateClientTriggerKey(rawKey);
    if (eventName !== undefined && eventName !== 'ProcessCreate')
      throw invalid('eventName', 'eventName must be ProcessCreate');
    const result = await options.triggerService.trigger({
      source: 'EXTERNAL',
      triggerId: externalTriggerId(tenant, key),
      eventName: 'ProcessCreate',
      tenant,
      // Checked once, by the trigger service (validatePayload, before anything is logged): the
      // same 400 T001 naming the field that a check here would answer.
      payload: payload as TriggerPayload,
    });
    if (result.status === 'FAILED') {
      const code = result.failure?.code;
      throw code !== undefined && code >= 400 && code < 500
        ? new FwError({
            code,
            subErrorCode: result.failure?.subErrorCode ?? CoreErrorCodes.internal,
            description: result.failure?.message ?? 'Trigger dispatch failed',
          })
        : new FwError({ code: 500, subErrorCode: CoreErrorCodes.internal, description: 'Trigger dispatch failed' });
    }
    res.status(200).json(successEnvelope(result));
  });

  router.use(makeErrorMiddleware(logger));
  return router;
}
