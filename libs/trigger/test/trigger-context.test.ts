import { currentContext, makeRequestContext, runWithContext, type RequestContext } from '@fw/core';
import type { ProcessDto } from '@fw/process-api';
import { describeEachDatabase } from '@fw/test-support';
import { makeTriggerService, manualTriggerId, processCreateDispatch, type ProcessCreateIngress } from '@fw/trigger';
import { freshTenant } from './support';

interface Received {
  dto: ProcessDto;
  context: RequestContext | undefined;
  current: RequestContext | undefined;
}

function recordingIngress(): ProcessCreateIngress & { received: Received[] } {
  const received: Received[] = [];
  return {
    received,
    async ProcessCreate(dto, context) {
      received.push({ dto, context, current: currentContext() });
      return { mutatedEntity: { id: `p-${received.length}` } };
    },
  };
}

describeEachDatabase('the request context of a trigger', (getDb) => {
  it('reaches ProcessCreate as one typed value: tenant, trigger id and source, the request id and caller of the HTTP request', async () => {
    const ingress = recordingIngress();
    const service = makeTriggerService({ database: getDb().database, dispatch: processCreateDispatch(ingress) });
    const tenant = freshTenant();
    const triggerId = manualTriggerId(tenant, 'ctx-1');
    const edge = makeRequestContext({
      tenantId: tenant,
      requestId: 'req-42',
      caller: { actor: 'jwt:alice', credential: 'jwt', role: 'operator' },
    });
    const result = await runWithContext(edge, () =>
      service.trigger({ source: 'MANUAL', triggerId, tenant, payload: { processDefName: 'import', args: { day: 1 } } }),
    );
    expect(result).toMatchObject({ status: 'COMPLETED', processId: 'p-1' });
    const [call] = ingress.received;
    expect(call.dto).toEqual({ processDefName: 'import', args: { day: 1 }, triggerId });
    expect(call.context).toEqual({
      tenantId: tenant,
      trigger: { id: triggerId, source: 'MANUAL' },
      requestId: 'req-42',
      caller: { actor: 'jwt:alice', credential: 'jwt', role: 'operator' },
      headers: { 'x-fw-tenant-id': tenant, 'x-fw-trigger-id': triggerId },
    });
    // The same object the dispatch ran under: handed down, not rebuilt.
    expect(call.context).toBe(call.current);
    expect(Object.isFrozen(call.context)).toBe(true);
  });

  it('gives a trigger raised outside any request (a cron firing) the execution id as its request id', async () => {
    const ingress = recordingIngress();
    const service = makeTriggerService({ database: getDb().database, dispatch: processCreateDispatch(ingress) });
    const tenant = freshTenant();
    const triggerId = `cron:${tenant}:2026-01-01T00:00:00.000Z`;
    const result = await service.trigger({ source: 'CRON', triggerId, tenant, payload: { processDefName: 'import' } });
    const [call] = ingress.received;
    expect(call.context).toMatchObject({ tenantId: tenant, trigger: { id: triggerId, source: 'CRON' } });
    expect(call.context?.requestId).toBe(result.executionId);
    expect(call.context?.caller).toBeUndefined();
  });

  it('a dispatch called on its own hands over a context made of the dto', async () => {
    const ingress = recordingIngress();
    await processCreateDispatch(ingress)({ processDefName: 'import', triggerId: 'manual:t9:k', tenant: 't9' });
    expect(ingress.received[0].context).toEqual({
      tenantId: 't9',
      trigger: { id: 'manual:t9:k' },
      headers: { 'x-fw-tenant-id': 't9', 'x-fw-trigger-id': 'manual:t9:k' },
    });
  });
});
