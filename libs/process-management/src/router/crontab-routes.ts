/**
 * /crontabs: the tenant's ProcessCreate schedules. Every write reloads the cron scheduler; without
 * a crontab store (or, for writes, a scheduler) the routes answer 503.
 *
 * | method | path | answer |
 * |---|---|---|
 * | GET | /crontabs | Page of crontabs, newest first |
 * | GET | /crontabs/{id} | crontab; 404 outside the tenant |
 * | POST | /crontabs | 201 crontab; 409 duplicate name; 400 bad cron/time zone/definition |
 * | PUT | /crontabs/{id} | crontab (edit, enable, disable); 404 outside the tenant; 409 duplicate name |
 * | DELETE | /crontabs/{id} | 204; 404 outside the tenant |
 */
import { isFwError } from '@fw/core';
import type { Response } from 'express';
import { auditedChange, setAuditTarget, type AuditInTransaction } from '../audit/audit-context';
import { crontabView, mapPage } from '../http/answer-views';
import { badRequest, conflict, notFound, unavailable } from '../http/management-errors';
import { parsePageRequest } from '../http/pagination';
import type { ChangeOptions, CrontabInput, CrontabRecord, ManagementPorts } from '../ports/management-ports';
import type { OperationBinder } from './operation-binding';
import { tenantOf, triggerPayloadOf, type CrontabBody, type TriggerPayloadBody } from './request-values';
import { makeDefinitionCheck } from './trigger-routes';

/** POST /crontabs: CrontabInput requires these three. */
type NewCrontabBody = CrontabBody & { name: string; cronExpression: string; payload: TriggerPayloadBody };

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

function assertTimezone(zone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw badRequest(`'timezone' must be an IANA time zone (e.g. Europe/Berlin), got '${zone}'`);
  }
}

function assertSixFields(expression: string): void {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 6)
    throw badRequest(
      `'cronExpression' must have six fields, seconds first (e.g. "0 */5 * * * *"), got ${fields.length}`,
    );
}

/** The checks a schema cannot state: six cron fields, a known time zone, an existing root definition taking the args. */
async function checkCrontabFields(
  body: CrontabBody,
  assertDefinition: (name: string, args: unknown) => Promise<void>,
): Promise<Partial<CrontabInput>> {
  const fields: Partial<CrontabInput> = {};
  if (body.name !== undefined) fields.name = body.name;
  if (body.cronExpression !== undefined) {
    assertSixFields(body.cronExpression);
    fields.cronExpression = body.cronExpression;
  }
  if (body.timezone !== undefined) {
    assertTimezone(body.timezone);
    fields.timezone = body.timezone;
  }
  if (body.enabled !== undefined) fields.enabled = body.enabled;
  if (body.payload !== undefined) {
    fields.payload = triggerPayloadOf(body.payload);
    await assertDefinition(fields.payload.processDefName, fields.payload.args);
  }
  return fields;
}

/** The audit row of a new crontab names its id, known only inside the insert's transaction. */
function namingNewCrontab(
  res: Response,
  inTransaction: AuditInTransaction | undefined,
): ChangeOptions<CrontabRecord>['inTransaction'] {
  if (inTransaction === undefined) return undefined;
  return async (trx, crontab) => {
    setAuditTarget(res, crontab.id);
    await inTransaction(trx);
  };
}

export function addCrontabRoutes(bind: OperationBinder, ports: ManagementPorts): void {
  const classify = ports.classifyCrontabError ?? defaultCrontabErrorClassifier;
  const assertDefinition = makeDefinitionCheck(ports.definitions.configurator);
  const crontabStore = () => {
    if (!ports.crontabs) throw unavailable('Cron is not configured on this host');
    return ports.crontabs;
  };
  const scheduler = () => {
    if (!ports.scheduler)
      throw unavailable('The cron scheduler is not configured on this host: crontabs cannot be changed');
    return ports.scheduler;
  };
  /** Runs a store call, mapping its typed errors to 409/400. */
  const storeCall = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (isFwError(err) && err.expose) throw err;
      const mapped = classify(err);
      if (mapped?.status === 409) throw conflict(mapped.message);
      if (mapped) throw badRequest(mapped.message);
      throw err;
    }
  };

  bind('listCrontabs', async (req, res) => {
    res.json(mapPage(await crontabStore().list(tenantOf(res), parsePageRequest(req.query)), crontabView));
  });

  bind('getCrontab', async (req, res) => {
    const tenant = tenantOf(res);
    const id = String(req.params.id);
    const found = await storeCall(() => crontabStore().get(id, tenant));
    if (!found) throw notFound(`No crontab ${id} in tenant ${tenant}`);
    res.json(crontabView(found));
  });

  bind('addCrontab', async (req, res) => {
    const tenant = tenantOf(res);
    const store = crontabStore();
    const cron = scheduler();
    const body = req.body as NewCrontabBody;
    await checkCrontabFields(body, assertDefinition);
    const input: CrontabInput = {
      name: body.name,
      cronExpression: body.cronExpression,
      timezone: body.timezone ?? 'UTC',
      enabled: body.enabled ?? true,
      payload: triggerPayloadOf(body.payload),
    };
    const created = await auditedChange(res, (inTransaction) =>
      storeCall(() => store.add(tenant, input, { inTransaction: namingNewCrontab(res, inTransaction) })),
    );
    setAuditTarget(res, created.id);
    await cron.reload();
    res.status(201).json(crontabView(created));
  });

  bind('updateCrontab', async (req, res) => {
    const tenant = tenantOf(res);
    const id = String(req.params.id);
    const store = crontabStore();
    const cron = scheduler();
    const changes = await checkCrontabFields(req.body as CrontabBody, assertDefinition);
    const updated = await auditedChange(res, (inTransaction) =>
      storeCall(() => store.update(id, tenant, changes, { inTransaction })),
    );
    if (!updated) throw notFound(`No crontab ${id} in tenant ${tenant}`);
    await cron.reload();
    res.json(crontabView(updated));
  });

  bind('deleteCrontab', async (req, res) => {
    const tenant = tenantOf(res);
    const id = String(req.params.id);
    const store = crontabStore();
    const cron = scheduler();
    if (!(await auditedChange(res, (inTransaction) => store.remove(id, tenant, { inTransaction }))))
      throw notFound(`No crontab ${id} in tenant ${tenant}`);
    await cron.reload();
    res.status(204).end();
  });
}
