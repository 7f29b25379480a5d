/** Wires the real process manager, the in-VM starter and the batch service on a test database. */
import { makeInVmProcessStarter, type InVmProcessStarter } from '@fw/invm-process-starter';
import type { Process } from '@fw/process-api';
import { makeJsonProcessConfigurator, makeProcessManager, processDb, type ProcessManager } from '@fw/process-service';
import { makeBatchService, makeManagerEventSink, type BatchService, type WorkerOutcome } from '@fw/process-utils';
import type { TestDatabase } from '@fw/test-support';
import { DEFINITIONS, exampleWorkers } from './workers';

export interface Harness {
  manager: ProcessManager;
  starter: InVmProcessStarter;
  batchService: BatchService;
  outcomes: WorkerOutcome[];
  /** Creates a root process, waits until the whole tree (and successors) ran, returns it reloaded. */
  run(processDefName: string, args: unknown, tenant?: string | null): Promise<Process>;
  get(id: string): Promise<Process>;
  tree(id: string): Promise<Process[]>;
}

export function makeHarness(testDb: TestDatabase): Harness {
  const starter = makeInVmProcessStarter({
    concurrency: 4,
    onDispatched: (_w, outcome) => outcomes.push(outcome as WorkerOutcome),
  });
  const outcomes: WorkerOutcome[] = [];
  const manager = makeProcessManager({
    db: processDb(testDb.database),
    configurator: makeJsonProcessConfigurator({ definitions: DEFINITIONS }),
    workerStarter: starter,
  });
  const batchService = makeBatchService({ workers: exampleWorkers(), sink: makeManagerEventSink(manager) });
  starter.bind(batchService);
  const get = async (id: string) => (await manager.getProcess(id, { tenant: null })).mutatedEntity;
  return {
    manager,
    starter,
    batchService,
    outcomes,
    async run(processDefName, args, tenant = null) {
      const created = await manager.createProcess({ processDefName, args }, { tenant });
      await starter.idle();
      return get(created.mutatedEntity.id);
    },
    get,
    tree: (id) => manager.getProcessTree(id, { tenant: null, recursive: true }),
  };
}

/** The successors created for a completed process. */
export async function successorsOf(testDb: TestDatabase, id: string): Promise<Array<{ id: string }>> {
  return processDb(testDb.database).selectFrom('fw_process').select('id').where('predecessor_id', '=', id).execute();
}
