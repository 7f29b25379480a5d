/**
 * The process flow: `flows/process-flow.xml` run by `@fw/stm` with the actions and conditions of
 * {@link processFlowActions}. Refusals of the state machine become framework errors
 * (422 `P010`), so callers never see stm error types.
 *
 * @example
 * const flow = await makeProcessFlow();
 * flow.allowedActions({ flowId: 'process-flow', stateId: 'EXECUTING' }).map((a) => a.allowedAction);
 * // ['doneSuccessfully', 'doneWithErrors', 'statusUpdate']
 */
import { FwError } from '@fw/core';
import {
  PROCESS_FLOW_ID,
  ProcessErrorCodes,
  WorkerType,
  type AllowedActionInfo,
  type Process,
  type ProcessState,
} from '@fw/process-api';
import {
  isStmError,
  loadFlowsFile,
  makeStateMachine,
  StmErrorCodes,
  type FlowDefinition,
  type StateMachine,
  type StmResult,
} from '@fw/stm';
import * as path from 'node:path';
import { processFlowActions, processFlowConditions, type ProcessStep } from './process-flow-actions';

/** The flow file shipped with the package. */
export const PROCESS_FLOW_FILE = path.resolve(__dirname, '../../flows/process-flow.xml');

export interface ProcessFlowOptions {
  /** A replacement flow file using the same action and condition names. Default {@link PROCESS_FLOW_FILE}. */
  file?: string;
}

export interface ProcessFlow {
  readonly definition: FlowDefinition;
  /** Enters the initial decision and follows it (EXECUTING or SPLIT_PENDING). */
  start(process: Process, step: ProcessStep): Promise<StmResult>;
  /** Applies an event; 422 `P010` when the current state does not accept it (process untouched). */
  send(process: Process, eventId: string, payload: unknown, step: ProcessStep): Promise<StmResult>;
  /**
   * `send` without a promise when the event's actions are synchronous (see the state machine's
   * `sendNow`): the engine applies hundreds of child reports to a locked parent in a row, and a
   * yield to the event loop per report would keep the parent locked that much longer.
   */
  sendNow(process: Process, eventId: string, payload: unknown, step: ProcessStep): StmResult | Promise<StmResult>;
  isAllowed(state: ProcessState, eventId: string): boolean;
  /** Every event id the flow knows. */
  knownEvents(): ReadonlySet<string>;
  allowedActions(state: ProcessState): AllowedActionInfo[];
  /** The worker launched on entering `stateId` (from the state's `meta-workerType`), if any. */
  workerTypeOf(stateId: string): WorkerType | undefined;
}

const WORKER_TYPES: readonly string[] = Object.values(WorkerType);

export function eventNotAllowed(state: ProcessState, eventId: string): FwError {
  return new FwError({
    code: 422,
    subErrorCode: ProcessErrorCodes.eventNotAllowed,
    description: `Event '${eventId}' is not allowed in state ${state.stateId}`,
    params: [eventId, state.stateId],
  });
}

/** Rethrows a state-machine error, a refused event as the framework's 422. */
function refusal(process: Process, eventId: string, e: unknown): never {
  throw isStmError(e, StmErrorCodes.eventNotAllowed) ? eventNotAllowed(process.state, eventId) : e;
}

/** Loads the flow file and builds the state machine over processes. */
export async function makeProcessFlow(options: ProcessFlowOptions = {}): Promise<ProcessFlow> {
  const file = options.file ?? PROCESS_FLOW_FILE;
  const { flows } = await loadFlowsFile(file);
  const machine: StateMachine<Process, ProcessStep> = makeStateMachine<Process, ProcessStep>({
    flows,
    actions: processFlowActions,
    conditions: processFlowConditions,
  });
  const definition = machine.flow(PROCESS_FLOW_ID);
  const events = new Set<string>();
  const workers = new Map<string, WorkerType>();
  for (const state of definition.states) {
    for (const e of state.events ?? []) events.add(e.id);
    const worker = state.metadata?.workerType;
    if (worker !== undefined && WORKER_TYPES.includes(worker)) workers.set(state.id, worker as WorkerType);
  }

  return {
    definition,
    // New processes carry the initial decision as a placeholder state (Process.state is never empty).
    start: (process, step) => machine.start(process, step, { flowId: PROCESS_FLOW_ID, restart: true }),
    send: (process, eventId, payload, step) =>
      machine.send(process, eventId, payload, step).then(undefined, (e: unknown) => refusal(process, eventId, e)),
    sendNow(process, eventId, payload, step) {
      let result: StmResult | Promise<StmResult>;
      try {
        result = machine.sendNow(process, eventId, payload, step);
      } catch (e) {
        return refusal(process, eventId, e);
      }
      return result instanceof Promise ? result.then(undefined, (e: unknown) => refusal(process, eventId, e)) : result;
    },
    isAllowed: (state, eventId) => machine.isAllowed(state, eventId),
    knownEvents: () => events,
    allowedActions: (state) =>
      machine
        .allowedEvents(state)
        .map((e) => ({ allowedAction: e.eventId, stateId: state.stateId, metadata: { ...e.metadata } })),
    workerTypeOf: (stateId) => workers.get(stateId),
  };
}
