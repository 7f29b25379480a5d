/**
 * The in-memory record of a process about to be created. Kept apart from the engine because roots,
 * children and successors are all built the same way and only differ in their {@link NewProcessInit}.
 */
import { PROCESS_FLOW_ID, ProcessStates, type Process, type ProcessDef } from '@fw/process-api';
import type { NewProcessInit } from './process-engine-types';

/** A process of type `def` with id `id` (`init.id` is the caller's to prefer) before the flow is entered. */
export function newProcessRecord(def: ProcessDef, init: NewProcessInit, id: string, now: Date): Process {
  const time = now.toISOString();
  return {
    id,
    processType: def.processType,
    leaf: init.leaf ?? def.leaf,
    parentId: init.parentId ?? null,
    predecessorId: init.predecessorId ?? null,
    triggerId: init.triggerId,
    tenant: init.tenant,
    state: { flowId: PROCESS_FLOW_ID, stateId: ProcessStates.isThisLeafNode },
    splitCompleted: false,
    numSubProcesses: 0,
    numCompletedSubProcesses: 0,
    completedPercent: 0,
    input: init.input ?? null,
    output: null,
    errors: [],
    description: init.description ?? null,
    createdTime: time,
    lastModifiedTime: time,
    stateEntryTime: time,
    version: 0,
  };
}
