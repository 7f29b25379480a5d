/**
 * Test support: a recording WorkerStarter (a real implementation of the port that records every
 * launch after commit) and a manager wired to a test database.
 */
import { isFwError, type FwError } from '@fw/core';
import type { Process, ProcessDef, WorkerDto, WorkerStarter, WorkerType } from '@fw/process-api';
import {
  makeJsonProcessConfigurator,
  makeProcessManager,
  processDb,
  type ProcessManager,
  type ProcessManagerOptions,
  type ProcessTransaction,
} from '@fw/process-service';
import type { TestDatabase } from '@fw/test-support';

export interface RecordingStarter extends WorkerStarter<ProcessTransaction> {
  /** Launches whose transaction committed, in order. */
  readonly started: WorkerDto[];
  /** Number of startWorker calls made inside a transaction (committed or not). */
  calls: number;
  /** Launches for one process (optionally of one worker type). */
  launchesOf(processId: string, workerType?: WorkerType): WorkerDto[];
  /** Extra behaviour run inside the transaction (to test mutation or failures). */
  onStart?: (worker: WorkerDto) => void;
}

export function makeRecordingStarter(): RecordingStarter {
  const started: WorkerDto[] = [];
  const starter: RecordingStarter = {
    started,
    calls: 0,
    startWorker(worker, context) {
      starter.calls += 1;
      if (context.transaction === undefined || context.transaction === null)
        throw new Error('no transaction given to the starter');
      starter.onStart?.(worker);
      context.afterCommit(() => {
        started.push(worker);
      });
    },
    launchesOf(processId, workerType) {
      return started.filter(
        (w) => w.processId === processId && (workerType === undefined || w.workerType === workerType),
      );
    },
  };
  return starter;
}

export const DEFINITIONS: ProcessDef[] = [
  { processType: 'leafJob', leaf: true, config: { queue: 'leaf-q', batchSize: '10' } },
  { processType: 'batch', leaf: false, config: { queue: 'batch-q' } },
  { processType: 'chunk', leaf: true, parentProcessType: 'batch', config: { queue: 'chunk-q' } },
  { processType: 'nested', leaf: false, parentProcessType: 'batch' },
  { processType: 'part', leaf: true, parentProcessType: 'nested' },
  { processType: 'first', leaf: true },
  { processType: 'afterInput', leaf: true, predecessorProcessType: 'first', predecessorArgs: 'INPUT' },
  { processType: 'afterOutput', leaf: true, predecessorProcessType: 'first', predecessorArgs: 'OUTPUT' },
  { processType: 'afterBoth', leaf: true, predecessorProcessType: 'first' },
  { processType: 'afterBatch', leaf: true, predecessorProcessType: 'batch', predecessorArgs: 'OUTPUT' },
];

export interface Harness {
  manager: ProcessManager;
  starter: RecordingStarter;
}

export function makeHarness(testDb: TestDatabase, overrides: Partial<ProcessManagerOptions> = {}): Harness {
  const starter = makeRecordingStarter();
  const manager = makeProcessManager({
    db: processDb(testDb.database),
    configurator: makeJsonProcessConfigurator({ definitions: DEFINITIONS }),
    workerStarter: starter,
    ...overrides,
  });
  return { manager, starter };
}

/** Creates a process and returns it. */
export async function create(
  manager: ProcessManager,
  processDefName: string,
  args: unknown = {},
  tenant: string | null = null,
): Promise<Process> {
  return (await manager.createProcess({ processDefName, args }, { tenant })).mutatedEntity;
}

export async function get(manager: ProcessManager, id: string): Promise<Process> {
  return (await manager.getProcess(id, { tenant: null })).mutatedEntity;
}

/** Sends an event without tenant scoping. */
export async function send(
  manager: ProcessManager,
  id: string,
  eventId: string,
  payload: unknown = {},
): Promise<Process> {
  return (await manager.sendEvent(id, eventId, payload, { tenant: null })).mutatedEntity;
}

/** The FwError a call was refused with (fails the test when the call succeeds or throws something else). */
export async function refusal(promise: Promise<unknown>): Promise<FwError> {
  try {
    await promise;
  } catch (error) {
    if (isFwError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to be refused');
}
