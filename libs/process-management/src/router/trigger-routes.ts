/**
 * /triggers, /executions and /crontabs: the trigger ingress, its history and the ProcessCreate
 * schedules, all scoped to the tenant of `x-fw-tenant-id`.
 *
 * | method | path | answer |
 * |---|---|---|
 * | POST | /triggers | `{ triggerId, eventId, logId, dispatched, duplicate }` (stored id `manual:<tenant>:<key>`) |
 * | GET | /executions?triggerId&crontabId&status&page&size | Page of executions, newest first |
 * | GET | /crontabs | Page of crontabs |
 * | POST | /crontabs | 201 crontab; 409 duplicate name; 400 bad cron/timezone; 503 without scheduler |
 * | PUT | /crontabs/{id} | crontab (edit, enable, disable); 404 other tenant; 503 without scheduler |
 */
import { isFwError } from '@fw/core';
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { badRequest, conflict, notFound, unavailable } from '../http/management-errors';
import { parsePageRequest } from '../http/pagination';
import { EXECUTION_STATUSES, type CrontabInput, type ExecutionStatus, type ManagementPorts, type TriggerResult } from '../ports/management-ports';
import { bodyObject, optionalQuery, parseTriggerPayload, requiredBoolean, requiredString, tenantOf } from './request-values';

/** Longest client trigger id (spec 2, Limits). */
export const MAX_TRIGGER_ID_LENGTH = 80;

/** The stored id of a manual trigger. */
export function defaultManualTriggerId(tenant: string, key: string): string {
  return `manual:${tenant}:${key}`;
}

/**
 * Default mapping of crontab-store errors: a typed error whose `code` or `name` speaks of a
 * duplicate becomes 409, one speaking of an invalid expression, time zone or input becomes 400.
 */
export function defaultCrontabErrorClassifier(error: unknown): { status: number; message: string } | undefined {
  if (!(error instanceof Error)) return undefined;
  const tag = `${String((error as { code?: unknown }).code ?? '')} ${error.name}`;
  if (/duplicate|unique|exists/i.test(tag)) return { status: 409, message: error.message };
  if (/invalid|cron|timezone|time zone|validation/i.test(tag)) return { status: 400, message: error.message };
  return undefined;
}

function validTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function checkCron(expression: string): void {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 6) throw badRequest(`'cronExpression' must have six fields, seconds first (e.g. "0 */5 * * * *"), got ${fields.length}`);
}

