/**
 * The in-process trigger adapter: a {@link TriggerDispatch} that raises ProcessCreate on the
 * process service's event handlers (`makeProcessEventHandlers` of `@fw/process-service`), handing
 * over the trigger's request context as it is (tenant, trigger id and source, request id, caller)
 * and the trigger id on the ProcessDto.
 *
 * @example
 * const dispatch = processCreateDispatch(makeProcessEventHandlers(manager));
 * const triggers = makeTriggerService({ database, dispatch });
 */
import { currentContext, makeRequestContext, type RequestContext } from '@fw/core';
import type { ProcessDto } from '@fw/process-api';
import type { TriggerDispatch, TriggerDispatchDto } from '../model/trigger-model';

/** The part of the process service's event handlers this adapter needs. */
export interface ProcessCreateIngress {
  ProcessCreate(dto: ProcessDto, context?: RequestContext): Promise<{ mutatedEntity: { id: string } }>;
}

/**
 * The context the trigger service runs the dispatch in; a dispatch called on its own (no context
 * for this tenant and trigger) gets one made of the dto's tenant and trigger id.
 */
function contextOf(dto: TriggerDispatchDto): RequestContext {
  const current = currentContext();
  if (current?.tenantId === dto.tenant && current.trigger?.id === dto.triggerId) return current;
  return makeRequestContext({ tenantId: dto.tenant, trigger: { id: dto.triggerId } });
}

export function processCreateDispatch(handlers: ProcessCreateIngress): TriggerDispatch {
  return async (dto) => {
    const { tenant: _tenant, ...processDto } = dto;
    const response = await handlers.ProcessCreate(processDto, contextOf(dto));
    return { processId: response.mutatedEntity.id };
  };
}
