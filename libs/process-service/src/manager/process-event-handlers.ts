/**
 * In-process ingress of the application events ProcessCreate and ProcessCompleted, for trigger
 * layers and subscribers that run in the same process as the manager.
 *
 * @example
 * const handlers = makeProcessEventHandlers(manager);
 * await handlers.ProcessCreate({ processDefName: 'import', args: {} }, { 'x-fw-tenant-id': 't1' });
 */
import { TENANT_HEADER } from '@fw/core';
import {
  TRIGGER_HEADER,
  type Process,
  type ProcessCompletedEvent,
  type ProcessDto,
  type ProcessResponse,
} from '@fw/process-api';
import type { ProcessManager } from './process-manager';

/** Framework headers of an event (`x-fw-tenant-id`, `x-fw-trigger-id`), lower-case names. */
export type EventHeaders = Readonly<Record<string, string | undefined>>;

export interface ProcessEventHandlers {
  /** Creates a root process; tenant and trigger id come from the headers (the dto's triggerId wins). */
  ProcessCreate(dto: ProcessDto, headers?: EventHeaders): Promise<ProcessResponse>;
  /** Starts the successors of the completed process. */
  ProcessCompleted(event: ProcessCompletedEvent): Promise<Process[]>;
}

export function makeProcessEventHandlers(manager: ProcessManager): ProcessEventHandlers {
  return {
    ProcessCreate: (dto, headers = {}) =>
      manager.createProcess(dto, {
        tenant: headers[TENANT_HEADER] ?? null,
        triggerId: headers[TRIGGER_HEADER] ?? null,
      }),
    ProcessCompleted: (event) => manager.processCompleted(event),
  };
}
