/**
 * The in-process trigger adapter: a {@link TriggerDispatch} that raises ProcessCreate on the
 * process service's event handlers (`makeProcessEventHandlers` of `@fw/process-service`), with
 * the tenant and trigger id as headers and the trigger id on the ProcessDto.
 *
 * @example
 * const dispatch = processCreateDispatch(makeProcessEventHandlers(manager));
 * const triggers = makeTriggerService({ database, dispatch });
 */
import { TENANT_HEADER } from '@fw/core';
import { TRIGGER_HEADER, type ProcessDto } from '@fw/process-api';
import type { TriggerDispatch } from '../model/trigger-model';

/** The part of the process service's event handlers this adapter needs. */
export interface ProcessCreateIngress {
  ProcessCreate(
    dto: ProcessDto,
    headers?: Readonly<Record<string, string | undefined>>,
  ): Promise<{ mutatedEntity: { id: string } }>;
}

export function processCreateDispatch(handlers: ProcessCreateIngress): TriggerDispatch {
  return async (dto) => {
    const { tenant, ...processDto } = dto;
    const response = await handlers.ProcessCreate(processDto, {
      [TENANT_HEADER]: tenant,
      [TRIGGER_HEADER]: dto.triggerId,
    });
    return { processId: response.mutatedEntity.id };
  };
}
