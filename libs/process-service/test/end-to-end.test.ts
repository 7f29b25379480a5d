import type { ProcessCompletedEvent, WorkerDto, WorkerStarter } from '@fw/process-api';
import {
  makeJsonProcessConfigurator,
  makeProcessManager,
  processDb,
  type ProcessManager,
  type ProcessTransaction,
} from '@fw/process-service';
import { describeEachDatabase } from '@fw/test-support';
import { DEFINITIONS } from './support';

/**
 * A starter that runs the worker itself once the launching transaction has committed: splitters
 * split into three chunks, executors double their input, aggregators sum their children's outputs.
 */
function makeInlineStarter(getManager: () => ProcessManager): WorkerStarter<ProcessTransaction> {
  const run = async (w: WorkerDto): Promise<void> => {
    const m = getManager();
    const opts = { tenant: w.tenant };
    if (w.workerType === 'SPLITTER') {
      const subProcesses = [1, 2, 3].map((n) => ({ processType: 'chunk', args: { n } }));
      await m.sendEvent(w.processId, 'splitPartiallyDone', { subProcesses: subProcesses.slice(0, 2) }, opts);
      await m.sendEvent(w.processId, 'splitDone', { subProcesses: subProcesses.slice(2) }, opts);
    } else if (w.workerType === 'EXECUTOR') {
      const n = (w.input as { n?: number } | null)?.n ?? 0;
      await m.sendEvent(w.processId, 'doneSuccessfully', { output: n * 2 }, opts);
    } else {
      const sum = (w.subProcessResults ?? []).reduce((acc, r) => acc + Number(r.output), 0);
      await m.sendEvent(w.processId, 'aggregationDone', { output: { sum } }, opts);
    }
  };
  return {
    startWorker(worker, { afterCommit }) {
      afterCommit(() => run(worker));
    },
  };
}

describeEachDatabase('end to end with a worker starter running after commit', (getDb) => {
  it('splits, executes, aggregates and chains without any test driving it', async () => {
    const completed: ProcessCompletedEvent[] = [];
    const db = processDb(getDb().database);
    const manager: ProcessManager = makeProcessManager({
      db,
      configurator: makeJsonProcessConfigurator({ definitions: DEFINITIONS }),
      workerStarter: makeInlineStarter(() => manager),
      onProcessCompleted: (e) => void completed.push(e),
    });
    const root = (await manager.createProcess({ processDefName: 'batch', args: {} }, { tenant: 'e2e' })).mutatedEntity;
    const done = (await manager.getProcess(root.id, { tenant: 'e2e' })).mutatedEntity;
    expect(done).toMatchObject({
      state: { stateId: 'PROCESSED' },
      output: { sum: 12 },
      numSubProcesses: 3,
      numCompletedSubProcesses: 3,
      splitCompleted: true,
      completedPercent: 100,
    });
    const successor = await db
      .selectFrom('fw_process')
      .select(['process_type', 'input', 'state_id', 'tenant'])
      .where('predecessor_id', '=', root.id)
      .execute();
    expect(successor).toEqual([
      { process_type: 'afterBatch', input: { sum: 12 }, state_id: 'PROCESSED', tenant: 'e2e' },
    ]);
    expect(completed.map((e) => e.processType).sort()).toEqual(['afterBatch', 'batch', 'chunk', 'chunk', 'chunk']);
    expect(completed.every((e) => e.tenantId === 'e2e' && e.successful)).toBe(true);
  });
});
