/**
 * Completion and chaining helpers: the {@link ProcessCompletedEvent} of a finished process and the
 * input a successor receives according to its definition's `predecessorArgs`.
 */
import {
  PredecessorArgs,
  predecessorArgsOf,
  ProcessStates,
  type Process,
  type ProcessCompletedEvent,
  type ProcessDef,
} from '@fw/process-api';

/**
 * The completion event of a process in a terminal state. As a ProcessDto it names the completed
 * type in `processDefName` and carries the input in `args`.
 */
export function completedEventOf(process: Process): ProcessCompletedEvent {
  return {
    processDefName: process.processType,
    args: process.input,
    triggerId: process.triggerId,
    description: process.description,
    processId: process.id,
    processType: process.processType,
    tenantId: process.tenant,
    state: process.state.stateId,
    input: process.input,
    output: process.output,
    successful: process.state.stateId === ProcessStates.PROCESSED,
  };
}

/**
 * What a successor defined by `def` receives from `event`:
 * INPUT → the predecessor's input; OUTPUT → its output; BOTH (default) → `{ input, output }`.
 *
 * @example
 * successorInput({ processType: 'b', leaf: true, predecessorArgs: 'BOTH' }, event); // { input, output }
 */
export function successorInput(
  def: Pick<ProcessDef, 'predecessorArgs'>,
  event: Pick<ProcessCompletedEvent, 'input' | 'output'>,
): unknown {
  switch (predecessorArgsOf(def)) {
    case PredecessorArgs.INPUT:
      return event.input ?? null;
    case PredecessorArgs.OUTPUT:
      return event.output ?? null;
    default:
      return { input: event.input ?? null, output: event.output ?? null };
  }
}

/** Indexed view of the definitions read once per manager call. */
export interface DefinitionSnapshot {
  get(processType: string): ProcessDef | undefined;
  successorsOf(processType: string): ProcessDef[];
}

export function definitionSnapshot(defs: readonly ProcessDef[]): DefinitionSnapshot {
  const byType = new Map(defs.map((d) => [d.processType, d] as const));
  return {
    get: (processType) => byType.get(processType),
    successorsOf: (processType) => defs.filter((d) => d.predecessorProcessType === processType),
  };
}