export function addTriggerRoutes(router: Router, ports: ManagementPorts): void {
  const manualTriggerId = ports.manualTriggerId ?? defaultManualTriggerId;
  const classify = ports.classifyCrontabError ?? defaultCrontabErrorClassifier;
  const { configurator } = ports.definitions;

  const triggerService = () => {
    if (!ports.triggerService) throw unavailable('The trigger service is not configured on this host');
    return ports.triggerService;
  };
  const crontabStore = () => {
    if (!ports.crontabs) throw unavailable('Cron is not configured on this host');
    return ports.crontabs;
  };
  const scheduler = () => {
    if (!ports.scheduler) throw unavailable('The cron scheduler is not configured on this host: crontabs cannot be changed');
    return ports.scheduler;
  };
  const assertDefinition = async (name: string) => {
    if (!(await configurator.findByName(name))) throw badRequest(`'payload.processDefName': no definition '${name}'`);
  };
  /** Runs a store call, mapping its typed errors to 409/400. */
  const storeCall = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (isFwError(err)) throw err;
      const mapped = classify(err);
      if (mapped?.status === 409) throw conflict(mapped.message);
      if (mapped) throw badRequest(mapped.message);
      throw err;
    }
  };

  router.post('/triggers', async (req, res) => {
    const tenant = tenantOf(res);
    const body = bodyObject(req.body);
    let key: string = randomUUID();
    if (body.triggerId !== undefined && body.triggerId !== null) {
      if (typeof body.triggerId !== 'string' || body.triggerId.trim() === '') throw badRequest(`'triggerId' must be a non-empty string`);
      if (body.triggerId.length > MAX_TRIGGER_ID_LENGTH) throw badRequest(`'triggerId' must be at most ${MAX_TRIGGER_ID_LENGTH} characters`);
      key = body.triggerId;
    }
    const payload = parseTriggerPayload(body.payload);
    const service = triggerService();
    await assertDefinition(payload.processDefName);
    const result = await service.trigger({ source: 'MANUAL', triggerId: manualTriggerId(tenant, key), tenant, payload });
    const answer: TriggerResult = { triggerId: result.triggerId, eventId: result.eventId, logId: result.logId, dispatched: result.dispatched, duplicate: result.duplicate };
    res.json(answer);
  });

  router.get('/executions', async (req, res) => {
    const request = parsePageRequest(req.query);
    const status = optionalQuery(req.query, 'status');
    if (status !== undefined && !(EXECUTION_STATUSES as readonly string[]).includes(status)) {
      throw badRequest(`Query parameter 'status' must be one of ${EXECUTION_STATUSES.join(', ')}`);
    }
    const filter = {
      tenant: tenantOf(res),
      triggerId: optionalQuery(req.query, 'triggerId'),
      crontabId: optionalQuery(req.query, 'crontabId'),
      status: status as ExecutionStatus | undefined,
    };
    res.json(await triggerService().listExecutions(filter, request));
  });

  router.get('/crontabs', async (req, res) => {
    const request = parsePageRequest(req.query);
    res.json(await crontabStore().list(tenantOf(res), request));
  });

  router.get('/crontabs/:id', async (req, res) => {
    const tenant = tenantOf(res);
    const found = await storeCall(() => crontabStore().get(req.params.id, tenant));
    if (!found) throw notFound(`No crontab ${req.params.id} in tenant ${tenant}`);
    res.json(found);
  });

  router.post('/crontabs', async (req, res) => {
    const tenant = tenantOf(res);
    const store = crontabStore();
    const cron = scheduler();
    const body = bodyObject(req.body);
    const input: CrontabInput = {
      name: requiredString(body, 'name', 200),
      cronExpression: requiredString(body, 'cronExpression', 200),
      timezone: body.timezone === undefined ? 'UTC' : requiredString(body, 'timezone', 100),
      enabled: body.enabled === undefined ? true : requiredBoolean(body, 'enabled'),
      payload: parseTriggerPayload(body.payload),
    };
    checkCron(input.cronExpression);
    if (!validTimezone(input.timezone)) throw badRequest(`'timezone' must be an IANA time zone (e.g. Europe/Berlin), got '${input.timezone}'`);
    await assertDefinition(input.payload.processDefName);
    const created = await storeCall(() => store.add(tenant, input));
    await cron.reload();
    res.status(201).json(created);
  });

  router.put('/crontabs/:id', async (req, res) => {
    const tenant = tenantOf(res);
    const store = crontabStore();
    const cron = scheduler();
    const body = bodyObject(req.body);
    const changes: Partial<CrontabInput> = {};
    if (body.name !== undefined) changes.name = requiredString(body, 'name', 200);
    if (body.cronExpression !== undefined) {
      changes.cronExpression = requiredString(body, 'cronExpression', 200);
      checkCron(changes.cronExpression);
    }
    if (body.timezone !== undefined) {
      changes.timezone = requiredString(body, 'timezone', 100);
      if (!validTimezone(changes.timezone)) throw badRequest(`'timezone' must be an IANA time zone (e.g. Europe/Berlin), got '${changes.timezone}'`);
    }
    if (body.enabled !== undefined) changes.enabled = requiredBoolean(body, 'enabled');
    if (body.payload !== undefined) {
      changes.payload = parseTriggerPayload(body.payload);
      await assertDefinition(changes.payload.processDefName);
    }
    if (Object.keys(changes).length === 0) throw badRequest('Nothing to change: give name, cronExpression, timezone, enabled or payload');
    const updated = await storeCall(() => store.update(req.params.id, tenant, changes));
    if (!updated) throw notFound(`No crontab ${req.params.id} in tenant ${tenant}`);
    await cron.reload();
    res.json(updated);
  });
}
