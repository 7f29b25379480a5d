/**
 * Typed payloads of the state-machine events, delivered as the body of
 * PATCH /process/{id}/{eventID} or to the manager's `sendEvent`.
 *
 * @example
 * const split: SplitPayload = { subProcesses: [{ processType: 'chunk', args: { from: 0, to: 999 } }] };
 * await manager.sendEvent(parentId, ProcessEvents.splitDone, split);
 */

/** One child requested by a splitter. */
export interface SubProcessRequest {
  /**
   * Optional client-chosen UUID of the child. Re-sending a split with the same ids is idempotent:
   * children that already exist under the same parent are not created or counted twice.
   */
  childId?: string;
  /** Definition name of the child; it must resolve through the configurator. */
  processType: string;
  /** Child input. */
  args?: unknown;
  /** Overrides the definition's `leaf`. */
  leaf?: boolean;
}

/** `splitPartiallyDone`, `splitDone`. `splitDone` also finalizes the split (`splitCompleted`). */
export interface SplitPayload {
  subProcesses?: SubProcessRequest[];
}

/** `doneSuccessfully`, `aggregationDone`. */
export interface OutputPayload {
  output?: unknown;
}

/** `doneWithErrors`, `splitDoneWithErrors`, `aggregationDoneWithErrors`. */
export interface ErrorPayload {
  errors?: string[];
  exceptionMessage?: string | null;
  stackTrace?: string | null;
}

/** `subProcessDoneSuccessfully` (delivered to the parent). */
export interface SubProcessDonePayload {
  childId: string;
  output?: unknown;
}

/** `subProcessDoneWithErrors` (delivered to the parent; the event a failing child raises). */
export interface SubProcessErrorPayload extends ErrorPayload {
  childId: string;
}

/** `statusUpdate`. */
export interface StatusUpdatePayload {
  /** 0..100. */
  percentComplete: number;
}

/** Payload type of each event. */
export interface ProcessEventPayloads {
  splitPartiallyDone: SplitPayload;
  splitDone: SplitPayload;
  splitDoneWithErrors: ErrorPayload;
  doneSuccessfully: OutputPayload;
  doneWithErrors: ErrorPayload;
  subProcessDoneSuccessfully: SubProcessDonePayload;
  subProcessDoneWithErrors: SubProcessErrorPayload;
  aggregationDone: OutputPayload;
  aggregationDoneWithErrors: ErrorPayload;
  statusUpdate: StatusUpdatePayload;
}
