import { isStmError, StmErrorCodes, type StateMachine } from '../src/index';
import {
  ALL_EVENTS,
  children,
  makeProcessMachine,
  newProcess,
  type TestContext,
  type TestProcess,
} from './support/process-fixture';

let machine: StateMachine<TestProcess, TestContext>;
let ctx: TestContext;

beforeAll(async () => {
  machine = await makeProcessMachine();
});
beforeEach(() => {
  ctx = { log: [] };
});

const stateOf = (p: TestProcess): string | undefined => p.state?.stateId;

async function started(leaf: boolean): Promise<TestProcess> {
  const p = newProcess(leaf);
  await machine.start(p, ctx);
  return p;
}

/** A non-leaf process in SUB_PROCESSES_PENDING with `n` children created, split not complete. */
async function waitingForChildren(n: number): Promise<TestProcess> {
  const p = await started(false);
  await machine.send(p, 'splitPartiallyDone', children(n), ctx);
  return p;
}

describe('process flow: creation (decision isThisLeafNode)', () => {
  it('a leaf process goes to EXECUTING and launches the EXECUTOR', async () => {
    const p = newProcess(true);
    const result = await machine.start(p, ctx);
    expect(p.state).toEqual({ flowId: 'process-flow', stateId: 'EXECUTING' });
    expect(result.state).toEqual(p.state);
    expect(result.previousState).toBeUndefined();
    expect(result.steps).toEqual([
      { from: undefined, to: 'isThisLeafNode' },
      { from: 'isThisLeafNode', to: 'EXECUTING', condition: 'leaf' },
    ]);
    expect(p.launched).toEqual(['EXECUTOR']);
    expect(result.isFinal).toBe(false);
  });

  it('a non-leaf process goes to SPLIT_PENDING and launches the SPLITTER', async () => {
    const p = await started(false);
    expect(stateOf(p)).toBe('SPLIT_PENDING');
    expect(p.launched).toEqual(['SPLITTER']);
  });
});

describe('process flow: EXECUTING', () => {
  it('doneSuccessfully → PROCESSED, output recorded, ProcessCompleted emitted', async () => {
    const p = await started(true);
    const result = await machine.send(p, 'doneSuccessfully', { output: { rows: 3 } }, ctx);
    expect(stateOf(p)).toBe('PROCESSED');
    expect(result.isFinal).toBe(true);
    expect(result.previousState).toEqual({ flowId: 'process-flow', stateId: 'EXECUTING' });
    expect(p.output).toEqual({ rows: 3 });
    expect(p.completedEvents).toEqual(['PROCESSED']);
  });

  it('doneWithErrors → PROCESSED_WITH_ERRORS', async () => {
    const p = await started(true);
    await machine.send(p, 'doneWithErrors', { errors: ['boom'], exceptionMessage: 'x', stackTrace: '' }, ctx);
    expect(stateOf(p)).toBe('PROCESSED_WITH_ERRORS');
    expect(p.errors).toEqual(['boom']);
    expect(p.completedEvents).toEqual(['PROCESSED_WITH_ERRORS']);
  });

  it('statusUpdate is internal: state kept, worker not relaunched', async () => {
    const p = await started(true);
    const result = await machine.send(p, 'statusUpdate', { percentComplete: 40 }, ctx);
    expect(stateOf(p)).toBe('EXECUTING');
    expect(p.completedPercent).toBe(40);
    expect(p.launched).toEqual(['EXECUTOR']);
    expect(result.steps).toEqual([{ from: 'EXECUTING', to: 'EXECUTING', eventId: 'statusUpdate', internal: true }]);
    expect(result.actions).toEqual([{ phase: 'transition', name: 'recordProgress', stateId: 'EXECUTING' }]);
  });
});

