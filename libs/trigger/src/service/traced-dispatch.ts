/**
 * A trigger's dispatch inside its `fw.trigger` span (attribute `fw.trigger.id`): the process the
 * dispatch creates records its `create` span under it, so a run's trace starts at the trigger.
 */
import { runWithContext, type RequestContext } from '@fw/core';
import { inFwSpan } from '@fw/telemetry';
import type { TriggerDispatch, TriggerDispatchDto } from '../model/trigger-model';

/** Calls `dispatch(dto)` in `context` (the trigger's request context) and in the trigger's span. */
export function dispatchTraced(
  dispatch: TriggerDispatch,
  dto: TriggerDispatchDto,
  context: RequestContext,
): ReturnType<TriggerDispatch> {
  const firing = { triggerId: dto.triggerId, tenant: dto.tenant, processType: dto.processDefName };
  return inFwSpan('fw.trigger', firing, () => runWithContext(context, () => dispatch(dto)));
}
