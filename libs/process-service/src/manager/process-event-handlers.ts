/**
 * In-process ingress of the application events ProcessCreate and ProcessCompleted, for trigger
 * layers and subscribers that run in the same process as the manager.
 *
 * @example
 * const handlers = makeProcessEventHandlers(manager);
 * await handlers.ProcessCreate({ processDefName: 'import', args: {} }, makeRequestContext({ tenantId: 't1' }));
 */
import { currentContext, runWithContext, storedRequestContext, type RequestContext } from '@fw/core';
import type { Process, ProcessCompletedEvent, ProcessDto, ProcessResponse } from '@fw/process-api';
import type { ProcessManager } from './process-manager';

export interface ProcessEventHandlers {
  /**
   * Creates a root process of the request `context` (default: the current one): the process stores
   * its tenant and trigger id (the dto's `triggerId` wins); the create runs in that context.
   */
  ProcessCreate(dto: ProcessDto, context?: RequestContext): Promise<ProcessResponse>;
  /** Starts the successors of the completed process. */
  ProcessCompleted(event: ProcessCompletedEvent): Promise<Process[]>;
}

export function makeProcessEventHandlers(manager: ProcessManager): ProcessEventHandlers {
  return {
    ProcessCreate: (dto, context = currentContext()) => {
      const stored = storedRequestContext(context);
      const create = () => manager.createProcess(dto, { tenant: stored.tenant, triggerId: stored.triggerId });
      return context === undefined ? create() : runWithContext(context, create);
    },
    ProcessCompleted: (event) => manager.processCompleted(event),
  };
}