describe('process flow: SPLIT_PENDING and SUB_PROCESSES_PENDING', () => {
  it('splitPartiallyDone → SUB_PROCESSES_PENDING', async () => {
    const p = await waitingForChildren(2);
    expect(stateOf(p)).toBe('SUB_PROCESSES_PENDING');
    expect(p.numSubProcesses).toBe(2);
  });

  it('splitDone with children → SUB_PROCESSES_PENDING through areAllSubProcessesDone (false)', async () => {
    const p = await started(false);
    const result = await machine.send(p, 'splitDone', children(3), ctx);
    expect(stateOf(p)).toBe('SUB_PROCESSES_PENDING');
    expect(p.splitCompleted).toBe(true);
    expect(result.steps.map((s) => s.to)).toEqual(['areAllSubProcessesDone', 'SUB_PROCESSES_PENDING']);
    expect(result.steps[1]?.condition).toBe('else');
  });

  it('splitDone without any children goes on to aggregation (does not hang)', async () => {
    const p = await started(false);
    await machine.send(p, 'splitDone', children(0), ctx);
    expect(stateOf(p)).toBe('AGGREGATION_PENDING');
    expect(p.launched).toEqual(['SPLITTER', 'AGGREGATOR']);
  });

  it('splitDoneWithErrors → PROCESSED_WITH_ERRORS', async () => {
    const p = await started(false);
    await machine.send(p, 'splitDoneWithErrors', { errors: ['split failed'] }, ctx);
    expect(stateOf(p)).toBe('PROCESSED_WITH_ERRORS');
    expect(p.completedEvents).toEqual(['PROCESSED_WITH_ERRORS']);
  });

  it('a child report with areAllSubProcessesDone false stays in SUB_PROCESSES_PENDING', async () => {
    const p = await started(false);
    await machine.send(p, 'splitDone', children(2), ctx);
    await machine.send(p, 'subProcessDoneSuccessfully', { childId: 'c1', output: {} }, ctx);
    expect(stateOf(p)).toBe('SUB_PROCESSES_PENDING');
    expect(p.numCompletedSubProcesses).toBe(1);
    expect(p.launched).toEqual(['SPLITTER']);
  });

  it('the last child report with areAllSubProcessesDone true → AGGREGATION_PENDING, AGGREGATOR launched', async () => {
    const p = await started(false);
    await machine.send(p, 'splitDone', children(2), ctx);
    await machine.send(p, 'subProcessDoneSuccessfully', { childId: 'c1', output: {} }, ctx);
    const result = await machine.send(p, 'subProcessDoneWithErrors', { childId: 'c2', errors: ['child failed'] }, ctx);
    expect(stateOf(p)).toBe('AGGREGATION_PENDING');
    expect(result.steps).toEqual([
      { from: 'SUB_PROCESSES_PENDING', to: 'areAllSubProcessesDone', eventId: 'subProcessDoneWithErrors' },
      { from: 'areAllSubProcessesDone', to: 'AGGREGATION_PENDING', condition: 'allSubProcessesDone' },
    ]);
    expect(p.launched).toEqual(['SPLITTER', 'AGGREGATOR']);
  });

  it('children finishing before the split is complete do not trigger aggregation early', async () => {
    const p = await waitingForChildren(2);
    await machine.send(p, 'subProcessDoneSuccessfully', { childId: 'c1' }, ctx);
    await machine.send(p, 'subProcessDoneSuccessfully', { childId: 'c2' }, ctx);
    expect(stateOf(p)).toBe('SUB_PROCESSES_PENDING');
    await machine.send(p, 'splitPartiallyDone', children(1), ctx);
    expect(stateOf(p)).toBe('SUB_PROCESSES_PENDING');
    await machine.send(p, 'subProcessDoneSuccessfully', { childId: 'c3' }, ctx);
    expect(stateOf(p)).toBe('SUB_PROCESSES_PENDING');
    await machine.send(p, 'splitDone', children(0), ctx);
    expect(stateOf(p)).toBe('AGGREGATION_PENDING');
    expect(p.launched).toEqual(['SPLITTER', 'AGGREGATOR']);
  });
});

