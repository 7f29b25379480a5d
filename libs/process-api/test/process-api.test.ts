import {
  isProcessEventId,
  isTerminalState,
  PredecessorArgs,
  predecessorArgsOf,
  PROCESS_EVENT_IDS,
  ProcessErrorCodes,
  ProcessStates,
  WORKER_TYPE_BY_STATE,
  WorkerType,
} from '@fw/process-api';

describe('process-api catalogue', () => {
  it('knows the terminal states', () => {
    expect(isTerminalState(ProcessStates.PROCESSED)).toBe(true);
    expect(isTerminalState(ProcessStates.PROCESSED_WITH_ERRORS)).toBe(true);
    expect(isTerminalState(ProcessStates.EXECUTING)).toBe(false);
  });

  it('lists every worker event', () => {
    expect([...PROCESS_EVENT_IDS].sort()).toEqual(
      [
        'aggregationDone',
        'aggregationDoneWithErrors',
        'doneSuccessfully',
        'doneWithErrors',
        'splitDone',
        'splitDoneWithErrors',
        'splitPartiallyDone',
        'statusUpdate',
        'subProcessDoneSuccessfully',
        'subProcessDoneWithErrors',
      ].sort(),
    );
    expect(isProcessEventId('splitDone')).toBe(true);
    expect(isProcessEventId('ProcessCreate')).toBe(false);
  });

  it('maps worker states to worker types', () => {
    expect(WORKER_TYPE_BY_STATE[ProcessStates.SPLIT_PENDING]).toBe(WorkerType.SPLITTER);
    expect(WORKER_TYPE_BY_STATE[ProcessStates.EXECUTING]).toBe(WorkerType.EXECUTOR);
    expect(WORKER_TYPE_BY_STATE[ProcessStates.AGGREGATION_PENDING]).toBe(WorkerType.AGGREGATOR);
    expect(WORKER_TYPE_BY_STATE[ProcessStates.SUB_PROCESSES_PENDING]).toBeUndefined();
  });

  it('defaults predecessorArgs to BOTH', () => {
    expect(predecessorArgsOf({})).toBe(PredecessorArgs.BOTH);
    expect(predecessorArgsOf({ predecessorArgs: null })).toBe(PredecessorArgs.BOTH);
    expect(predecessorArgsOf({ predecessorArgs: 'OUTPUT' })).toBe('OUTPUT');
  });

  it('uses P-prefixed, distinct sub-error codes', () => {
    const codes = Object.values(ProcessErrorCodes);
    expect(codes.every((c) => /^P\d{3}$/.test(c))).toBe(true);
    expect(new Set(codes).size).toBe(codes.length);
  });
});
