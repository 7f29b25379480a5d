/**
 * The catalogue of the process flow: its flow id, states and events. The transition table itself
 * lives in `@fw/process-service` (`flows/process-flow.xml`); these constants are what workers,
 * clients and dashboards refer to.
 *
 * @example
 * if (process.state.stateId === ProcessStates.SUB_PROCESSES_PENDING) { ... }
 * await client.patch(`/process/${id}/${ProcessEvents.doneSuccessfully}`, { output });
 */

/** Flow id stored in `Process.state.flowId`. */
export const PROCESS_FLOW_ID = 'process-flow';

export const ProcessStates = {
  /** Decision (pseudo-state) every new process starts at: leaf → EXECUTING, else SPLIT_PENDING. */
  isThisLeafNode: 'isThisLeafNode',
  /** A leaf waits for its EXECUTOR. */
  EXECUTING: 'EXECUTING',
  /** A non-leaf waits for its SPLITTER. */
  SPLIT_PENDING: 'SPLIT_PENDING',
  /** A non-leaf waits for its children (and for `splitDone`). */
  SUB_PROCESSES_PENDING: 'SUB_PROCESSES_PENDING',
  /** Decision: every child reported and the split is final → AGGREGATION_PENDING, else SUB_PROCESSES_PENDING. */
  areAllSubProcessesDone: 'areAllSubProcessesDone',
  /** A non-leaf waits for its AGGREGATOR. */
  AGGREGATION_PENDING: 'AGGREGATION_PENDING',
  /** Decision after `aggregationDone`: errors recorded → PROCESSED_WITH_ERRORS, else PROCESSED. */
  isAggregationSuccessful: 'isAggregationSuccessful',
  /** Terminal: success. */
  PROCESSED: 'PROCESSED',
  /** Terminal: failure. */
  PROCESSED_WITH_ERRORS: 'PROCESSED_WITH_ERRORS',
} as const;

export type ProcessStateId = (typeof ProcessStates)[keyof typeof ProcessStates];

/** The two terminal states. */
export const TERMINAL_STATES: readonly string[] = [ProcessStates.PROCESSED, ProcessStates.PROCESSED_WITH_ERRORS];

/** True for PROCESSED and PROCESSED_WITH_ERRORS. */
export function isTerminalState(stateId: string): boolean {
  return TERMINAL_STATES.includes(stateId);
}

/** State-machine events raised by workers (and by the manager on behalf of children). */
export const ProcessEvents = {
  splitPartiallyDone: 'splitPartiallyDone',
  splitDone: 'splitDone',
  splitDoneWithErrors: 'splitDoneWithErrors',
  doneSuccessfully: 'doneSuccessfully',
  doneWithErrors: 'doneWithErrors',
  subProcessDoneSuccessfully: 'subProcessDoneSuccessfully',
  subProcessDoneWithErrors: 'subProcessDoneWithErrors',
  aggregationDone: 'aggregationDone',
  aggregationDoneWithErrors: 'aggregationDoneWithErrors',
  statusUpdate: 'statusUpdate',
} as const;

export type ProcessEventId = (typeof ProcessEvents)[keyof typeof ProcessEvents];

/** Every event id of {@link ProcessEvents}. */
export const PROCESS_EVENT_IDS: readonly ProcessEventId[] = Object.values(ProcessEvents);

/** True when `value` names one of the {@link ProcessEvents}. */
export function isProcessEventId(value: string): value is ProcessEventId {
  return (PROCESS_EVENT_IDS as readonly string[]).includes(value);
}

/** Application-level events (outside the state machine). */
export const ProcessApplicationEvents = {
  /** Consumed: creates a root process from a {@link ProcessDto}. */
  ProcessCreate: 'ProcessCreate',
  /** Emitted on PROCESSED / PROCESSED_WITH_ERRORS with a {@link ProcessCompletedEvent}; consumed for chaining. */
  ProcessCompleted: 'ProcessCompleted',
} as const;

/** Header carrying the trigger correlation id on POST /process (the body's `triggerId` wins). */
export const TRIGGER_HEADER = 'x-fw-trigger-id';