describe('process flow: AGGREGATION_PENDING', () => {
  async function aggregating(childErrors: boolean): Promise<TestProcess> {
    const p = await started(false);
    await machine.send(p, 'splitDone', children(1), ctx);
    const event = childErrors ? 'subProcessDoneWithErrors' : 'subProcessDoneSuccessfully';
    await machine.send(p, event, { childId: 'c1', errors: ['child failed'] }, ctx);
    expect(stateOf(p)).toBe('AGGREGATION_PENDING');
    return p;
  }

  it('aggregationDone without errors → PROCESSED', async () => {
    const p = await aggregating(false);
    const result = await machine.send(p, 'aggregationDone', { output: { total: 1 } }, ctx);
    expect(stateOf(p)).toBe('PROCESSED');
    expect(result.steps.map((s) => s.to)).toEqual(['isAggregationSuccessful', 'PROCESSED']);
    expect(p.output).toEqual({ total: 1 });
    expect(p.completedEvents).toEqual(['PROCESSED']);
  });

  it('aggregationDone with errors present → PROCESSED_WITH_ERRORS', async () => {
    const p = await aggregating(true);
    await machine.send(p, 'aggregationDone', { output: {} }, ctx);
    expect(stateOf(p)).toBe('PROCESSED_WITH_ERRORS');
    expect(p.completedEvents).toEqual(['PROCESSED_WITH_ERRORS']);
  });

  it('aggregationDoneWithErrors → PROCESSED_WITH_ERRORS', async () => {
    const p = await aggregating(false);
    await machine.send(p, 'aggregationDoneWithErrors', { errors: ['agg failed'] }, ctx);
    expect(stateOf(p)).toBe('PROCESSED_WITH_ERRORS');
    expect(p.errors).toEqual(['agg failed']);
  });
});

describe('process flow: allowed and refused events', () => {
  const allowed: Record<string, string[]> = {
    EXECUTING: ['doneSuccessfully', 'doneWithErrors', 'statusUpdate'],
    SPLIT_PENDING: ['splitPartiallyDone', 'splitDone', 'splitDoneWithErrors', 'statusUpdate'],
    SUB_PROCESSES_PENDING: [
      'splitPartiallyDone',
      'splitDone',
      'splitDoneWithErrors',
      'subProcessDoneSuccessfully',
      'subProcessDoneWithErrors',
      'statusUpdate',
    ],
    AGGREGATION_PENDING: ['aggregationDone', 'aggregationDoneWithErrors', 'statusUpdate'],
    PROCESSED: [],
    PROCESSED_WITH_ERRORS: [],
  };

  it.each(Object.entries(allowed))('allowedEvents(%s)', (stateId, events) => {
    const got = machine.allowedEvents({ flowId: 'process-flow', stateId }).map((e) => e.eventId);
    expect(got.sort()).toEqual([...events].sort());
  });

  it('allowedEvents carries target and metadata', () => {
    expect(machine.allowedEvents({ flowId: 'process-flow', stateId: 'EXECUTING' })[0]).toEqual({
      eventId: 'doneSuccessfully',
      toStateId: 'PROCESSED',
      metadata: { payload: 'output' },
    });
  });

  const refusals = Object.entries(allowed).flatMap(([stateId, events]) =>
    ALL_EVENTS.filter((e) => !events.includes(e)).map((eventId) => [stateId, eventId] as const),
  );

  it.each(refusals)('%s refuses %s and keeps its state', async (stateId, eventId) => {
    const p = newProcess(true);
    p.state = { flowId: 'process-flow', stateId };
    const before = JSON.stringify(p);
    let error: unknown;
    try {
      await machine.send(p, eventId, {}, ctx);
    } catch (e) {
      error = e;
    }
    expect(isStmError(error, StmErrorCodes.eventNotAllowed)).toBe(true);
    expect((error as Error).message).toContain(`state '${stateId}', event '${eventId}'`);
    expect(JSON.stringify(p)).toBe(before);
    expect(ctx.log).toEqual([]);
  });

  it('isFinal and isAllowed', () => {
    expect(machine.isFinal({ flowId: 'process-flow', stateId: 'PROCESSED' })).toBe(true);
    expect(machine.isFinal({ flowId: 'process-flow', stateId: 'EXECUTING' })).toBe(false);
    expect(machine.isAllowed({ flowId: 'process-flow', stateId: 'EXECUTING' }, 'doneSuccessfully')).toBe(true);
    expect(machine.isAllowed({ flowId: 'process-flow', stateId: 'EXECUTING' }, 'splitDone')).toBe(false);
  });
});
