import * as path from 'node:path';
import { loadFlowsFile, makeStateMachine, type StateMachine, type StmAction, type StmState } from '../../src/index';

/** A stand-in for the Process entity (the fields the process flow reads and writes). */
export interface TestProcess {
  id: string;
  leaf: boolean;
  state?: StmState;
  splitCompleted: boolean;
  numSubProcesses: number;
  numCompletedSubProcesses: number;
  errors: string[];
  output?: unknown;
  completedPercent: number;
  /** Workers "launched" by the entry action, in order. */
  launched: string[];
  /** ProcessCompleted events "emitted". */
  completedEvents: string[];
}

/** The context the process service would pass (a transaction); here a log of action calls. */
export interface TestContext {
  log: string[];
}

export const processFlowPath = path.join(__dirname, '..', 'fixtures', 'process-flow.xml');

export const WORKERS: Readonly<Record<string, string>> = {
  EXECUTING: 'EXECUTOR',
  SPLIT_PENDING: 'SPLITTER',
  AGGREGATION_PENDING: 'AGGREGATOR',
};

function field<T>(payload: unknown, name: string, fallback: T): T {
  if (typeof payload === 'object' && payload !== null && name in payload)
    return (payload as Record<string, T>)[name] as T;
  return fallback;
}

function logged(name: string, body: StmAction<TestProcess, TestContext>): StmAction<TestProcess, TestContext> {
  return async (args) => {
    args.context.log.push(`${name}@${args.stateId}`);
    await body(args);
  };
}

export const processActions: Record<string, StmAction<TestProcess, TestContext>> = {
  launchWorker: logged('launchWorker', ({ entity, stateId, stateMetadata }) => {
    // the worker type comes from the state's meta-workerType attribute; WORKERS maps states to worker types
    expect(stateMetadata['workerType']).toBe(WORKERS[stateId]);
    entity.launched.push(stateMetadata['workerType'] ?? `unknown worker for ${stateId}`);
  }),
  recordOutput: logged('recordOutput', ({ entity, payload }) => {
    entity.output = field(payload, 'output', undefined);
  }),
  recordErrors: logged('recordErrors', ({ entity, payload }) => {
    entity.errors.push(...field<string[]>(payload, 'errors', []));
  }),
  createSubProcesses: logged('createSubProcesses', ({ entity, payload }) => {
    entity.numSubProcesses += field<unknown[]>(payload, 'subProcesses', []).length;
  }),
  completeSplit: logged('completeSplit', ({ entity, payload }) => {
    entity.numSubProcesses += field<unknown[]>(payload, 'subProcesses', []).length;
    entity.splitCompleted = true;
  }),
  recordChildCompletion: logged('recordChildCompletion', ({ entity, payload, eventId }) => {
    entity.numCompletedSubProcesses += 1;
    if (eventId === 'subProcessDoneWithErrors') entity.errors.push(...field<string[]>(payload, 'errors', []));
  }),
  recordProgress: logged('recordProgress', ({ entity, payload }) => {
    entity.completedPercent = field(payload, 'percentComplete', entity.completedPercent);
  }),
  emitProcessCompleted: logged('emitProcessCompleted', ({ entity, stateId }) => {
    entity.completedEvents.push(stateId);
  }),
};

export async function makeProcessMachine(): Promise<StateMachine<TestProcess, TestContext>> {
  const { flows, warnings } = await loadFlowsFile(processFlowPath);
  if (warnings.length > 0) throw new Error(`unexpected warnings: ${warnings.map((w) => w.message).join('; ')}`);
  return makeStateMachine<TestProcess, TestContext>({
    flows,
    actions: processActions,
    conditions: {
      leaf: ({ entity }) => entity.leaf,
      allSubProcessesDone: ({ entity }) =>
        entity.splitCompleted && entity.numCompletedSubProcesses === entity.numSubProcesses,
      hasErrors: ({ entity }) => entity.errors.length > 0,
    },
    strict: true,
  });
}

export function newProcess(leaf: boolean): TestProcess {
  return {
    id: 'p1',
    leaf,
    splitCompleted: false,
    numSubProcesses: 0,
    numCompletedSubProcesses: 0,
    errors: [],
    completedPercent: 0,
    launched: [],
    completedEvents: [],
  };
}

export const ALL_EVENTS = [
  'doneSuccessfully',
  'doneWithErrors',
  'splitPartiallyDone',
  'splitDone',
  'splitDoneWithErrors',
  'subProcessDoneSuccessfully',
  'subProcessDoneWithErrors',
  'aggregationDone',
  'aggregationDoneWithErrors',
  'statusUpdate',
] as const;

export const children = (n: number): { subProcesses: Array<{ processType: string; args: object }> } => ({
  subProcesses: Array.from({ length: n }, () => ({ processType: 'child', args: {} })),
});
