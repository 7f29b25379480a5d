/**
 * /triggers and /executions: the trigger ingress and its history, scoped to the tenant of
 * `x-fw-tenant-id` (the crontabs are in crontab-routes.ts).
 *
 * | method | path | answer |
 * |---|---|---|
 * | POST | /triggers | `{ triggerId, eventId, logId, dispatched, duplicate }` (stored id `manual:<tenant>:<key>`) |
 * | GET | /executions?triggerId&crontabId&status&source&processType&page&size | Page of executions, newest first |
 */
import { isFwError } from '@fw/core';
import type { ProcessConfigurator } from '@fw/process-api';
import { assertInputMatches, assertRootType } from '@fw/process-service';
import { randomUUID } from 'node:crypto';
import { auditedChange, setAuditTarget } from '../audit/audit-context';
import { executionView, mapPage } from '../http/answer-views';
import { badRequest, unavailable } from '../http/management-errors';
import { parsePageRequest } from '../http/pagination';
import type { ExecutionStatus, ManagementPorts, TriggerResult, TriggerSourceKind } from '../ports/management-ports';
import type { OperationBinder } from './operation-binding';
import { optionalQuery, tenantOf, triggerPayloadOf, type TriggerBody } from './request-values';

/** The stored id of a manual trigger. */
export function defaultManualTriggerId(tenant: string, key: string): string {
  return `manual:${tenant}:${key}`;
}

/** The definition must exist, be a root type and take the args: refused now (400), not when the process starts. */
export function makeDefinitionCheck(configurator: ProcessConfigurator): (name: string, args: unknown) => Promise<void> {
  return async (name, args) => {
    const def = await configurator.findByName(name);
    if (!def) throw badRequest(`'payload.processDefName': no definition '${name}'`);
    try {
      assertRootType(def, 'payload.processDefName');
      assertInputMatches(def, args, 'payload.args');
    } catch (err) {
      if (isFwError(err)) throw badRequest(err.description);
      throw err;
    }
  };
}

export function addTriggerRoutes(bind: OperationBinder, ports: ManagementPorts): void {
  const manualTriggerId = ports.manualTriggerId ?? defaultManualTriggerId;
  const assertDefinition = makeDefinitionCheck(ports.definitions.configurator);
  const triggerService = () => {
    if (!ports.triggerService) throw unavailable('The trigger service is not configured on this host');
    return ports.triggerService;
  };

  bind('trigger', async (req, res) => {
    const tenant = tenantOf(res);
    const body = req.body as TriggerBody;
    const key = body.triggerId ?? randomUUID();
    const payload = triggerPayloadOf(body.payload);
    setAuditTarget(res, manualTriggerId(tenant, key));
    const service = triggerService();
    await assertDefinition(payload.processDefName, payload.args);
    // The audit row commits with the trigger's claim (its log entry and RUNNING execution).
    const result = await auditedChange(res, (inTransaction) =>
      service.trigger(
        { source: 'MANUAL', triggerId: manualTriggerId(tenant, key), tenant, payload },
        { inTransaction },
      ),
    );
    const answer: TriggerResult = {
      triggerId: result.triggerId,
      eventId: result.eventId,
      logId: result.logId,
      dispatched: result.dispatched,
      duplicate: result.duplicate,
    };
    res.json(answer);
  });

  bind('listExecutions', async (req, res) => {
    const request = parsePageRequest(req.query);
    const filter = {
      tenant: tenantOf(res),
      triggerId: optionalQuery(req.query, 'triggerId'),
      crontabId: optionalQuery(req.query, 'crontabId'),
      status: optionalQuery(req.query, 'status') as ExecutionStatus | undefined,
      source: optionalQuery(req.query, 'source') as TriggerSourceKind | undefined,
      processType: optionalQuery(req.query, 'processType'),
    };
    res.json(mapPage(await triggerService().listExecutions(filter, request), executionView));
  });
}
