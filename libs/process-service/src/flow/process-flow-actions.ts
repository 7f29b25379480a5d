/**
 * The actions and conditions named in `flows/process-flow.xml`. They change the in-memory
 * process and record what the manager must do in the same transaction (errors to insert,
 * children to create, completion); the manager saves the process afterwards.
 */
import type {
  ErrorPayload,
  OutputPayload,
  Process,
  ProcessErrorRecord,
  SplitPayload,
  StatusUpdatePayload,
  SubProcessErrorPayload,
  SubProcessRequest,
} from '@fw/process-api';
import { ProcessEvents } from '@fw/process-api';
import type { StmAction, StmCondition } from '@fw/stm';
import type { ProcessTransaction } from '../repository/process-tables';

/**
 * The context (`C`) of every action: one step of the manager, i.e. one event or start applied
 * to one process inside one transaction.
 */
export interface ProcessStep {
  readonly trx: ProcessTransaction;
  /** The step's clock reading, used for every time written. */
  readonly now: Date;
  /** Errors recorded during the step (also appended to `process.errors`); the manager inserts them. */
  readonly newErrors: ProcessErrorRecord[];
  /** Set when a terminal state was entered. */
  completed: boolean;
  /** Creates (and launches) children of `parent`, updating `parent.numSubProcesses`. */
  createSubProcesses(parent: Process, requests: readonly SubProcessRequest[]): Promise<void>;
}

export type ProcessAction = StmAction<Process, ProcessStep>;
export type ProcessCondition = StmCondition<Process, ProcessStep>;

function addError(process: Process, step: ProcessStep, processId: string, payload: ErrorPayload): void {
  const record: ProcessErrorRecord = {
    processId,
    timeOfCompletion: step.now.toISOString(),
    errors: payload.errors ?? [],
    exceptionMessage: payload.exceptionMessage ?? null,
    stackTrace: payload.stackTrace ?? null,
  };
  process.errors.push(record);
  step.newErrors.push(record);
}

function updateChildPercent(process: Process): void {
  if (process.splitCompleted && process.numSubProcesses > 0) {
    process.completedPercent = Math.floor((100 * process.numCompletedSubProcesses) / process.numSubProcesses);
  }
}

const createSubProcesses: ProcessAction = async ({ entity, context, payload }) => {
  await context.createSubProcesses(entity, (payload as SplitPayload).subProcesses ?? []);
};

/** Action implementations by the name the flow file uses. */
export const processFlowActions: Readonly<Record<string, ProcessAction>> = {
  recordOutput: ({ entity, payload }) => {
    const output = (payload as OutputPayload).output;
    entity.output = output === undefined ? null : output;
  },
  recordErrors: ({ entity, context, payload }) => {
    addError(entity, context, entity.id, payload as ErrorPayload);
  },
  recordProgress: ({ entity, payload }) => {
    const percent = (payload as StatusUpdatePayload).percentComplete;
    entity.completedPercent = Math.max(0, Math.min(100, Math.round(percent)));
  },
  createSubProcesses,
  completeSplit: async (args) => {
    await createSubProcesses(args);
    args.entity.splitCompleted = true;
    updateChildPercent(args.entity);
  },
  failSplit: ({ entity, context, payload }) => {
    addError(entity, context, entity.id, payload as ErrorPayload);
    entity.splitCompleted = true;
    updateChildPercent(entity);
  },
  recordChildCompletion: ({ entity, context, payload, eventId }) => {
    entity.numCompletedSubProcesses += 1;
    if (eventId === ProcessEvents.subProcessDoneWithErrors) {
      const p = payload as SubProcessErrorPayload;
      addError(entity, context, p.childId, p);
    }
    updateChildPercent(entity);
  },
  markCompleted: ({ entity, context }) => {
    entity.completedPercent = 100;
    context.completed = true;
  },
};

/** Condition implementations by the name the flow file uses. */
export const processFlowConditions: Readonly<Record<string, ProcessCondition>> = {
  leaf: ({ entity }) => entity.leaf,
  allSubProcessesDone: ({ entity }) =>
    entity.splitCompleted && entity.numCompletedSubProcesses >= entity.numSubProcesses,
  hasErrors: ({ entity }) => entity.errors.length > 0,
};
